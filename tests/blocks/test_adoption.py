"""Adopting the engine on an existing site: site-wide policies per language, a build that
reports instead of stopping, and ``ruota-docs init`` proposing what to write."""

from __future__ import annotations

import subprocess
import sys

import pytest

from _support import clean_env, run_mkdocs
from ruota_docs.blocks import policies, renderer, site_config

MKDOCS_YML = """\
site_name: adopting
theme:
  name: mkdocs
plugins:
  - ruota_docs{options}
markdown_extensions:
  - pymdownx.superfences
"""

PAGE = """\
# Guide

```html
<b>bold</b>
```

```console
$ pip install thing
```

```python
print("runs")
```

```
no language
```
"""


def make(tmp_path, options: str = "") -> None:
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML.format(options=options), encoding="utf-8")
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs/index.md").write_text(PAGE, encoding="utf-8")


def cli(root, *args):
    return subprocess.run([sys.executable, "-m", "ruota_docs.cli", *args], cwd=root, env=clean_env(),
                          capture_output=True, text=True, timeout=120)


def test_policies_settle_a_language_site_wide(tmp_path):
    make(tmp_path, ':\n      policies:\n        html: show\n        console: skip "installs packages"\n')
    blocks = renderer.render(tmp_path, tmp_path / "docs/index.md").blocks
    assert [(b.fence_language, b.kind, b.not_run_reason, bool(b.error)) for b in blocks] == [
        ("html", "shown", None, False), ("console", "shell", "installs packages", False),
        ("python", "python", None, False), ("", "invalid", None, True)]


def test_a_policy_that_is_not_one_is_an_error_naming_the_file(tmp_path):
    make(tmp_path, ":\n      policies:\n        html: maybe\n")
    problems = renderer.render(tmp_path, tmp_path / "docs/index.md").problems
    assert any("policies: html: 'maybe' is not a policy; write show, run or skip" in p.message for p in problems)
    with pytest.raises(site_config.ConfigError, match="mkdocs.yml"):
        policies.read(tmp_path)


def test_report_only_lists_every_unsettled_block_and_builds(tmp_path):
    make(tmp_path)
    stopped = run_mkdocs(tmp_path)
    assert stopped.returncode != 0 and "index.md:3: code block with language 'html' has no run policy" in stopped.stderr
    make(tmp_path, ":\n      report_only: true\n")
    built = run_mkdocs(tmp_path)
    assert built.returncode == 0, built.stderr[-2000:]
    for line in ("index.md:3: code block with language 'html'", "index.md:7: console block is neither marked safe",
                 "index.md:15: code block with no language"):
        assert f"report_only: {line}" in built.stderr
    assert "report_only: 3 block(s) or page problem(s) to settle" in built.stderr
    assert (tmp_path / "site/index.html").exists()


def test_init_proposes_and_writes_only_when_asked(tmp_path):
    make(tmp_path)
    before = (tmp_path / "mkdocs.yml").read_text()
    shown = cli(tmp_path, "init")
    assert shown.returncode == 0, shown.stderr
    assert "3 blocks with no run policy" not in shown.stdout  # the bare fence needs a language: not a policy
    assert "2 blocks with no run policy in 2 languages" in shown.stdout
    assert "      policies:\n        console: 'skip \"not run yet" in shown.stdout
    assert "        html: show  # 1 block(s)" in shown.stdout
    assert "index.md:15: code block with no language" in shown.stdout
    assert (tmp_path / "mkdocs.yml").read_text() == before
    written = cli(tmp_path, "init", "--write")
    assert written.returncode == 0, written.stderr
    blocks = renderer.render(tmp_path, tmp_path / "docs/index.md").blocks
    assert [bool(b.error) for b in blocks] == [False, False, False, True]
    again = cli(tmp_path, "init", "--write")  # settled: nothing more to propose, nothing written
    assert again.returncode == 0 and "0 blocks with no run policy" in again.stdout
    assert "policies:" not in again.stdout


@pytest.mark.parametrize("entry", ["  ruota_docs:\n", "  ruota_docs: null\n", "  ruota_docs:\n    report_only: false\n"])
def test_init_writes_under_plugins_written_as_a_mapping(tmp_path, entry):
    make(tmp_path)
    mkdocs = tmp_path / "mkdocs.yml"
    mkdocs.write_text(mkdocs.read_text().replace("  - ruota_docs\n", entry).replace("plugins:\n", "plugins:\n  search:\n"))
    written = cli(tmp_path, "init", "--write")
    assert written.returncode == 0, written.stderr
    options = site_config.plugin_options(site_config.load_mkdocs_config(tmp_path), "ruota_docs")
    assert set(options["policies"]) == {"html", "console"}
    assert site_config.plugin_options(site_config.load_mkdocs_config(tmp_path), "search") == {}


def test_the_empty_language_policy_settles_blocks_written_with_no_language(tmp_path):
    make(tmp_path, ":\n      policies:\n        '': show\n")
    blocks = renderer.render(tmp_path, tmp_path / "docs/index.md").blocks
    assert (blocks[-1].fence_language, blocks[-1].kind, blocks[-1].error) == ("", "shown", None)
    assert [bool(b.error) for b in blocks[:2]] == [True, True]  # html and console keep needing theirs
