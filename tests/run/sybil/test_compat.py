"""run.sybil.compat: the engine's only dependencies on what Sybil does not document, checked here
against the installed Sybil (a release that changes either fails these tests, not a run)."""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from sybil import Sybil
from sybil.integration import pytest as sybil_pytest

from _support import outcomes, run_pytest, write_tree
from ruota_docs.run.sybil import compat, make_sybil

REPO = Path(__file__).resolve().parents[3]
PAGE = "# P\n\n```python\nprint(1)\n```\n\n```python\nprint(2)\n```\n"


def test_the_range_is_the_one_pyproject_declares():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (declared,) = [Requirement(r) for r in project["dependencies"] if Requirement(r).name == "sybil"]
    assert str(declared.specifier) == ",".join(sorted(compat.SYBIL["sybil"].split(",")))
    compat.check_sybil()  # the installed release is in it


def test_a_release_outside_the_range_stops_the_sybil_being_built(tmp_path, monkeypatch):
    monkeypatch.setattr(compat.compat.metadata, "version", lambda name: "11.0" if name == "sybil" else "1")
    with pytest.raises(compat.UnsupportedSybil, match=r"^sybil 11\.0 is installed; ruota-docs' test collection "
                                                      r"supports sybil>=10\.1,<11"):
        make_sybil(write_tree(tmp_path, {"docs/es/p.md": PAGE}, conftest=False))


def test_sybils_pytest_items_are_named_by_sybil_identify_and_its_hook_by_should_parse():
    """The undocumented parts the engine relies on, as the installed Sybil uses them."""
    assert list(inspect.signature(Sybil.identify).parameters) == ["self", "example"]
    assert list(inspect.signature(Sybil.should_parse).parameters) == ["self", "path"]
    assert "sybil.identify(example)" in inspect.getsource(sybil_pytest.SybilItem.__init__)
    assert "sybil.should_parse(file_path)" in inspect.getsource(sybil_pytest.pytest_integration)
    assert "self.example = example" in inspect.getsource(sybil_pytest.SybilItem.__init__)


def test_each_test_is_named_by_its_blocks_index(tmp_path):
    root = write_tree(tmp_path / "s", {"docs/es/p.md": PAGE})
    done = run_pytest(root, "docs", "--no-record", "--collect-only", "-q")
    assert done.stdout.splitlines()[:2] == ["docs/es/p.md::sybil:ruota,block:0,line:3",
                                            "docs/es/p.md::sybil:ruota,block:1,line:7"], done.stdout


def test_a_conftest_that_collects_with_the_engines_sybil_is_left_to_collect(tmp_path):
    root = write_tree(tmp_path / "s", {"docs/es/p.md": PAGE, "conftest.py":
                                       "from ruota_docs.run.sybil import make_sybil\n"
                                       "pytest_collect_file = make_sybil('.').pytest()\n"})
    done = run_pytest(root, "docs", "--no-record")
    assert done.returncode == 0, done.stdout + done.stderr
    assert outcomes(done.stdout) == {("es/p.md", 3): "PASSED", ("es/p.md", 7): "PASSED"}
    assert "2 passed" in done.stdout  # once each: the engine's own collection stands aside


def test_the_example_of_an_item_is_sybils_and_no_other_items(tmp_path):
    from types import SimpleNamespace

    root = write_tree(tmp_path, {"docs/es/p.md": PAGE}, conftest=False)
    first = next(make_sybil(root).parse(root / "docs/es/p.md").examples())
    assert compat.example_of(SimpleNamespace(example=first)) is first
    assert compat.example_of(SimpleNamespace(example="not one")) is None and compat.example_of(object()) is None
