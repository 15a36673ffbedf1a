"""blocks.collect: a page's blocks for consumers outside the run, and the page problems that stop them."""

from __future__ import annotations

import pytest

from _support import write_tree
from ruota_docs.blocks import collect

PAGE = "# P\n\n```python\nprint(1)\n```\n\n```text\nout\n```\n"


def test_the_blocks_that_run_and_with_shown_only_those_that_are_only_shown(tmp_path):
    root = write_tree(tmp_path, {"docs/es/p.md": PAGE}, conftest=False)
    blocks = collect.page_blocks(root, root / "docs", root / "docs/es/p.md")
    assert [(b.kind, b.line, b.index) for b in blocks] == [("python", 3, 0)]
    shown = collect.page_blocks(root, root / "docs", root / "docs/es/p.md", shown_only=True)
    assert [b.kind for b in shown] == ["python", "text"]


def test_a_problem_that_belongs_to_no_block_is_a_page_error(tmp_path):
    root = write_tree(tmp_path, {"docs/es/p.md": "# P\n\n<!-- requires: rocm -->\nText.\n"}, conftest=False)
    with pytest.raises(collect.PageError) as raised:
        collect.page_blocks(root, root / "docs", root / "docs/es/p.md")
    assert raised.value.line == 3 and "requires" in str(raised.value)
