"""The tests mirror the package: ``src/ruota_docs/<stage>/<module>.py`` has its
``tests/<stage>/test_<module>.py`` (a package's own ``__init__.py``, ``tests/<parent>/test_<package>.py``),
unless it is exempt below for having no behaviour of its own.

Tests that cross modules live in folders of their own: engine/ (a whole run of the engine on a
throwaway site), built_site/ and browser/ (the repository's site, built), faults/ (fault injection),
corpus/ (small MkDocs projects), repository/ (the repository's workflow, snippets and docstrings).
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "src" / "ruota_docs"

#: Modules with no behaviour to test, each with why.
EXEMPT = {
    "__init__": "the package's public API (tested in tests/test_api.py)",
    "blocks/__init__": "the stage's docstring",
    "blocks/capture/__init__": "re-exports the capture's names (tested in blocks/capture/)",
    "records/__init__": "the stage's docstring",
    "run/__init__": "the stage's docstring",
    "run/process/__init__": "the subpackage's docstring",
    "serve/__init__": "the stage's docstring",
    "site/__init__": "the stage's docstring",
    "translations/__init__": "the stage's docstring",
}


def expected_test(module: Path) -> Path:
    """Where the tests of a module of the package live."""
    parts = module.relative_to(PACKAGE).with_suffix("").parts
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return TESTS.joinpath(*parts[:-1], f"test_{parts[-1]}.py")


def modules() -> list[str]:
    return sorted(p.relative_to(PACKAGE).with_suffix("").as_posix() for p in PACKAGE.rglob("*.py"))


def missing() -> list[str]:
    return [f"{name}.py has no {expected_test(PACKAGE / f'{name}.py').relative_to(TESTS.parent)}"
            for name in modules() if name not in EXEMPT and not expected_test(PACKAGE / f"{name}.py").exists()]


def test_every_module_has_its_test_file_or_a_reason():
    assert missing() == []


def test_exemptions_name_modules_that_exist_and_have_no_test_file():
    names = set(modules())
    assert sorted(set(EXEMPT) - names) == [], "exempt modules that no longer exist"
    tested = [name for name in EXEMPT if expected_test(PACKAGE / f"{name}.py").exists()]
    assert tested == [], "exempt modules that have a test file: drop the exemption"


@pytest.mark.parametrize(("module", "test"), [
    ("site/plugin.py", "site/test_plugin.py"),
    ("run/sybil/parsers.py", "run/sybil/test_parsers.py"),
    ("run/sybil/__init__.py", "run/test_sybil.py"),
    ("cli.py", "test_cli.py"),
])
def test_the_mirror_rule(module, test):
    assert expected_test(PACKAGE / module) == TESTS / test


def test_a_missing_test_file_is_named(tmp_path, monkeypatch):
    import sys

    fake = tmp_path / "src" / "ruota_docs"
    (fake / "blocks").mkdir(parents=True)
    (fake / "blocks" / "thing.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    monkeypatch.setattr(sys.modules[__name__], "TESTS", tmp_path / "tests")
    assert missing() == ["blocks/thing.py has no tests/blocks/test_thing.py"]


def test_browser_tests_are_one_unit_of_work_queued_first():
    """tests/conftest.py: under loadscope the browser tests share one worker (and its survey of
    the site), and that unit, the longest, is handed out before any other."""
    import importlib.util
    from collections import OrderedDict

    # by its path: under xdist, `import conftest` can find tests/browser/conftest.py first
    spec = importlib.util.spec_from_file_location("root_conftest", TESTS / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    handed_out = []

    class LoadScope:  # the part of xdist's LoadScopeScheduling the hook changes
        workqueue = OrderedDict()

        def _split_scope(self, nodeid: str) -> str:
            return nodeid.partition("::")[0]

        def _assign_work_unit(self, node) -> None:
            handed_out.append(self.workqueue.popitem(last=False)[0])

    def made(scheduler):
        hook = conftest.pytest_xdist_make_scheduler(None, None)
        next(hook)
        with pytest.raises(StopIteration) as done:
            hook.send(scheduler)
        return done.value.value

    assert made(None) is None  # another --dist: xdist's own choice stands
    scheduler = made(LoadScope())
    assert {scheduler._split_scope(n) for n in ("tests/browser/test_pages.py::t[es]", "tests/browser/test_search.py::u")} == {"tests/browser/"}
    assert scheduler._split_scope("tests/run/test_device.py::t") == "tests/run/test_device.py"
    scheduler.workqueue.update({"tests/run/test_device.py": {}, "docs/index.md": {}, "tests/browser/": {}})
    scheduler._assign_work_unit("gw0")
    scheduler._assign_work_unit("gw1")
    assert handed_out == ["tests/browser/", "tests/run/test_device.py"]
