"""What readers see: the code blocks in HTML, and each page of ``mkdocs build``.

:func:`code_blocks` reads the text of every ``<pre>…<code>`` in HTML as a reader sees
it (line numbers and titles left out): the capture uses it on what a custom fence
formats, and it is the yardstick the engine is checked against
(``tests/corpus/test_corpus.py``, ``scripts/compare_external_docs.py``), with :func:`build`,
which runs MkDocs' own build of a project in this process and keeps each page's
content HTML as the last plugin sees it.
"""

from __future__ import annotations

import html.parser
import os
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
    :func:`code_blocks` reads it."""
    parser = _CodeBlocks()
    parser.feed(page_html)
    parser.close()
    found = []
    for n, (start, end, index) in enumerate(parser.spans):
        following = parser.spans[n + 1][2] if n + 1 < len(parser.spans) else len(parser.blocks)
        if following > index:  # its <pre> held a <code>
            found.append((start, end if end >= 0 else len(page_html), parser.blocks[index].rstrip("\n")))
    return found


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
