"""The MkDocs plugin: shows the verification record on every page.

For each code block it adds the requirement badges (above) and the verification
mark with the output printed on each machine (below); at the top of each page a
one-line summary; ``<!-- chart: … -->``, ``<!-- verification-status -->`` and
``<!-- card-matrix -->`` directives become tables and SVG charts; translations whose Spanish source changed
get a banner. A page the engine cannot read fails the build with its file and line.
The site's frame speaks the reader's language too: permalink titles, the templates'
strings, and French typography on every French page.
"""

from __future__ import annotations

import functools
from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.utils import get_relative_url

from . import evidence, i18n, ledger, marks, markers, matrix, render, renderer, template_cache, typography, values
from .capture import BlockCapture, Context
from .locales import LANGUAGE_NAMES, text
from .pages import PageError, read_page

log = get_plugin_logger(__name__)

#: mkdocstrings renders the package's docstrings: English on every page, and said so.
_API_OBJECT = '<div class="doc doc-object '
#: Material's page body, and the banner over a page shown in its source language.
_ARTICLE = '<article class="md-content__inner md-typeset">'
_BANNER = '<div class="admonition note ruota-banner">'


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
        # The blocks are captured while MkDocs renders each page (static-i18n runs the
        # build once per language: add the extension once).
        captures = [e for e in config.markdown_extensions if isinstance(e, BlockCapture)]
        self.capture = captures[0] if captures else BlockCapture()
        if not captures and self.config.enabled:
            config.markdown_extensions.append(self.capture)
        return config

    # -- helpers -------------------------------------------------------------
    def _reader_lang(self, page, config) -> str:
        return getattr(page.file, "locale_alternate_of", None) or str(config.theme.get("language", "es"))

    def _language_pages(self, lang: str, files, page) -> list:
        """``(title, url, [(block, verdict)…])`` for every page of one language, read from disk."""
        result = []
        folder = self.docs_dir / lang
        for path in sorted(folder.rglob("*.md")):
            key = path.relative_to(self.docs_dir).as_posix()
            rendered = _blocks_of(self.root, self.docs_dir, path, path.stat().st_mtime_ns)
            if rendered.problems:
                problem = rendered.problems[0]
                raise PluginError(f"{key}:{problem.line}: {problem.message}")
            blocks = [b for b in rendered.blocks if not b.shown_only]
            if not blocks:
                continue
            source = read_page(path)
            title = next((ln[2:].split("{")[0].strip() for ln in source.splitlines() if ln.startswith("# ")), key)
            file = files.get_file_from_path(key) if files else None
            url = get_relative_url(file.url, page.url) if file is not None else key
            result.append((title, url, [(b, marks.verdict(b.page, b.index, b.sha256, self.indexed)) for b in blocks]))
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
            except PageError as error:
                raise PluginError(f"{file.src_uri}:{error.line}: {error}") from None
            except OSError:
                continue
        return files

    def on_page_markdown(self, markdown, page, config, files):
        if not self.config.enabled:
            return markdown
        # the Markdown instance MkDocs makes next renders this page: lines are counted in its file
        first_line = 1
        if page.file.abs_src_path:
            try:
                source = read_page(page.file.abs_src_path)
                if source.endswith(markdown):
                    first_line = source.count("\n", 0, len(source) - len(markdown)) + 1
            except (OSError, PageError):
                pass
        self.capture.context(Context(str(Path(page.file.abs_src_path or page.file.src_uri).resolve()), first_line))
        return markdown

    def on_page_content(self, html, page, config, files):
        state = self.capture.page_state if self.config.enabled else None
        if state is None:
            return html
        page_key = page.file.src_uri
        lang = self._reader_lang(page, config)
        rendered = renderer.assemble(state, html, page_key, lang, self.root)
        self.capture.page_state = None
        if rendered.problems:
            problem = rendered.problems[0]
            raise PluginError(f"{page_key}:{problem.line}: {problem.message}")
        before, after, verdicts = {}, {}, []
        for block in rendered.blocks:
            if block.error:
                raise PluginError(block.error)
            if block.shown_only:
                continue
            verdict = marks.verdict(page_key, block.index, block.sha256, self.indexed)
            verdicts.append((block, verdict))
            before[block.number] = render.badges(block, lang)
            after[block.number] = render.block_panel(block, verdict, lang, str(block.index))
        filled = {}
        for n, directive in enumerate(rendered.directives):
            if directive.name == "chart":
                options = directive.options()
                try:
                    filled[n] = render.chart(options, self._chart_entries(page_key, options, directive.line), lang)
                except ValueError as error:
                    raise PluginError(f"{page_key}:{directive.line}: chart: {error}") from None
            elif directive.name == "card-matrix":
                try:
                    guides = evidence.load_guides(self.root, self.docs_dir, lang)
                except evidence.EvidenceError as error:
                    raise PluginError(f"{page_key}:{directive.line}: card-matrix: {error}") from None
                found = lambda k: files.get_file_from_path(k) if files else None  # noqa: E731
                to = lambda k: get_relative_url(found(k).url, page.url) if found(k) else k  # noqa: E731
                filled[n] = matrix.card_matrix(guides, self.ledgers, lang, to)
            else:
                filled[n] = render.status_page(self._language_pages(lang, files, page), self.ledgers, lang)
        html = markers.fill(html, rendered.nonce, before, after, filled)
        html = self._values(html, rendered, page, lang)
        header = "".join([render.page_summary(verdicts, lang)] + self._translation_banners(page, page_key, lang))
        return _after_title(html, header) if header else html

    def _values(self, html: str, rendered, page, lang: str) -> str:
        """``<!-- value: … -->`` in the prose: the number each machine's record holds."""
        if "value:" not in html:
            return html
        by_id = {b.block_id: b for b in rendered.blocks if b.block_id}
        source = page.file.content_string if page.file.abs_src_path else ""

        def fill(match):
            line = _line_of(source, match.group(0))
            try:
                value = values.parse(match["args"])
            except values.ValueDirectiveError as error:
                raise PluginError(f"{rendered.page}:{line}: {error}") from None
            block = by_id.get(value.block)
            if block is None:
                known = ", ".join(sorted(by_id)) or "none"
                raise PluginError(f"{rendered.page}:{line}: value: no block on this page has id={value.block} (ids here: {known})")
            return values.render(value, marks.verdict(block.page, block.index, block.sha256, self.indexed), lang)

        return values.DIRECTIVE.sub(fill, html)

    def _chart_entries(self, page_key: str, options: dict, line: int):
        block_id = options.get("block")
        if not block_id:
            raise PluginError(f"{page_key}:{line}: chart: directive needs block=ID (the id= of a run: directive)")
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

    # -- the site's frame in the reader's language ----------------------------------------
    def on_pre_build(self, config):
        """Headings' permalink title in the language being built (the i18n plugin builds
        each language in turn, each with its own ``theme.language``)."""
        toc = config.mdx_configs.get("toc")
        if toc is not None and toc.get("permalink"):
            toc["permalink_title"] = text(str(config.theme.get("language", "es")), "permalink")

    def on_env(self, env, config, files):
        """``ruota_text(lang, key)`` for templates (overrides/): strings from locales.py; the
        theme's templates compiled once per process, not once per language and rebuild."""
        env.globals["ruota_text"] = text
        env.bytecode_cache = template_cache.CACHE
        return env

    def on_post_page(self, output, page, config):
        """Text in another language than the page's says so (``lang``), so that browsers,
        screen readers and French typography treat it as what it is."""
        lang = self._reader_lang(page, config)
        if lang != "en":
            output = output.replace(_API_OBJECT, '<div lang="en" class="doc doc-object ')
        written = page.file.src_uri.split("/", 1)[0]
        if written != lang and written in LANGUAGE_NAMES:  # the source page, shown where no translation exists
            output = output.replace(_ARTICLE, f'<article lang="{written}" class="md-content__inner md-typeset">', 1)
            output = output.replace(_BANNER, f'<div lang="{lang}" class="admonition note ruota-banner">')
        return typography.french(output) if lang == "fr" else output

    def on_post_template(self, output, template_name, config):
        """Pages rendered from a template alone (the 404 page) in a French build."""
        if template_name.endswith(".html") and str(config.theme.get("language")) == "fr":
            return typography.french(output)
        return output

def _line_of(source: str, fragment: str) -> int:
    """The line of ``fragment`` in a page's source (1 where it is not found as written)."""
    position = source.find(fragment)
    return source.count("\n", 0, position) + 1 if position >= 0 else 1


def _after_title(html: str, header: str) -> str:
    """``header`` right after the page's first ``<h1>`` (at the top where there is none)."""
    end = html.find("</h1>")
    return html[: end + 5] + header + html[end + 5:] if end >= 0 else header + html


@functools.lru_cache(maxsize=256)
def _blocks_of(root: Path, docs_dir: Path, path: Path, _mtime: int):
    """A page's blocks for the status page, rendered once per version of the file."""
    return renderer.render(root, path, docs_dir=docs_dir, fast=True)
