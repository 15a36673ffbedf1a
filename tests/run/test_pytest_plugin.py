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

from _support import clean_env

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


def test_the_engines_modules_are_imported_without_pytests_assertion_rewriting(tmp_path):
    """They hold no assert: pytest's import hook would only cost every module a run imports."""
    (tmp_path / "test_other.py").write_text(
        "import sys\n\ndef test_other():\n    from ruota_docs.run import guard\n"
        "    assert type(guard.__spec__.loader).__name__ != 'AssertionRewritingHook'\n"
        "    assert type(sys.modules[__name__].__spec__.loader).__name__ == 'AssertionRewritingHook'\n",
        encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "test_other.py"], cwd=tmp_path, env=clean_env(),
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
