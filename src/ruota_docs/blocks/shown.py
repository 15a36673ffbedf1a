"""What readers see: the code blocks in HTML, and each page of ``mkdocs build``.

:func:`code_blocks` reads the text of every ``<pre>…<code>`` in HTML as a reader sees
it (line numbers and titles left out): the capture uses it on what a custom fence
formats, and it is the yardstick the engine is checked against
(``tests/test_corpus.py``, ``scripts/compare_external_docs.py``), with :func:`build`,
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
        self._pre = 0
        self._code = 0
        self._skip = 0
        self._text: list[str] = []
        self._stack: list[bool] = []

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
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
