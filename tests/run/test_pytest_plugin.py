"""The engine's pytest plugin (ruota_docs.run.pytest_plugin) in a run that collects no page.

pytest loads the plugin in every run of an environment where ruota-docs is installed: a
run of other tests must not pay for the engine (the renderer, Python-Markdown, Sybil, the
ledger, the device probe, xdist's scheduler).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from _support import clean_env, run_pytest, write_tree

#: What such a run may import of the engine and of what the engine uses (compat: the versions of the
#: rendering stack, read from the installed packages' metadata without importing them).
ALLOWED = {"ruota_docs", "ruota_docs.run", "ruota_docs.run.pytest_plugin", "ruota_docs.run.unprivileged",
           "ruota_docs.blocks", "ruota_docs.blocks.compat"}
WATCHED = ("ruota_docs", "markdown", "pymdownx", "sybil", "mkdocs", "yaml", "xdist.scheduler")

REPORTER = """
import json, sys

def pytest_sessionfinish(session):
    watched = {watched!r}
    with open("loaded.json", "w") as out:
        json.dump(sorted(m for m in sys.modules if any(m == w or m.startswith(w + ".") for w in watched)), out)
"""


def loaded_by(tmp_path, *args: str) -> list[str]:
    (tmp_path / "test_other.py").write_text("def test_other():\n    assert True\n", encoding="utf-8")
    (tmp_path / "conftest.py").write_text(REPORTER.format(watched=WATCHED), encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", *args, "test_other.py"], cwd=tmp_path,
                            env=clean_env(), capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads((tmp_path / "loaded.json").read_text(encoding="utf-8"))  # the controller's, written last


def test_a_run_without_pages_imports_nothing_of_the_engine(tmp_path):
    loaded = set(loaded_by(tmp_path))
    assert "ruota_docs.run.pytest_plugin" in loaded  # the plugin is loaded: the check below means something
    assert loaded <= ALLOWED, sorted(loaded - ALLOWED)


@pytest.mark.parametrize(("old", "new"), [("--no-ledger", "--no-record"), ("--reuse-ledger", "--reuse-record")])
def test_an_option_s_name_before_still_works_with_a_warning(tmp_path, old, new):
    (tmp_path / "test_nothing.py").write_text("def test_nothing():\n    pass\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", old, str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True, env=clean_env(), timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    assert f"PytestDeprecationWarning: ruota-docs: {old} is deprecated: use {new}" in done.stdout


def test_xdist_without_loadscope_leaves_the_page_scheduler_alone(tmp_path):
    loaded = set(loaded_by(tmp_path, "-n", "1"))
    assert "ruota_docs.run.pytest_plugin" in loaded
    assert "ruota_docs.run.scheduling" not in loaded and "ruota_docs.blocks.renderer" not in loaded, sorted(loaded)


# -- the site's configuration, as MkDocs reads it ------------------------------------------------------------------
ONE_BLOCK = "# T\n\n```python\nprint(1)\n```\n"


def test_a_malformed_mkdocs_yml_is_named_with_its_line_not_an_internal_error(tmp_path):
    root = write_tree(tmp_path / "s", {"docs/index.md": ONE_BLOCK})
    (root / "mkdocs.yml").write_text("site_name: x\nmarkdown_extensions:\n  - toc:\n    permalink: [\n",
                                     encoding="utf-8")
    done = run_pytest(root, "docs", "--no-record")
    assert done.returncode == 4, done.stdout + done.stderr
    assert "INTERNALERROR" not in done.stdout + done.stderr
    assert f"ruota-docs: {(root / 'mkdocs.yml').resolve()}:5:1: not valid YAML: did not find" in done.stderr


def test_an_unknown_plugin_option_warns_and_stops_a_strict_run(tmp_path):
    root = write_tree(tmp_path / "s", {"docs/index.md": ONE_BLOCK})
    (root / "mkdocs.yml").write_text("site_name: x\nplugins:\n  ruota_docs:\n    polices: {}\n", encoding="utf-8")
    warned = run_pytest(root, "docs", "--no-record")
    assert warned.returncode == 0, warned.stdout
    message = "mkdocs.yml:4: plugins: ruota_docs: unknown option 'polices' (the plugin has: record_dir"
    assert "PytestConfigWarning" in warned.stdout and message in warned.stdout
    strict = run_pytest(root, "docs", "--no-record", "--strict")
    assert strict.returncode == 4 and message in strict.stderr


def test_a_site_below_the_folder_named_is_pointed_at_and_runs_when_named(tmp_path):
    """FastAPI's layout: docs/en/mkdocs.yml, its pages in docs/en/docs/."""
    root = write_tree(tmp_path / "repo", {"docs/en/docs/index.md": ONE_BLOCK})
    (root / "mkdocs.yml").rename(root / "docs" / "en" / "mkdocs.yml")
    silent = run_pytest(root, "docs", "--no-record")
    assert silent.returncode == 5
    assert ("below it: docs/en/mkdocs.yml. Run pytest on that site's folder (pytest docs/en) or name it with "
            "--mkdocs-config docs/en/mkdocs.yml") in silent.stdout
    named = run_pytest(root, "docs", "--no-record", "--mkdocs-config", "docs/en/mkdocs.yml")
    assert named.returncode == 0 and "1 passed" in named.stdout, named.stdout
    wrong = run_pytest(root, "docs", "--mkdocs-config", "docs/en")
    assert wrong.returncode == 4 and "--mkdocs-config docs/en: no mkdocs.yml" in wrong.stderr


def test_the_plugin_looks_for_the_names_mkdocs_reads():
    from ruota_docs.blocks import site_config
    from ruota_docs.run import pytest_plugin

    assert pytest_plugin._CONFIG_NAMES == site_config.CONFIG_NAMES
