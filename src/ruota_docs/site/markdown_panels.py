"""The block panels as a Python-Markdown extension, for generators that run no MkDocs plugins.

The MkDocs plugin (`ruota_docs.site.plugin`) marks every block of every page; a generator that
reads mkdocs.yml's ``markdown_extensions`` but runs no plugin of MkDocs' can still show where
each block last passed, page by page, with this extension::

    import markdown

    md = markdown.Markdown(extensions=["pymdownx.superfences", "ruota_docs.site.markdown_panels"],
                           extension_configs={"ruota_docs.site.markdown_panels": {
                               "root": "/path/to/site", "page": "es/guides/keras-rx7600.md"}})
    html = md.convert(text)

``root`` is the folder of the site's mkdocs.yml (the records are its ``record_dir``), ``page``
the page's path under the docs directory (a block's record is found by its page, its index and
its code), ``lang`` the reader's language (the page's, by default). Under Zensical, which makes
one Markdown instance per page with its rendering context, ``page`` and ``root`` come from that
context: the site names the extension in its ``markdown_extensions`` with no options. The
engine's own collection leaves the extension out (`ruota_docs.blocks.site_config`). Under each block comes the
same panel the plugin shows, from the same records, held to the same privacy rules
(`ruota_docs.site.published`): a record refused there leaves its blocks unmarked. Only the
block panels: the page summary, charts, values and the translation banner are the plugin's.
The site includes the plugin's stylesheet itself (`STYLESHEET`, in this package).
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from markdown import Extension
from markdown.postprocessors import Postprocessor

from ruota_docs.blocks import markers, renderer, site_config
from ruota_docs.blocks.capture import BlockCapture, Context
from ruota_docs.records import ledger, verdicts
from ruota_docs.site import fragments, published

log = logging.getLogger(__name__)
#: The stylesheet a site that uses the extension includes.
STYLESHEET = Path(__file__).resolve().parent / "assets" / "ruota.css"


@functools.lru_cache(maxsize=4)
def _records(folder: str, _stamp: tuple) -> tuple[verdicts.Index, published.Published]:
    files = ledger.load_files(Path(folder))
    return verdicts.index_ledgers([data for _, data in files]), published.Published(files, keep_going=True)


def records(folder: Path) -> tuple[verdicts.Index, published.Published]:
    """The records of ``folder``, indexed, read again only where a file changed."""
    stamp = tuple((p.name, p.stat().st_mtime_ns) for p in sorted(Path(folder).glob("*.json"))) \
        if Path(folder).is_dir() else ()
    return _records(str(folder), stamp)


class _Panels(Postprocessor):
    """After the HTML is whole: each block's badges above it and its panel below it."""

    def __init__(self, md, extension: PanelsExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, text: str) -> str:
        capture, site = self.extension.capture, self.extension.site
        state = capture.page_state
        if state is None:
            return text
        page = self.extension.page
        lang = self.extension.getConfig("lang") or site_config.languages(site.root).page_language(page)
        rendered = renderer.assemble(state, text, page, lang, site.root, "\n".join(state.page_lines))
        indexed, gate = records(site.record_dir)
        before, after = {}, {}
        for block in rendered.blocks:
            if block.shown_only or block.generated_by is not None:
                continue
            verdict = verdicts.verdict(page, block.index, block.sha256, indexed)
            try:
                gate.verdict(verdict, page, block.index, (self.extension.source, block.code))
            except published.RecordRefused as error:
                log.warning("ruota_docs: %s (the block is shown unmarked)", error)
                verdict = verdicts.verdict(page, block.index, block.sha256, verdicts.index_ledgers([]))
            before[block.number] = fragments.badges(block, lang)
            after[block.number] = fragments.block_panel(block, verdict, lang, str(block.index))
        return markers.fill(text, rendered.nonce, before, after, {})


class PanelsExtension(Extension):
    def __init__(self, **kwargs) -> None:
        self.config = {
            "root": [".", "the folder of the site's mkdocs.yml"],
            "page": ["", "the page's path under the docs directory (es/guide.md)"],
            "lang": ["", "the reader's language (default: the page's)"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md) -> None:  # noqa: N802 — Python-Markdown's name
        page, root = self.getConfig("page"), self.getConfig("root")
        context = _zensical_context(md)
        if context is not None and not page:  # Zensical makes one Markdown per page and says which
            page = str(context.page.path)
            if root == ".":
                root = context.config.get("root_dir") or root
        self.page = page  # for this conversion: an instance may serve several pages
        self.site = site_config.read(Path(root))
        path = self.site.docs_dir / page
        self.source = path.read_text(encoding="utf-8") if path.is_file() else ""
        self.capture = BlockCapture(Context(str(path.resolve())))
        self.capture.extendMarkdown(md)
        md.postprocessors.register(_Panels(md, self), "ruota_panels", 5)  # after raw HTML is put back (30)


def _zensical_context(md):
    """Zensical's rendering context (its ``rendering_context`` preprocessor: the page being rendered,
    ``page.path`` under the docs directory, and the site's configuration), or None outside Zensical."""
    if "rendering_context" not in md.preprocessors:
        return None
    context = md.preprocessors["rendering_context"]
    return context if hasattr(context, "page") and hasattr(context, "config") else None


def makeExtension(**kwargs) -> PanelsExtension:  # noqa: N802 — Python-Markdown's name
    return PanelsExtension(**kwargs)
