"""The MkDocs plugin: shows the verification record on every page.

For each code block it adds the requirement badges (above) and the verification
mark with the output printed on each machine (below); at the top of each page a
one-line summary; ``<!-- chart: … -->``, ``<!-- verification-status -->`` and
``<!-- card-matrix -->`` directives become tables and SVG charts; translations whose Spanish source changed
get a banner. A page the engine cannot read fails the build with its file and line.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.utils import get_relative_url

from . import evidence, i18n, ledger, marks, matrix, render, slots
from .locales import text
from .sybil.lexers import LexError, read_page, scan
from .sybil.parsers import block_from_fence

log = get_plugin_logger(__name__)


class RuotaDocsConfig(Config):
    """Options of the ``ruota_docs`` plugin in mkdocs.yml."""

    #: Folder of verification ledgers (``<machine-id>.json``), relative to mkdocs.yml.
    ledger_dir = c.Type(str, default="verification")
    #: Set to false to build without badges, marks and charts (for measuring the plugin's cost).
    enabled = c.Type(bool, default=True)
    #: Source language: translations are compared against its pages.
    source_language = c.Type(str, default="es")
    #: Pages deliberately left untranslated (path under the language folder); they get a banner.
    untranslated = c.Type(list, default=[])


class RuotaDocsPlugin(BasePlugin[RuotaDocsConfig]):
    def on_config(self, config):
        self.root = Path(config.config_file_path).resolve().parent
        self.docs_dir = Path(config.docs_dir).resolve()
        try:
            self.ledgers = ledger.load_all(self.root / self.config.ledger_dir)
        except ledger.LedgerError as error:
            raise PluginError(f"ruota_docs: {error}") from None
        self.indexed = marks.index_ledgers(self.ledgers)
        return config

    # -- helpers -------------------------------------------------------------
    def _reader_lang(self, page, config) -> str:
        return getattr(page.file, "locale_alternate_of", None) or str(config.theme.get("language", "es"))

    def _blocks(self, markdown: str, page_key: str, lang: str):
        try:
            found = scan(markdown)
        except LexError as error:
            raise PluginError(f"{page_key}:{error.line}: {error}") from None
        blocks = []
        for fence in found.fences:
            block = block_from_fence(fence, page_key, lang, self.root)
            if block is None:
                continue
            if block.error:
                raise PluginError(block.error)
            block.index = len(blocks)
            blocks.append((fence, block))
        return found, blocks

    def _language_pages(self, lang: str, files, page) -> list:
        """``(title, url, [(block, verdict)…])`` for every page of one language, read from disk."""
        result = []
        folder = self.docs_dir / lang
        for path in sorted(folder.rglob("*.md")):
            key = path.relative_to(self.docs_dir).as_posix()
            try:
                source = read_page(path)
            except LexError as error:
                raise PluginError(f"{key}:{error.line}: {error}") from None
            _, blocks = self._blocks(source, key, lang)
            if not blocks:
                continue
            title = next((ln[2:].split("{")[0].strip() for ln in source.splitlines() if ln.startswith("# ")), key)
            file = files.get_file_from_path(key) if files else None
            url = get_relative_url(file.url, page.url) if file is not None else key
            result.append((title, url, [(b, marks.verdict(b.page, b.index, b.sha256, self.indexed)) for _, b in blocks]))
        return result

    # -- events ----------------------------------------------------------------
    def on_files(self, files, config):
        """A page that is not UTF-8 stops the build with its file and line (MkDocs itself
        would stop with a traceback)."""
        for file in files.documentation_pages():
            if not file.abs_src_path or not file.src_uri.endswith(".md"):
                continue  # generated in memory
            try:
                read_page(file.abs_src_path)
            except LexError as error:
                raise PluginError(f"{file.src_uri}:{error.line}: {error}") from None
            except OSError:
                continue
        return files

    def on_page_markdown(self, markdown, page, config, files):
        if not self.config.enabled:
            return markdown
        page_key = page.file.src_uri
        lang = self._reader_lang(page, config)
        found, blocks = self._blocks(markdown, page_key, lang)
        lines = markdown.splitlines(keepends=True)
        contents: dict[str, str] = {}
        inserts: dict[int, list[str]] = {}  # 0-based line → slot fences to insert before it
        replaces: dict[int, str] = {}

        verdicts = []
        for fence, block in blocks:
            verdict = marks.verdict(page_key, block.index, block.sha256, self.indexed)
            verdicts.append((block, verdict))
            badge = render.badges(block, lang)
            if badge:
                key = f"req-{block.index}"
                contents[key] = badge
                first = min([d.line for d in fence.directives] + [fence.line]) - 1
                inserts.setdefault(first, []).append("\n" + slots.fence(key, fence.indent) + "\n")
            for directive in fence.directives:
                # for authors only (the badges show readers what a block needs); left in an admonition
                # or a tab, the comment would pull the block into a paragraph
                replaces[directive.line - 1] = "\n"
            key = f"verify-{block.index}"
            contents[key] = render.block_panel(block, verdict, lang, str(block.index))
            end_line = markdown.count("\n", 0, fence.end) + 1  # the line after the closing fence
            inserts.setdefault(end_line, []).append("\n" + slots.fence(key, fence.indent) + "\n")

        for n, directive in enumerate(found.page_directives):
            key = f"directive-{n}"
            if directive.name == "chart":
                options = directive.options()
                try:
                    contents[key] = render.chart(options, self._chart_entries(page_key, options), lang)
                except ValueError as error:
                    raise PluginError(f"{page_key}:{directive.line}: chart: {error}") from None
            elif directive.name == "card-matrix":
                try:
                    guides = evidence.load_guides(self.root, self.docs_dir, lang)
                except evidence.EvidenceError as error:
                    raise PluginError(f"{page_key}:{directive.line}: card-matrix: {error}") from None
                found = lambda k: files.get_file_from_path(k) if files else None  # noqa: E731
                to = lambda k: get_relative_url(found(k).url, page.url) if found(k) else k  # noqa: E731
                contents[key] = matrix.card_matrix(guides, self.ledgers, lang, to)
            else:
                contents[key] = render.status_page(self._language_pages(lang, files, page), self.ledgers, lang)
            replaces[directive.line - 1] = "\n" + slots.fence(key, directive.indent) + "\n"

        header = [render.page_summary(verdicts, lang)] if verdicts else []
        header += self._translation_banners(page, page_key, lang)
        if any(header):
            contents["header"] = "".join(header)
            h1 = next((i + 1 for i, ln in enumerate(lines) if ln.startswith("# ")), 0)
            inserts.setdefault(h1, []).insert(0, "\n" + slots.fence("header") + "\n")

        out = []
        for i, line in enumerate(lines + [""]):
            for fence_text in inserts.get(i, []):
                if out and not out[-1].endswith("\n"):
                    out[-1] += "\n"
                out.append(fence_text)
            out.append(replaces.get(i, line))
        page.ruota_slots = contents
        return "".join(out)

    def _chart_entries(self, page_key: str, options: dict):
        block_id = options.get("block")
        if not block_id:
            raise PluginError(f"{page_key}: chart: directive needs block=ID (the id= of a run: directive)")
        by_machine = []
        for data, pages in self.indexed:
            entries = [e for e in pages.get(page_key, []) if e.get("id") == block_id]
            by_machine.append((data.get("machine", {}), entries))
        return by_machine

    def _translation_banners(self, page, page_key: str, lang: str) -> list[str]:
        source_lang = self.config.source_language
        file_lang = page_key.split("/", 1)[0]
        if file_lang != lang:  # the i18n plugin fell back to the source page
            return [f'<div class="admonition note ruota-banner"><p>{text(lang, "untranslated")}</p></div>']
        if lang == source_lang:
            return []
        state = i18n.translation_state(self.docs_dir, page_key, source_lang)
        if state is not None and state.stale:
            words = text(lang, "stale_translation", date=render.formatting.date(state.source_changed, lang))
            return [f'<div class="admonition warning ruota-banner"><p>{words}</p></div>']
        return []

    def on_page_content(self, html, page, config, files):
        contents = getattr(page, "ruota_slots", None)
        if not contents:
            return html
        filled, missing = slots.fill(html, contents)
        placed = set(contents) - set(missing)
        lost = [k for k in contents if k not in placed and f'data-slot="{k}"' not in html]
        if lost:
            log.warning(f"{page.file.src_uri}: could not place {', '.join(lost)} (is a code block inside raw HTML?)")
        return filled
