"""Every block collected runs exactly once, or the run fails saying which did not."""

from __future__ import annotations

import importlib.util
import re

import pytest

from _support import read_ledger, run_pytest, write_tree

#: One include that brings in two blocks: both at the page's include line, each at its own line of two.md.
TWO_FROM_ONE = {
    "snippets/two.md": "```python\nprint('one')\n```\n\n```python\nprint('two')\n```\n",
    "docs/es/p.md": """
        # P { #p }

        --8<-- "two.md"

        ```python
        print('three')
        ```
        """,
}


def _node_ids(stdout: str) -> list[str]:
    return re.findall(r"^(docs/\S+::\S+)", stdout, re.MULTILINE)


def test_node_ids_are_unique_by_block_index(tmp_path):
    tree = write_tree(tmp_path, TWO_FROM_ONE)
    result = run_pytest(tree, "--collect-only", "-q", "docs")
    ids = _node_ids(result.stdout)
    assert ids == ["docs/es/p.md::sybil:ruota,block:0,file:snippets/two.md,line:1",
                   "docs/es/p.md::sybil:ruota,block:1,file:snippets/two.md,line:5",
                   "docs/es/p.md::sybil:ruota,block:2,line:5"], result.stdout


@pytest.mark.skipif(importlib.util.find_spec("xdist") is None, reason="needs pytest-xdist")
def test_loadscope_runs_each_block_once(tmp_path):
    tree = write_tree(tmp_path, {**TWO_FROM_ONE, "docs/en/p.md": TWO_FROM_ONE["docs/es/p.md"],
                                 "docs/es/q.md": "# Q { #q }\n\n```python\nprint('q')\n```\n"})
    result = run_pytest(tree, "-n", "2", "--dist", "loadscope", "docs")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "7 passed" in result.stdout
    blocks = read_ledger(next((tree / "verification").glob("*.json")))["blocks"]
    assert sorted(blocks) == ["en/p.md#0", "en/p.md#1", "en/p.md#2", "es/p.md#0", "es/p.md#1", "es/p.md#2",
                              "es/q.md#0"]


@pytest.mark.skipif(importlib.util.find_spec("xdist") is None, reason="needs pytest-xdist")
def test_n_alone_sends_each_page_to_one_worker(tmp_path):
    """``-n 2`` without ``--dist``: xdist would deal the blocks out one by one, and a block on the other
    worker would miss the names its page's earlier blocks defined. The pages go out whole instead."""
    shared = "# P\n\n```python\nx = 41\n```\n\n```python\nassert x == 41\n```\n\n```python\nprint(x + 1)\n```\n"
    tree = write_tree(tmp_path, {f"docs/es/{name}.md": shared for name in "abcd"})
    result = run_pytest(tree, "-n", "2", "docs")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "12 passed" in result.stdout and "pages go to the workers whole" in result.stdout + result.stderr
    blocks = read_ledger(next((tree / "verification").glob("*.json")))["blocks"]
    assert len(blocks) == 12


#: A plugin that swallows one test without running it, as a scheduler that loses work would.
LOSES_ONE = """
def pytest_runtest_protocol(item, nextitem):
    if item.nodeid.endswith("block:1,file:snippets/two.md,line:5"):
        return True
"""


def test_a_block_that_never_runs_fails_the_run_and_leaves_the_record(tmp_path):
    tree = write_tree(tmp_path, TWO_FROM_ONE)
    first = run_pytest(tree, "docs")
    assert first.returncode == 0, first.stdout[-3000:]
    record = next((tree / "verification").glob("*.json"))
    assert "es/p.md#1" in read_ledger(record)["blocks"]

    (tree / "loses_one.py").write_text(LOSES_ONE)
    result = run_pytest(tree, "-p", "loses_one", "docs", env=None)
    assert result.returncode == 1, result.stdout[-3000:]
    assert "blocks not accounted for" in result.stdout
    assert "1 collected test(s) never ran: docs/es/p.md::sybil:ruota,block:1,file:snippets/two.md,line:5" in result.stdout
    blocks = read_ledger(record)["blocks"]
    assert sorted(blocks) == ["es/p.md#0", "es/p.md#2"]  # no old result passes for this run's


def test_a_deselected_or_only_collected_block_keeps_its_result(tmp_path):
    tree = write_tree(tmp_path, TWO_FROM_ONE)
    assert run_pytest(tree, "docs").returncode == 0
    record = next((tree / "verification").glob("*.json"))
    before = read_ledger(record)["blocks"]["es/p.md#1"]
    result = run_pytest(tree, "docs", "-k", "block:2")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "not accounted for" not in result.stdout
    assert read_ledger(record)["blocks"]["es/p.md#1"] == before
    written = record.read_bytes()
    assert run_pytest(tree, "docs", "--collect-only").returncode == 0
    assert record.read_bytes() == written  # collected, run by no one: nothing to account for
