"""run.sybil.compat: the engine's only dependencies on what Sybil does not document, checked here
against the installed Sybil (a release that changes either fails these tests, not a run); and pytest
reporting a block written in an included Markdown file at that file and its line (its test's
location, the heading and last line of its failure, its skip), a block written on the page as
Sybil does."""

from __future__ import annotations

import dataclasses
import inspect
import json
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from sybil import Sybil
from sybil.integration import pytest as sybil_pytest

from _support import clean_env, outcomes, run_pytest, write_tree
from ruota_docs.blocks.block import Block
from ruota_docs.run.sybil import compat, make_sybil
from ruota_docs.run.sybil.parsers import PageProblem

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
    # the engine's items and files are Sybil's, made as Sybil makes them (`compat.PageFile.collect`)
    assert list(inspect.signature(sybil_pytest.SybilItem.__init__).parameters) == ["self", "parent", "sybil",
                                                                                  "example"]
    assert "self.documents.append(document)" in inspect.getsource(sybil_pytest.SybilFile.collect)
    assert "SybilFile.from_parent(parent, path=file_path, sybils=" in inspect.getsource(sybil_pytest.pytest_integration)
    assert list(inspect.signature(sybil_pytest.SybilFailureRepr.__init__).parameters) == ["self", "item", "message"]


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

PART = """\
Included prose.

```python
print("hi")
#> hi
```

Between.

```python
raise ValueError("boom")
```

<!-- run: skip reason="kept for later" -->
```python
print(2)
```
"""

#: A plugin of the throwaway project: each test's location as pytest has it (what --junitxml and editors read).
LOCATIONS = """\
import json


def pytest_runtest_logreport(report):
    if report.when == "call":
        with open("locations.jsonl", "a", encoding="utf-8") as found:
            found.write(json.dumps([report.nodeid, *report.location]) + "\\n")
"""


def test_only_a_block_written_in_an_included_file_has_a_place_of_its_own():
    included = Block(page="es/p.md", lang="es", line=5, fence_language="python", kind="python", code="pass\n",
                     source="snippets/part.md:12")
    assert compat.written_at(included) == ("snippets/part.md", 12)
    assert compat.written_at(dataclasses.replace(included, source="")) is None
    assert compat.written_at(PageProblem("es/p.md", 3, "a problem")) is None


def test_pytest_reports_an_included_block_at_its_file_and_line(tmp_path):
    root = write_tree(tmp_path / "site", {
        "docs/es/index.md": '# T { #t }\n\nIntro.\n\n--8<-- "part.md"\n\n```python\nfail = 1 / 0\n```\n',
        "snippets/part.md": PART, "conftest.py": LOCATIONS})
    ran = run_pytest(root, "docs/es", "--no-record", env=clean_env())
    out = ran.stdout
    assert "PASSED docs/es/index.md::sybil:ruota,block:0,file:snippets/part.md,line:3" in out, out
    assert "FAILED docs/es/index.md::sybil:ruota,block:1,file:snippets/part.md,line:10" in out
    assert "FAILED docs/es/index.md::sybil:ruota,block:3,line:7" in out  # a fence on the page keeps its line
    assert "snippets/part.md:10 (block 2 of index.md)" in out  # the failure's heading
    assert ("Block 2 of es/index.md, written at snippets/part.md:10 (brought in by the include at index.md:5), "
            "did not evaluate as expected:") in out
    assert "\nsnippets/part.md:10: SybilFailure" in out
    assert "index.md:5: SybilFailure" not in out
    assert "SKIPPED [1] snippets/part.md:15: not run: kept for later" in out
    locations = {n.rsplit("::", 1)[1]: (path, line, domain) for n, path, line, domain in
                 map(json.loads, (root / "locations.jsonl").read_text(encoding="utf-8").splitlines())}
    assert locations["sybil:ruota,block:1,file:snippets/part.md,line:10"][:2] == ("snippets/part.md", 10)
    assert locations["sybil:ruota,block:3,line:7"][:2] == ("docs/es/index.md", 7)
