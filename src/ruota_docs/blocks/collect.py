"""The blocks of one page, as every consumer outside the test run needs them.

``page_blocks(root, docs_dir, path)`` is the one entry point the CLI, the record checks
and the translation checks use to learn what a page's blocks are now (their code, hash,
index and line): the same blocks the engine runs and the site shows.
"""

from __future__ import annotations

from pathlib import Path

from ruota_docs.blocks import renderer
from ruota_docs.blocks.block import Block
from ruota_docs.blocks.pages import PageError, page_key

__all__ = ["PageError", "page_blocks", "page_key"]


def page_blocks(root: Path, docs_dir: Path, path: Path, *, shown_only: bool = False) -> list[Block]:
    """The blocks of the page at ``path``, in page order (those that run or explain why
    not; with ``shown_only``, also outputs and diagrams, which are never run).

    Raises `PageError` for a page with a problem that belongs to no block.
    """
    rendered = renderer.render(Path(root), Path(path), docs_dir=Path(docs_dir), fast=True)
    if rendered.problems:
        first = rendered.problems[0]
        raise PageError(first.message, first.line)
    return [b for b in rendered.blocks if shown_only or not b.shown_only]
