"""What readers see: the code blocks in HTML, and each page of ``mkdocs build``.

:func:`code_blocks` reads the text of every ``<pre>…<code>`` in HTML as a reader sees
it (line numbers and titles left out): the capture uses it on what a custom fence
formats, and it is the yardstick the engine is checked against
(``tests/corpus/test_corpus.py``, ``scripts/compare_external_docs.py``), with :func:`build`,
which runs MkDocs' own build of a project in this process and keeps each page's
content HTML as the last plugin sees it.
"""

from __future__ import annotations

import html
import html.parser
import os
import re
from pathlib import Path

#: Elements of a highlighted block that are not its code.
_NOT_CODE = frozenset({"linenos", "lineno", "linenodiv", "filename"})
_VOID = frozenset({"br", "img", "input", "wbr", "hr"})


class _CodeBlocks(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        #: ``[start, end, block]`` of each outermost element holding a ``<pre>`` (a highlight wrapper, else
        #: the ``<pre>``) in the HTML, with the index in ``blocks`` its code gets, if it holds a ``<code>``
        self.spans: list[list[int]] = []
        self._lines: list[int] = [0]
        self._open: list[tuple[str, int, bool]] = []  #: (tag, start, a highlight wrapper)
        self._anchor: int | None = None  #: depth in ``_open`` of the current block's outermost element
        self._pre = 0
        self._code = 0
        self._skip = 0
        self._text: list[str] = []
        self._stack: list[bool] = []

    def feed(self, data: str) -> None:
        position = 0
        for line in data.splitlines(keepends=True):
            position += len(line)
            self._lines.append(position)
        super().feed(data)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        start = self._offset()
        self._open.append((tag, start, any(c.startswith("highlight") for c in classes)))
        if tag == "pre" and not self._pre and self._anchor is None:
            self._anchor = next((d for d, (_, _, wrapper) in enumerate(self._open) if wrapper), len(self._open) - 1)
            self.spans.append([self._open[self._anchor][1], -1, len(self.blocks)])
        skipping = tag in ("span", "td", "div") and not _NOT_CODE.isdisjoint(classes)
        self._stack.append(skipping)
        self._skip += skipping
        if tag == "pre":
            self._pre += 1
        elif tag == "code" and self._pre:
            self._code += 1
            if self._code == 1:
                self._text = []

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        depth = next((d for d in range(len(self._open) - 1, -1, -1) if self._open[d][0] == tag), None)
        if depth is not None:
            del self._open[depth:]
            if self._anchor is not None and depth <= self._anchor:
                self._anchor = None
                self.spans[-1][1] = self.rawdata.index(">", self._offset()) + 1
        if tag == "code" and self._code:
            self._code -= 1
            if not self._code:
                self.blocks.append("".join(self._text))
        elif tag == "pre" and self._pre:
            self._pre -= 1
        if self._stack:
            self._skip -= self._stack.pop()

    def handle_data(self, data):
        if self._code and not self._skip:
            self._text.append(data)


def code_blocks(page_html: str) -> list[str]:
    """The code of every block in a page's HTML, in order, final newlines left out."""
    parser = _CodeBlocks()
    parser.feed(page_html)
    parser.close()
    return [b.rstrip("\n") for b in parser.blocks]


def code_block_spans(page_html: str) -> list[tuple[int, int, str]]:
    """``(start, end, code)`` of every block in a page's HTML: where its outermost element
    (Pygments' highlight wrapper, else the ``<pre>``) starts and ends, and its code as
    :func:`code_blocks` reads it.

    A page of mkdocstrings' API is tens of thousands of tags, mostly Pygments' token ``<span>``s;
    reading them with Python's HTML parser was most of what the engine added to such a site's build.
    So the code of each simple block is read at once (`_set_aside`), and a page whose tags are all of
    the plain kind generated HTML has is walked by a regular expression (`_Tags`); the parser's
    handlers do the rest either way, and any other page goes through the parser."""
    marked, texts = _set_aside(page_html)
    parser = _Tags() if _Tags.can_read(marked) else _CodeBlocks()
    parser.feed(marked)
    parser.close()
    found = []
    for n, (start, end, index) in enumerate(parser.spans):
        following = parser.spans[n + 1][2] if n + 1 < len(parser.spans) else len(parser.blocks)
        if following > index:  # its <pre> held a <code>
            code = _SET_ASIDE.sub(lambda m: texts[int(m[1])], parser.blocks[index]) if texts else parser.blocks[index]
            found.append((start, end if end >= 0 else len(page_html), code.rstrip("\n")))
    return found


#: A start tag whose attributes are all ``name="value"`` (no ``<``, ``>`` or ``&`` in the value, so none to
#: unescape) or bare names, or an end tag.
_PLAIN_TAG = re.compile(r'<(/)?([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:="[^"<>&]*")?)*)\s*(/)?>')
#: A ``<`` that starts no such tag (a comment, a declaration, text), or an element whose content the
#: parser reads as raw text.
_NOT_PLAIN = re.compile(r'<(?!/?[a-zA-Z][a-zA-Z0-9]*(?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:="[^"<>&]*")?)*\s*/?>)'
                        r'|<(?:script|style)\b', re.I)
#: The ``class`` attribute's value (the last, where a tag has several: as a dict of the parser's attributes).
_ATTR_CLASS = re.compile(r'(?i:(?<![-\w:.])class)="([^"]*)"')


class _Tags(_CodeBlocks):
    """What `_CodeBlocks` finds, for HTML made only of plain tags and text (`can_read`), its handlers'
    steps done inline over a regular expression's tags (a tenth of the time of Python's HTML parser, whose
    per-tag work is most of the cost on a page of thousands of tags). ``tests/blocks/test_shown.py`` holds
    the two to the same results."""

    @staticmethod
    def can_read(page_html: str) -> bool:
        return not _NOT_PLAIN.search(page_html)

    def feed(self, data: str) -> None:  # noqa: C901 — the handlers' steps, inline: a call per tag is the cost
        opened: list[tuple[str, int, bool]] = []  # (tag, start, a highlight wrapper), as `_open`
        skipping: list[bool] = []  # as `_stack`
        spans, blocks, text = self.spans, self.blocks, self._text
        anchor, pre, code, skip, position = None, 0, 0, 0, 0
        for tag in _PLAIN_TAG.finditer(data):
            if code and not skip and tag.start() > position:  # the only text the handlers keep
                text.append(html.unescape(data[position:tag.start()]))
            position = tag.end()
            name = tag[2].lower()
            if name in _VOID:
                continue
            if not tag[1]:
                attributes = tag[3]
                classes = _ATTR_CLASS.findall(attributes) if "class" in attributes.lower() else ()
                classes = classes[-1].split() if classes else ()
                opened.append((name, tag.start(), any(c.startswith("highlight") for c in classes)))
                if name == "pre" and not pre and anchor is None:
                    anchor = next((d for d, (_, _, wrapper) in enumerate(opened) if wrapper), len(opened) - 1)
                    spans.append([opened[anchor][1], -1, len(blocks)])
                skipped = name in ("span", "td", "div") and not _NOT_CODE.isdisjoint(classes)
                skipping.append(skipped)
                skip += skipped
                if name == "pre":
                    pre += 1
                elif name == "code" and pre:
                    code += 1
                    if code == 1:
                        text = self._text = []
                if not tag[4]:
                    continue
            depth = next((d for d in range(len(opened) - 1, -1, -1) if opened[d][0] == name), None)
            if depth is not None:
                del opened[depth:]
                if anchor is not None and depth <= anchor:
                    anchor = None
                    spans[-1][1] = data.index(">", tag.start()) + 1
            if name == "code" and code:
                code -= 1
                if not code:
                    blocks.append("".join(text))
            elif name == "pre" and pre:
                pre -= 1
            if skipping:
                skip -= skipping.pop()

    def close(self) -> None:
        pass


#: A ``<pre>`` element; in one, a ``<`` that starts none of the tags a highlighted block holds (Pygments'
#: ``<span>``s, a span per token: most of a page of mkdocstrings' sources is those; links; its ``<code>``),
#: a class the parser leaves out (line numbers, titles), and those tags by kind, to check their nesting.
_PRE = re.compile(r"(<pre\b[^>]*>)(.*?)</pre>", re.S)
_NOT_INNER = re.compile(r'<(?!/?(?:span|a|code)(?:\s+[A-Za-z_:][-\w:.]*="[^"<>&]*")*\s*>)')
_NOT_CODE_CLASS = re.compile(r'\sclass="(?:[^"]*\s)?(?:linenos|lineno|linenodiv|filename)[\s"]')
#: A character reference that a tag cuts (``&amp<span>;``): the parser reads the pieces apart.
_CUT_REFERENCE = re.compile(r"&[#\w]*<")
_INNER_TAG = re.compile(r"</?(?:span|a|code)")
_CODE_TAG = re.compile(r"<code\b[^>]*>")
_TAG = re.compile(r"<[^>]*>")
_SET_ASIDE = re.compile(r"\x00(\d+)\x00 *")


def _set_aside(page_html: str) -> tuple[str, list[str]]:
    """``page_html`` with the inside of each simple ``<pre>`` blanked and its code replaced by a mark of
    the same length, and the text each mark stands for, as the parser reads it (each piece between two
    tags unescaped on its own). The parser then walks a few tags per block instead of one per token;
    every offset stays put, and where a block is not simple, the parser reads it as it is."""
    texts: list[str] = []

    def aside(match: re.Match[str]) -> str:
        inner = match[2]
        if not _simple(inner):
            return match[0]
        opened = _CODE_TAG.search(inner)
        if opened is None:  # no code: line numbers, or text the parser reads no block from
            return f"{match[1]}{' ' * len(inner)}</pre>"
        closed = inner.index("</code>", opened.end())
        body = inner[opened.end():closed]
        mark = f"\x00{len(texts)}\x00"
        if len(body) < len(mark):
            return match[0]
        text = _TAG.sub("", body)
        if "&" in text:
            text = "".join(map(html.unescape, _TAG.split(body))) if _CUT_REFERENCE.search(body) else html.unescape(text)
        texts.append(text)
        return (f"{match[1]}{' ' * opened.start()}{opened[0]}{mark.ljust(len(body))}</code>"
                f"{' ' * (len(inner) - closed - len('</code>'))}</pre>")

    if "\x00" in page_html:
        return page_html, texts
    return _PRE.sub(aside, page_html), texts


def _simple(inner: str) -> bool:
    """Whether the parser's reading of a ``<pre>``'s inside depends on nothing else: only the tags above,
    each closed inside in the order opened (so that no end tag closes an element outside), one ``<code>`` at
    most, and no class the parser leaves out."""
    if _NOT_INNER.search(inner) or (("lineno" in inner or "filename" in inner) and _NOT_CODE_CLASS.search(inner)):
        return False
    # each tag as a bracket, "(" ")" a span, "[" "]" a link, "{" "}" a code: nested right, they cancel out
    tags = "".join(_INNER_TAG.findall(inner))
    brackets = tags.replace("</span", ")").replace("</a", "]").replace("</code", "}") \
        .replace("<span", "(").replace("<a", "[").replace("<code", "{")
    if brackets.count("{") > 1:
        return False
    while brackets:
        shorter = brackets.replace("()", "").replace("[]", "").replace("{}", "")
        if shorter == brackets:
            return False
        brackets = shorter
    return True


def build(config_file: Path, site_dir: Path, **overrides) -> dict[Path, str]:
    """Build the project of ``config_file`` into ``site_dir`` with MkDocs; ``{page file: content HTML}``.

    ``overrides`` replace mkdocs.yml options as ``mkdocs build`` flags would (``plugins=[]``,
    ``hooks=[]``). The build runs in the project's folder, since pymdownx.snippets resolves a
    relative ``base_path`` from the current directory.
    """
    from mkdocs.commands.build import build as mkdocs_build  # noqa: PLC0415 — MkDocs is slow to import
    from mkdocs.config import load_config  # noqa: PLC0415 — MkDocs, as above
    from mkdocs.plugins import BasePlugin, event_priority  # noqa: PLC0415 — MkDocs, as above

    pages: dict[Path, str] = {}

    class _Keep(BasePlugin):
        @event_priority(-1000)  # after every other plugin: what gets written
        def on_page_content(self, html, page, **kwargs):
            pages[Path(page.file.abs_src_path).resolve()] = html
            return html

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    config = load_config(str(config_file), site_dir=str(site_dir), **overrides)
    config.plugins["ruota-built-pages"] = _Keep()
    cwd = os.getcwd()
    os.chdir(Path(config_file).resolve().parent)
    try:
        mkdocs_build(config)
    finally:
        os.chdir(cwd)
    return pages
