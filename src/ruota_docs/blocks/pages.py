"""Reading a page file as MkDocs reads it: UTF-8, newlines normalised, front matter apart."""

from __future__ import annotations

import re
from pathlib import Path

#: A first line MkDocs' front matter reader (``mkdocs.utils.meta``) may read as front matter:
#: ``---``, ``key: value``, or a blank line (which it drops). On any other, the reader gives the
#: text back as it is, so `split_meta` does not call it: importing it imports MkDocs' command
#: line machinery, the larger part of what reading a page costs a run of one page.
_MAY_HOLD_META = re.compile(r"-{3}|[ ]{0,3}[A-Za-z0-9_-]+:|\s*$")
#: YAML front matter as MkDocs finds it (`mkdocs.utils.meta.YAML_RE`): ``---``, the YAML, then
#: ``---`` or ``...``.
FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n(?P<body>.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.S)


class PageError(ValueError):
    """A page the engine cannot read; ``line`` is 1-based in the file."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def decode_page(raw: bytes) -> str:
    """A page's text; raises `PageError` naming the line of the first byte that is not UTF-8."""
    try:
        return raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise PageError(f"not UTF-8 text (byte 0x{raw[error.start]:02x} at line {line}, column {column}): "
                        "save the file as UTF-8", line) from None


def read_page(path) -> str:
    """The text of a page file; raises `PageError` where it is not UTF-8."""
    with open(path, "rb") as handle:
        return decode_page(handle.read())


def split_meta(text: str) -> tuple[str, int]:
    """``(markdown, first_line)``: the page without its front matter, as MkDocs renders it,
    and the file's line number of the first line of that Markdown."""
    if not _MAY_HOLD_META.match(text.partition("\n")[0]):
        return text, 1
    from mkdocs.utils.meta import get_data  # noqa: PLC0415 — the very function MkDocs uses

    markdown, _ = get_data(text)
    if not text.endswith(markdown):  # cannot happen with MkDocs 1.6; stay safe
        return markdown, 1
    return markdown, text.count("\n", 0, len(text) - len(markdown)) + 1


def page_key(docs_dir: Path, path: Path, languages=None) -> tuple[str, str]:
    """``("es/guides/x.md", "es")`` for a page file under ``docs_dir`` (its name alone elsewhere).

    ``languages`` (a :class:`~ruota_docs.blocks.site_config.SiteLanguages`) says which
    language a page is; without it, a page's first folder is its language."""
    path = Path(path).resolve()
    try:
        page = path.relative_to(Path(docs_dir).resolve()).as_posix()
    except ValueError:
        page = path.name
    if languages is not None:
        return page, languages.page_language(page)
    return page, page.split("/", 1)[0] if "/" in page else ""


def front_matter(text: str) -> tuple[dict, int]:
    """``(fields, end)``: a page's YAML front matter, each scalar as the text it is written as (so an
    unquoted hash of digits stays the string it is, as written), and where the front matter ends
    in ``text`` (0 where there is none, or it is no mapping of YAML, as MkDocs then reads none)."""
    match = FRONT_MATTER.match(text)
    if match is None:
        return {}, 0
    import yaml  # noqa: PLC0415 — only front matter needs it

    try:
        fields = yaml.load(match["body"], Loader=yaml.BaseLoader)  # noqa: S506 — BaseLoader builds no object
    except yaml.YAMLError:
        return {}, 0
    return (fields, match.end()) if isinstance(fields, dict) else ({}, 0)
