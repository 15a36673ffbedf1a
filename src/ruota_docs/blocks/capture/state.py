"""What one page's rendering records: its captured blocks, problems, and where each line came from."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from ruota_docs.blocks.directives import Directive


@dataclass
class Captured:
    """One code block as the renderer produced it."""

    number: int  #: capture order (markers carry it)
    code: str  #: exactly what the formatter highlighted: what readers see
    fence_language: str  #: the fence's language as written (``py3``, ``python``, ``''``)
    info: str  #: the opening fence line without its indentation
    start: int  #: index of the fence's first line among the page's lines (after includes)
    end: int  #: index after its last line
    indented: bool = False  #: an indented code block, not a fence
    collapsed: int = 1  #: lines the fence became (SuperFences: its placeholder; fenced_code: 3)
    hidden: int = 0  #: leading blank lines of the fence's body that the highlighter drops
    formatter: str = "superfences"  #: the SuperFences entry that formatted it
    options: dict = field(default_factory=dict)
    attrs: dict = field(default_factory=dict)
    classes: list = field(default_factory=list)
    id: str = ""
    placeholder: str = ""
    directives: list[Directive] = field(default_factory=list)
    error: str | None = None  #: a misspelled directive right before it
    skip: str | None = None  #: the reason given by Sybil's ``skip:``


@dataclass
class Problem:
    """Something wrong on a page that belongs to no block."""

    line: int
    message: str


@dataclass
class Context:
    """What the extension needs to know about the page being rendered."""

    path: str  #: the page file (absolute), as origins name it
    first_line: int = 1  #: the file line of the Markdown's first line (after front matter)
    record_missing: bool | None = None  #: None: as the site's ``check_paths`` says


class CaptureState:
    """Everything recorded while one page renders (kept on the Markdown instance)."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.nonce = secrets.token_hex(4)
        self.captured: list[Captured] = []
        self.origins: list[tuple[str, int, int | None] | None] = []
        self.lines: list[str] = []  #: the page's lines after includes, before fences are formed
        self.page_lines: list[str] = []  #: the page's own lines, before any preprocessor
        self.brought: set[int] = set()  #: indices of lines another extension's preprocessor brought in
        self.post_to_pre: list[int] | None = None
        self.page_directives: list[Directive] = []
        self.skips: list[tuple[int, Directive]] = []  #: (line index, directive)
        self.problems: list[Problem] = []
        self.include_errors: list[Problem] = []  #: at the page line of the include
        self.unfound: list[str] = []  #: includes no file was found for (reported or not, as ``check_paths`` says)
        self.pending: Captured | None = None
        #: what an extension made from elsewhere, by ``made`` marker: (extension, object, page line)
        self.made: list[tuple[str, str, int]] = []
        self.made_cursor = 0  #: index of the line after the last ``:::`` line found
        self.extended: dict = {}  #: the site's extend_pygments_lang, ``{name: [lang, options]}``

    # -- where a line came from -------------------------------------------------------
    def origin(self, index: int) -> tuple[str, int, int | None] | None:
        """``(file, line, via)`` of line ``index``; an untagged line follows the one above."""
        if not 0 <= index < len(self.origins):
            return None
        for back in range(index, -1, -1):
            found = self.origins[back]
            if found is not None:
                return found[0], found[1] + (index - back), found[2]
        return None

    def page_line(self, index: int) -> int:
        """The page's line for line ``index``; for an included line, the line of the include."""
        found = self.origin(index)
        if found is None:
            return self.context.first_line
        if found[0] == self.context.path:
            return found[1]
        return found[2] if found[2] is not None else self._last_page_line(index)

    def _last_page_line(self, index: int) -> int:
        """For lines appended after the page (``auto_append``): its last line."""
        lines = [o[1] for o in self.origins[: index + 1] if o is not None and o[0] == self.context.path]
        return lines[-1] if lines else self.context.first_line

    def where(self, index: int) -> tuple[int, str]:
        """``(page line, "file:line" or "")`` for line ``index``."""
        origin = self.origin(index)
        source = f"{origin[0]}:{origin[1]}" if origin and origin[0] != self.context.path else ""
        return self.page_line(index), source
