"""Lexing Markdown pages: fenced code blocks and the directives written before them.

Sybil's own Markdown lexer only sees fences whose info string is a bare language;
Material pages write ``python title="x.py" hl_lines="2"``, indent fences inside
admonitions and tabs, and nest fences inside longer fences. This lexer handles all
of those, line by line, and reports what it cannot make sense of (an unclosed
fence, an unknown directive) with the page's line number.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from sybil import Document, Lexeme, Region

#: Directives written just before a code block; they apply to that block.
BLOCK_DIRECTIVES = ("requires", "run")
#: Directives that stand on their own and are expanded when the site is built.
PAGE_DIRECTIVES = ("chart", "verification-status", "card-matrix")
DIRECTIVES = BLOCK_DIRECTIVES + PAGE_DIRECTIVES

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*?)[ \t]*$")
_DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)<!--[ \t]*(?P<name>[a-z][a-z0-9-]*):(?P<args>.*?)-->[ \t]*$")
_INFO_LANG = re.compile(r"^\{?[ \t]*\.?(?P<lang>[A-Za-z0-9_+#.-]+)")
_ATTR = re.compile(r"""(?P<key>[A-Za-z_][\w-]*)=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>\S+))""")


class LexError(ValueError):
    """Markdown the engine cannot read; ``line`` is 1-based in the page."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Directive:
    """``<!-- name: args -->`` on a line of its own."""

    name: str
    args: str
    line: int
    start: int
    end: int
    indent: str = ""

    def options(self) -> dict[str, str | bool]:
        """``safe timeout=60 reason="a b"`` → ``{"safe": True, "timeout": "60", "reason": "a b"}``."""
        try:
            tokens = shlex.split(self.args)
        except ValueError as error:
            raise LexError(f"malformed {self.name}: directive ({error})", self.line) from None
        parsed: dict[str, str | bool] = {}
        for token in tokens:
            key, sep, value = token.partition("=")
            parsed[key] = value if sep else True
        return parsed


@dataclass
class Fence:
    """One fenced code block as written in the page."""

    start: int
    end: int
    line: int  #: line of the opening fence (1-based)
    indent: str
    marker: str
    info: str
    body: str  #: the content with the fence's indentation removed
    directives: list[Directive] = field(default_factory=list)

    @property
    def language(self) -> str:
        match = _INFO_LANG.match(self.info)
        return match["lang"].lower() if match else ""

    @property
    def attrs(self) -> dict[str, str]:
        return {m["key"]: next(v for v in (m["dq"], m["sq"], m["bare"]) if v is not None) for m in _ATTR.finditer(self.info)}

    @property
    def title(self) -> str | None:
        return self.attrs.get("title")

    def directive(self, name: str) -> Directive | None:
        return next((d for d in self.directives if d.name == name), None)


@dataclass
class Scan:
    """Everything the lexer found in a page."""

    fences: list[Fence]
    page_directives: list[Directive]


def decode_page(raw: bytes) -> str:
    """A page's text, read as MkDocs reads it (UTF-8, newlines normalised); raises
    `LexError` naming the line of the first byte that is not UTF-8."""
    try:
        return raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise LexError(f"not UTF-8 text (byte 0x{raw[error.start]:02x} at line {line}, column {column}): "
                       "save the file as UTF-8", line) from None


def read_page(path) -> str:
    """The text of a page file (UTF-8, as MkDocs reads it); raises `LexError` otherwise."""
    with open(path, "rb") as handle:
        return decode_page(handle.read())


def _offsets(text: str) -> list[int]:
    starts, pos = [0], 0
    for line in text.splitlines(keepends=True):
        pos += len(line)
        starts.append(pos)
    return starts


def _dedent(line: str, indent: str) -> str:
    if line.startswith(indent):
        return line[len(indent):]
    # blank or under-indented lines lose the whitespace they have
    return line.lstrip(" \t")


def scan(text: str) -> Scan:
    """Find every fenced block and directive. Raises `LexError`."""
    lines = text.splitlines(keepends=True)
    offsets = _offsets(text)
    fences: list[Fence] = []
    page_directives: list[Directive] = []
    pending: list[Directive] = []
    i = 0
    while i < len(lines):
        raw = lines[i].rstrip("\r\n")
        directive = _DIRECTIVE.match(raw)
        if directive:
            d = Directive(directive["name"], directive["args"].strip(), i + 1, offsets[i], offsets[i + 1], directive["indent"])
            if d.name not in DIRECTIVES:
                raise LexError(f"unknown directive {d.name!r}; known: {', '.join(DIRECTIVES)}", i + 1)
            if d.name in PAGE_DIRECTIVES:
                page_directives.append(d)
            else:
                pending.append(d)
            i += 1
            continue
        opening = _FENCE_OPEN.match(raw)
        if opening and not (opening["fence"][0] == "`" and "`" in opening["info"]):
            indent, marker = opening["indent"], opening["fence"]
            body: list[str] = []
            j = i + 1
            while j < len(lines):
                candidate = lines[j].rstrip("\r\n")
                stripped = candidate.lstrip(" \t")
                close_indent = len(candidate) - len(stripped)
                if (
                    stripped.startswith(marker[0] * len(marker))
                    and not stripped.lstrip(marker[0]).strip()
                    and close_indent <= len(indent) + 3
                ):
                    break
                body.append(_dedent(lines[j], indent))
                j += 1
            else:
                raise LexError(f"code block opened with {marker} at line {i + 1} is never closed", i + 1)
            end = offsets[j + 1] if j + 1 < len(offsets) else len(text)
            end = min(end, len(text))
            if end and text[end - 1:end] == "\n":
                end -= 1
            fences.append(Fence(offsets[i], end, i + 1, indent, marker, opening["info"], "".join(body), pending))
            pending = []
            i = j + 1
            continue
        if pending:
            d = pending[0]
            raise LexError(f"{d.name}: directive at line {d.line} is not directly followed by a code block", d.line)
        i += 1
    if pending:
        d = pending[0]
        raise LexError(f"{d.name}: directive at line {d.line} is not directly followed by a code block", d.line)
    return Scan(fences, page_directives)


class FencedBlockLexer:
    """A Sybil lexer yielding one `sybil.Region` per fenced block.

    Lexemes: ``fence`` (the `Fence`) and ``source`` (its body as a
    `sybil.Lexeme`). A page the lexer cannot read yields one region whose
    ``error`` lexeme holds the `LexError`, so the failure is reported against
    the page and line instead of aborting collection.
    """

    def __call__(self, document: Document):
        try:
            result = scan(document.text)
        except LexError as error:
            yield self.error_region(document, error)
            return
        for fence in result.fences:
            source = Lexeme(fence.body, offset=0, line_offset=1)
            yield Region(fence.start, fence.end, lexemes={"fence": fence, "source": source})

    @staticmethod
    def error_region(document: Document, error: LexError) -> Region:
        """One region at the error's line, holding the `LexError`."""
        offsets = _offsets(document.text)
        start = offsets[min(error.line, len(offsets)) - 1]
        return Region(start, min(start + 1, max(len(document.text), 1)), lexemes={"error": error})
