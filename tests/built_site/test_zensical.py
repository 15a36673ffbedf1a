"""A single-language site built by Zensical, which reads mkdocs.yml and runs the site's
Python-Markdown extensions but no MkDocs plugin: ``pytest docs`` runs its blocks and writes the
record, and the engine's Markdown extension (`ruota_docs.site.markdown_panels`, configured as one
of the site's ``markdown_extensions``) puts that record's panel under each block of Zensical's
HTML. A site configured by ``zensical.toml`` alone is not read by the engine: the run names the
file and what to write instead."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from _support import clean_env, outcomes, panels, read_ledger, run_pytest, words
from ruota_docs.site import markdown_panels

pytest.importorskip("zensical", reason="Zensical is not installed (pip install -e '.[tests]' installs it)")

CONFIG = """\
site_name: Sample
markdown_extensions:
  - pymdownx.superfences
  - ruota_docs.site.markdown_panels
extra_css:
  - ruota.css
"""
PAGE = """\
# Sample

```python
print("hello")
```

```python
x = 2 + 2
assert x == 4
```
"""


def _site(root, config_name: str = "mkdocs.yml", config: str = CONFIG):
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    shutil.copyfile(markdown_panels.STYLESHEET, root / "docs" / "ruota.css")  # the site includes it itself
    (root / config_name).write_text(config, encoding="utf-8")
    (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    return root


def test_zensical_builds_the_panels_of_the_record_pytest_wrote(tmp_path):
    root = _site(tmp_path / "site")
    run = run_pytest(root, "docs")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert outcomes(run.stdout) == {("index.md", 3): "PASSED", ("index.md", 7): "PASSED"}
    records = list((root / "verification").glob("*.json"))
    assert len(records) == 1
    blocks = read_ledger(records[0])["blocks"]
    assert sorted(blocks) == ["index.md#0", "index.md#1"]
    assert {entry["outcome"] for entry in blocks.values()} == {"passed"}

    built = subprocess.run([sys.executable, "-m", "zensical", "build"], cwd=root, env=clean_env(),
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    page = (root / "site" / "index.html").read_text(encoding="utf-8")
    found = [words(p) for p in panels(page)]
    assert len(found) == 2, page[-3000:]
    assert all("Verified on" in text for text in found), found
    assert page.index("hello") < page.index("ruota-verify")  # under the code
    assert "data-ruota" not in page  # no marker left unfilled
    assert 'href="./ruota.css"' in page and (root / "site" / "ruota.css").is_file()


def test_a_zensical_toml_site_is_named_with_what_to_write(tmp_path):
    toml = ('[project]\nsite_name = "Sample"\n\n[project.markdown_extensions.pymdownx.superfences]\n'
            '[project.markdown_extensions."ruota_docs.site.markdown_panels"]\n')
    root = _site(tmp_path / "site", "zensical.toml", toml)
    run = run_pytest(root, "docs")
    assert run.returncode == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "zensical.toml: the engine reads a site's settings from mkdocs.yml" in run.stdout
    assert not (root / "verification").exists()
