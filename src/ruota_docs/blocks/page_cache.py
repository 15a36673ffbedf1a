"""Each page's blocks, and the files its rendering read, kept for the life of the process.

The status page and the card matrix list the blocks of every page of a language. The
build renders every page anyway: what each rendering found is kept here, so those pages
need no second rendering of the others, and ``ruota-docs serve`` learns from it which
pages include a file that changed (:mod:`ruota_docs.serve.rebuild_plan`). An entry holds while
none of the files it was rendered from has changed (their modification times); the
cache is in memory only, so a new process starts empty.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Entry:
    blocks: tuple  #: every block of the rendering, outputs and diagrams included
    stamps: tuple[tuple[str, int | None], ...]  #: ``(absolute path, st_mtime_ns)`` of the page and what it included
    lists_pages: bool = False  #: drawn from every page of its language too (the status page, the card matrix)
    banner: str = ""  #: what the page shows of its source page: the stale translation's banner


_ENTRIES: dict[str, Entry] = {}


def _key(path) -> str:
    return os.path.realpath(os.fspath(path))


def _stamp(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def remember(page, blocks, included=(), lists_pages: bool = False, banner: str = "") -> None:
    """What a rendering of ``page`` found: its ``blocks``, the files it ``included`` (paths
    absolute or relative to the current directory, as pymdownx.snippets opened them), whether
    its content ``lists_pages`` of its language besides, and the ``banner`` it shows."""
    key = _key(page)
    paths = {key, *(_key(path) for path in included)}
    _ENTRIES[key] = Entry(tuple(blocks), tuple(sorted((path, _stamp(path)) for path in paths)), lists_pages, banner)


def blocks(page) -> list | None:
    """The blocks of ``page`` from its last rendering, or ``None`` where it has not been
    rendered in this process or a file it was rendered from changed since."""
    entry = _ENTRIES.get(_key(page))
    if entry is None or any(_stamp(path) != stamp for path, stamp in entry.stamps):
        return None
    return list(entry.blocks)


def last(page) -> Entry | None:
    """What the last rendering of ``page`` in this process found, whatever changed since."""
    return _ENTRIES.get(_key(page))


def including(changed) -> set[Path]:
    """The pages whose last rendering included one of the files ``changed`` (the pages
    themselves are not counted as including themselves)."""
    wanted = {_key(path) for path in changed}
    return {Path(page) for page, entry in _ENTRIES.items()
            if any(path in wanted and path != page for path, _ in entry.stamps)}


def listing(folder) -> set[Path]:
    """The pages under ``folder`` whose content lists the other pages of their language."""
    prefix = os.path.join(_key(folder), "")
    return {Path(page) for page, entry in _ENTRIES.items() if entry.lists_pages and page.startswith(prefix)}


def clear() -> None:
    _ENTRIES.clear()
