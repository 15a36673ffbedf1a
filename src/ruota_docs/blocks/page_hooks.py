"""The site's hooks applied to a page's Markdown before it is collected, as ``mkdocs build`` applies them.

MkDocs passes each page's Markdown through the ``on_page_markdown`` of the site's ``hooks:``
(Python files named in mkdocs.yml) before it renders it, and a hook may add code blocks readers
see: pydantic's turns each Python example into tabs per Python version and moves the JSON a
block prints into a block of its own. With the ``ruota_docs`` plugin's ``collect_hooks: true``,
the engine passes the page through the same functions before rendering it, so that those
blocks are collected, run and recorded like the page's own. Only ``on_page_markdown`` is
called (no hook's ``on_config``, ``on_pre_build`` or ``on_files``: they change files or the
build, not a page's Markdown), in the order mkdocs.yml lists the hooks; plugins' are not.

Each block of the rewritten page is looked for in the page's file (`FileBlocks`): one whose code
the file holds, right under a fence, is the file's own and keeps the lines it has there (a hook
may indent it into a tab, or move its last lines out); one the rewriting made gets the file's line
where the rewritten part stands (`LineMap`) and the hook's name (``Block.made_by``), so that a
reader, a message and a record all point at a line of the file and say what made the block.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from pathlib import Path


class HookError(Exception):
    """A hook that cannot be loaded, or that failed on a page."""


#: The plugin option that turns this on.
OPTION = "collect_hooks"


def enabled(mapping: dict) -> bool:
    """Whether the site (its parsed mkdocs.yml) asks for its hooks to be applied when pages are collected."""
    from ruota_docs.blocks import plugin_extensions  # noqa: PLC0415

    options = plugin_extensions.options_of(mapping.get("plugins"), "ruota_docs") or {}
    return bool(options.get(OPTION)) and bool(mapping.get("hooks"))


@dataclass(frozen=True)
class Hook:
    name: str  #: as mkdocs.yml lists it (``docs/plugins/main.py``)
    path: Path  #: absolute
    on_page_markdown: object


def hooks(config_file: Path) -> tuple[list[Hook], object]:
    """``(hooks, config)``: the hooks of the site whose mkdocs.yml is ``config_file`` that define
    ``on_page_markdown``, loaded as MkDocs loads them, and the site's configuration as its file
    writes it (MkDocs' ``MkDocsConfig``, not validated: no plugin is loaded), once per process and
    change of mkdocs.yml or of a hook's file."""
    from ruota_docs.blocks import site_config  # noqa: PLC0415

    path = Path(config_file).resolve()
    names = [str(name) for name in site_config.load_mkdocs_config(path.parent).get("hooks") or ()]
    stamps = tuple((name, _mtime(path.parent / name)) for name in names)
    return _loaded(str(path), _mtime(path), stamps)


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


@functools.lru_cache(maxsize=4)
def _loaded(config_file: str, _stamp: int | None, stamps: tuple) -> tuple[list[Hook], object]:
    from mkdocs.config import config_options  # noqa: PLC0415 — MkDocs' own loader: the hook sees what a build shows it
    from mkdocs.config.defaults import MkDocsConfig  # noqa: PLC0415

    config = MkDocsConfig(config_file_path=config_file)
    with open(config_file, "rb") as handle:
        config.load_file(handle)
    root = Path(config_file).parent
    config["docs_dir"] = str((root / str(config.get("docs_dir") or "docs")).resolve())
    found = []
    for name, stamp in stamps:
        path = root / name
        if stamp is None:
            raise HookError(f"hooks: {name}: no such file (relative to mkdocs.yml)")
        try:
            module = config_options.Hooks("plugins")._load_hook(name, str(path))
        except Exception as error:  # noqa: BLE001 — whatever the hook's own imports raise
            raise HookError(f"hooks: {name}: cannot be loaded: {type(error).__name__}: {error} (the hook's "
                            "packages must be installed where pytest runs, as for `mkdocs build`)") from None
        function = getattr(module, "on_page_markdown", None)
        if callable(function):
            found.append(Hook(name, path, function))
    return found, config


def apply(setup, docs_dir: Path, path: Path, text: str, markdown: str) -> tuple[str, tuple[str, ...]]:
    """``(markdown, names)``: the page's Markdown (``markdown``: the file's ``text`` without its
    front matter, as MkDocs passes it) after each hook's ``on_page_markdown``, and the names of the
    hooks that changed it."""
    found, config = hooks(setup.config_file)
    if not found:
        return markdown, ()
    page, files = _page(config, Path(docs_dir), Path(path), text, markdown)
    changed = []
    for hook in found:
        try:
            result = hook.on_page_markdown(markdown, page=page, config=config, files=files)
        except Exception as error:  # noqa: BLE001 — the hook's own failure, on this page
            raise HookError(f"the site's hook {hook.name} failed on this page: {type(error).__name__}: {error}") \
                from None
        if result is not None and result != markdown:
            markdown = result
            changed.append(hook.name)
    return markdown, tuple(changed)


def _page(config, docs_dir: Path, path: Path, text: str, markdown: str):
    """``(page, files)`` as MkDocs hands them to ``on_page_markdown``: a ``Page`` holding the page's
    ``File``, its Markdown and front matter as ``Page.read_source`` leaves them (hooks read
    ``page.title`` and ``page.meta``), and the docs directory's files."""
    from mkdocs.structure.files import File  # noqa: PLC0415
    from mkdocs.structure.pages import Page  # noqa: PLC0415
    from mkdocs.utils.meta import get_data  # noqa: PLC0415

    from ruota_docs.blocks import mkdocs_page  # noqa: PLC0415

    site_dir = str((Path(config.config_file_path).parent / str(config.get("site_dir") or "site")).resolve())
    urls = config.get("use_directory_urls")
    urls = True if urls is None else bool(urls)
    try:
        src = path.resolve().relative_to(docs_dir.resolve()).as_posix()
    except ValueError:
        src = path.name
    file = File(src, str(docs_dir.resolve()), site_dir, urls)
    files = mkdocs_page.files_of(str(docs_dir.resolve()), site_dir, urls)
    page = Page(None, file, config)
    page.markdown, page.meta = markdown, get_data(text)[1]
    return page, files


class LineMap:
    """Lines of a rewritten page's Markdown, mapped back into its file.

    ``written`` and ``rewritten`` are the Markdown before and after the hooks, each starting at
    the file's line ``first_line`` (after the front matter)."""

    def __init__(self, written: str, rewritten: str, first_line: int) -> None:
        old, new = written.split("\n"), rewritten.split("\n")
        self.first_line = first_line
        self.exact: dict[int, int] = {}  #: rewritten line index → file line index, where the line is the file's
        self.near: list[int] = [0] * (len(new) + 1)  #: rewritten line index → file line index it stands at
        last = max((n for n, line in enumerate(old) if line.strip()), default=0)  # what a hook adds at the end
        # compared without indentation: a hook that puts the page's block in a tab indents it
        matcher = difflib.SequenceMatcher(None, [o.strip() for o in old], [n.strip() for n in new], autojunk=False)
        for tag, i1, _i2, j1, j2 in matcher.get_opcodes():
            for k in range(j1, j2):
                if tag == "equal":
                    self.exact[k] = self.near[k] = i1 + k - j1
                else:  # what the hook wrote stands where the file's lines it replaced, or follows, stand
                    self.near[k] = min(i1 if tag == "replace" else max(i1 - 1, 0), last)
        self.near[len(new)] = last

    def line(self, line: int) -> tuple[int, bool]:
        """``(file line, exact)`` for the rewritten page's line ``line`` (both counted in the file, from 1)."""
        index = line - self.first_line
        if index < 0:
            return line, True
        if index in self.exact:
            return self.exact[index] + self.first_line, True
        return self.near[min(index, len(self.near) - 1)] + self.first_line, False


_FENCE_START = ("```", "~~~")


class FileBlocks:
    """Where the page's file holds each block's code, claimed once each, in page order."""

    def __init__(self, written: str, first_line: int) -> None:
        self.lines = [line.strip() for line in written.split("\n")]
        self.first_line = first_line
        self.claimed: set[int] = set()
        self.cursor = 0

    def find(self, code: str, fenced: bool = True) -> tuple[int, int | None, tuple[int, ...]] | None:
        """``(line, end line, code lines)`` in the file of the first unclaimed place (from the last one
        found on) where the file holds ``code`` line for line (indentation aside), under a fence
        where ``fenced``; None where it holds it nowhere (the rewriting made it)."""
        wanted = [line.strip() for line in code.split("\n")]
        if not any(wanted):
            return None
        size, count = len(wanted), len(self.lines)
        for start in [*range(self.cursor, count), *range(0, self.cursor)]:
            if start in self.claimed or self.lines[start] != wanted[0] or self.lines[start:start + size] != wanted:
                continue
            if fenced and (start == 0 or not self.lines[start - 1].startswith(_FENCE_START)):
                continue
            self.claimed.add(start)
            self.cursor = start + size
            closing = start + size < count and self.lines[start + size].startswith(_FENCE_START)
            first = self.first_line + start
            return (first - 1 if fenced else first, first + size if fenced and closing else None,
                    tuple(range(first, first + size)))
        return None
