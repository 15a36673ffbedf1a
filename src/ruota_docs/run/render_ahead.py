"""The one page a run names, rendered in a forked child while pytest sets itself up.

A run that names one page (``pytest docs/es/guide.md``: an author's loop) spends most of its
collection importing Python-Markdown, its extensions and MkDocs' page machinery to render
that page, after pytest has configured itself, one thing after the other on one core.
Forked when the run is configured, a child renders the page as the collector would (the same
function, the same arguments) while pytest goes on with its own set-up and the engine's, and
hands the result back through a pipe. The collector takes it only when the page it read is,
character for character, the one the child rendered; otherwise, and wherever a fork is not
safe (no ``os.fork``, or threads running), it renders the page itself, as every other run does.

The child never returns into pytest: whatever happens, it leaves with ``os._exit`` (no atexit
handlers, no flushing of the parent's buffers). What it prints while rendering and the warnings
it raises (an extension's) go back with the result, and the parent prints and raises them,
where pytest captures them as it would have captured the parent's own rendering's.

A speed trick (`ruota_docs.blocks.speedups`, ``render_ahead``): ``RUOTA_DOCS_NO_SPEEDUPS=render_ahead``
turns it off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

from ruota_docs.blocks import speedups


@dataclass
class Rendered:
    """What the collector needs of a page's rendering (`ruota_docs.blocks.renderer.PageRender`):
    sent alone, so that reading it back imports no more than the blocks' own modules."""

    blocks: list
    problems: list


@dataclass
class _Child:
    pid: int
    pipe: int  #: read end: the pickled ``(digest of the text rendered, docs directory, Rendered, what it printed)``
    path: Path


_AHEAD: list[_Child] = []


def digest(text: str) -> bytes:
    """What tells the collector the child rendered the text it read."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def start(path: Path) -> bool:
    """Fork a child that renders the page at ``path``; False where none was forked. The child finds
    the page's site itself: the run's own set-up does the same meanwhile, and a file that turns
    out to be no page of the site the run is about is simply never asked for."""
    if _AHEAD or not hasattr(os, "fork") or threading.active_count() > 1 or not speedups.on("render_ahead"):
        return False
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its work is `render`, which the tests call in this process too
        status = 1
        try:
            os.close(read)
            status = _child(write, Path(path))
        finally:
            os._exit(status)
    os.close(write)
    _AHEAD.append(_Child(pid, read, Path(path).resolve()))
    return True


def _child(write: int, path: Path) -> int:
    from ruota_docs.blocks import site_config  # noqa: PLC0415
    from ruota_docs.run import discovery  # noqa: PLC0415

    root = discovery.site_of_page(path)
    if root is None:
        return 1
    with tempfile.TemporaryFile() as printed, warnings.catch_warnings(record=True) as warned:
        # what it prints, at either level (pytest's capture replaces sys.stdout and sys.stderr too)
        os.dup2(printed.fileno(), 1)
        os.dup2(printed.fileno(), 2)
        sys.stdout = sys.stderr = open(printed.fileno(), "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        warnings.simplefilter("always")
        found = render(root, path, site_config.read(root).docs_dir)  # the docs directory as PageLayout finds it
        sys.stdout.flush()
        printed.seek(0)
        said = [(str(w.message), w.category, w.filename, w.lineno) for w in warned]
        message = pickle.dumps((*found, printed.read().decode("utf-8", "replace"), said), pickle.HIGHEST_PROTOCOL)
    view = memoryview(message)
    while view:
        view = view[os.write(write, view):]
    os.close(write)
    return 0


def render(root: Path, path: Path, docs_dir: Path):
    """``(digest of the page's text, the docs directory, Rendered)``: the page rendered as
    `ruota_docs.run.sybil.parsers.BlockParser` renders one."""
    from ruota_docs.blocks import renderer  # noqa: PLC0415 — Python-Markdown: the child's work
    from ruota_docs.blocks.pages import decode_page  # noqa: PLC0415

    text = decode_page(path.read_bytes())
    found = renderer.render(root, path, text, docs_dir, fast=True)
    return digest(text), Path(docs_dir).resolve(), Rendered(found.blocks, found.problems)


def take(path: str | Path, text: str, docs_dir: Path):
    """The child's rendering of the page at ``path`` whose text is ``text``, rendered for the docs
    folder ``docs_dir``; None where there is none (not forked, another page, the page changed
    since, another docs directory, or the child failed)."""
    path = Path(path).resolve()
    child = next((c for c in _AHEAD if c.path == path), None)
    if child is None:
        return None
    _AHEAD.remove(child)
    chunks = []
    while chunk := os.read(child.pipe, 1 << 20):
        chunks.append(chunk)
    _end(child)
    try:
        rendered_digest, rendered_for, rendered, printed, said = pickle.loads(b"".join(chunks))
    except Exception:  # noqa: BLE001 — the child failed before it could answer: render here
        return None
    if rendered_digest != digest(text) or rendered_for != Path(docs_dir).resolve():
        return None
    if printed:
        sys.stderr.write(printed)
    for message, category, filename, line in said:  # as if raised here: pytest's summary lists them
        warnings.warn_explicit(message, category, filename, line)
    return rendered


def discard() -> None:
    """End a child whose rendering no collector took (the page was not collected)."""
    while _AHEAD:
        _end(_AHEAD.pop(), kill=True)


def _end(child: _Child, kill: bool = False) -> None:
    os.close(child.pipe)
    if kill:
        try:
            os.kill(child.pid, 9)
        except ProcessLookupError:
            pass
    try:
        os.waitpid(child.pid, 0)
    except ChildProcessError:
        pass
