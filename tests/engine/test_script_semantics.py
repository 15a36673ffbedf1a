"""A block runs as a reader's script runs: its own file in sys.argv, ``__main__``, and the
top-level ``await`` of ``python -m asyncio``."""

from __future__ import annotations

from _support import read_ledger, run_pytest, write_tree

PAGE = """
    # Script { #script }

    ```python
    import sys
    print(sys.argv, __name__)
    ```

    --8<-- "cli.md"

    ```python
    import asyncio, contextlib

    @contextlib.asynccontextmanager
    async def opened():
        yield "resource"

    async with opened() as thing:
        print("inside", thing)
    print("slept", await asyncio.sleep(0, result=3))
    ```

    ```pycon
    >>> async def answer():
    ...     return 42
    >>> await answer()
    42
    >>> async with opened() as thing:
    ...     print(thing)
    resource
    ```
    """

CLI = """```python
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--name", default="World")
print(f"Hello {parser.parse_args().name}", parser.prog)
```
"""


def test_blocks_see_their_own_file_and_await_at_top_level(tmp_path):
    tree = write_tree(tmp_path, {"docs/es/s.md": PAGE, "snippets/cli.md": CLI})
    result = run_pytest(tree, "docs")
    assert result.returncode == 0, result.stdout[-3000:]
    blocks = read_ledger(next((tree / "verification").glob("*.json")))["blocks"]
    page = (tree / "docs/es/s.md").resolve()
    assert blocks["es/s.md#0"]["output"] == f"{[str(page)]} __main__\n"
    # a block written in an included file runs as that file: argparse names it, and parses no engine arguments
    assert blocks["es/s.md#1"]["output"] == "Hello World cli.md\n"
    assert blocks["es/s.md#2"]["output"] == "inside resource\nslept 3\n"
    assert blocks["es/s.md#3"]["outcome"] == "passed", blocks["es/s.md#3"]


def test_a_missing_module_names_the_directive_that_says_so(tmp_path):
    tree = write_tree(tmp_path, {"docs/es/m.md": "# M { #m }\n\n```python\nimport no_such_module_here\n```\n"})
    result = run_pytest(tree, "docs")
    assert result.returncode == 1
    assert "hint: this machine has no module 'no_such_module_here'; if the page needs it, say so before the block: " \
           "<!-- requires: import=no_such_module_here -->" in result.stdout
