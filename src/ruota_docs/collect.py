"""The checked blocks of one page, as every consumer outside the test run needs them.

``page_blocks(root, path)`` is the one entry point the CLI, the record checks and
the plugin's status pages use to learn what a page's blocks are now (their code,
hash, index and line), so that all of them agree with the engine.
"""

from __future__ import annotations

from pathlib import Path

from .sybil.lexers import LexError, read_page, scan
from .sybil.parsers import Block, block_from_fence, page_signature


class PageError(ValueError):
    """A page the engine cannot read; ``line`` is 1-based."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def page_key(docs_dir: Path, path: Path) -> tuple[str, str]:
    """``("es/guides/x.md", "es")`` for a page file under ``docs_dir``."""
    page = Path(path).resolve().relative_to(Path(docs_dir).resolve()).as_posix()
    return page, page.split("/", 1)[0] if "/" in page else ""


def page_blocks(root: Path, docs_dir: Path, path: Path) -> list[Block]:
    """The checked blocks of the page at ``path``, indexed in page order.

    Raises `PageError` for a page that cannot be read at all.
    """
    page, lang = page_key(docs_dir, path)
    try:
        fences = scan(read_page(path)).fences
    except LexError as error:
        raise PageError(str(error), error.line) from None
    blocks = [b for b in (block_from_fence(f, page, lang, Path(root)) for f in fences) if b is not None]
    signature = page_signature(blocks)
    for index, block in enumerate(blocks):
        block.index = index
        block.signature = signature
        block.page_total = len(blocks)
    return blocks
