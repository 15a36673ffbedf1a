"""run.sybil.items: pytest reports a block written in an included Markdown file at that file and its
line (its test's location, the heading and last line of its failure, its skip), and a block written on
the page as Sybil does."""

from __future__ import annotations

import dataclasses
import json

from _support import clean_env, run_pytest, write_tree
from ruota_docs.blocks.block import Block
from ruota_docs.run.sybil.items import written_at
from ruota_docs.run.sybil.parsers import PageProblem

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
    assert written_at(included) == ("snippets/part.md", 12)
    assert written_at(dataclasses.replace(included, source="")) is None
    assert written_at(PageProblem("es/p.md", 3, "a problem")) is None


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
