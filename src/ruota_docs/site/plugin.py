"""The MkDocs plugin: shows the verification record on every page.

For each code block it adds the requirement badges (above) and the verification
mark with the output printed on each machine (below); at the top of each page a
one-line summary; ``<!-- chart: … -->``, ``<!-- verification-status -->`` and
``<!-- card-matrix -->`` directives become tables and SVG charts; ``<!-- fact: … -->`` the day a
claim was checked; translations whose Spanish source changed
get a banner. A page the engine cannot read fails the build with its file and line.
The site's frame speaks the reader's language too: permalink titles, the templates'
strings, and French typography on every French page.

The markup of what it adds is in Jinja templates (``site/templates/ruota/*.html``); a site
overrides one by putting a file of the same name under its theme's ``custom_dir``
(``overrides/ruota/badges.html``). The card matrix's guides and cards are its options
``key_blocks`` and ``target_cards``.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from html import escape as _escape
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from ruota_docs.blocks import compat, directives, markers, page_cache, plugin_config, renderer, site_config
from ruota_docs.blocks.plugin_config import PluginConfig
from ruota_docs.records import attestations, ledger, listing, verdicts
from ruota_docs.records.schema import Record, RecordError
from ruota_docs.blocks import fact_directive, value_directive
from ruota_docs.site import (evidence, facts, fragment_templates, fragments, gc_pause, groups, matrix, published,
                             trust, typography, values)
from ruota_docs.blocks.capture import BlockCapture, Context
from ruota_docs.site.locales import LANGUAGE_NAMES, STRINGS, text, theme_text
from ruota_docs.blocks.pages import PageError, read_page, split_meta

log = get_plugin_logger(__name__)

#: mkdocstrings renders the package's docstrings: English on every page, and said so.
_API_OBJECT = '<div class="doc doc-object '
#: Inside those English docstrings, what the site itself writes is in the reader's language:
#: a block's panel, and mkdocstrings' "Bases:" and "Examples:" (which it does not translate).
_PANEL = '<div class="ruota-verify '
_BASES = re.compile(r'<p class="doc doc-class-bases">\s*Bases:')
_EXAMPLES = '<p><span class="doc-section-title">Examples:</span></p>'
#: mkdocstrings' label of a member (``dataclass``, ``property``), said in the reader's language where the
#: site has a word for it (``api_label.property``), like the headings around it
_LABEL = re.compile(r'<small class="doc doc-label doc-label-([\w-]+)"><code>([^<]*)</code>')
#: A fragment whose outer element Material's search leaves out of its index.
_SEARCH_EXCLUDED = re.compile(r"\s*<div\b[^>]*\sdata-search-exclude[\s>]")
#: Material's page body, and the banner over a page shown in its source language.
_ARTICLE = '<article class="md-content__inner md-typeset">'
_BANNER = '<div class="admonition note ruota-banner">'


#: The stylesheet the plugin ships (badges, marks, the output tabs on any theme), and where the site gets it.
STYLESHEET = "assets/stylesheets/ruota.css"
_ASSETS = Path(__file__).resolve().parent / "assets"


class RuotaDocsPlugin(BasePlugin[PluginConfig]):
    """The site's side of the ``ruota_docs`` plugin; its options are `ruota_docs.blocks.plugin_config.PluginConfig`,
    which the engine reads mkdocs.yml with too."""

    def load_config(self, options, config_file_path=None):
        """The options validated by the one declaration of them, errors saying what the option is for
        and where it is written (as the engine says it: `ruota_docs.blocks.site_config.read`)."""
        self.config, errors, warnings = plugin_config.validate(options, config_file_path)
        if config_file_path:
            errors = [(name, f"{message} at {site_config.where(Path(config_file_path), name)}")
                      for name, message in errors]
        return errors, warnings

    @event_priority(-10)  # after mkdocstrings (0), which takes config.markdown_extensions for its docstrings
    def on_config(self, config):
        try:  # before anything else: a stack the capture cannot work with, named as such
            compat.check()
        except compat.UnsupportedDependency as error:
            raise PluginError(f"ruota_docs: {error}") from None
        self.nav_order = nav_order(config.get("nav"))
        self.root = Path(config.config_file_path).resolve().parent
        self.docs_dir = Path(config.docs_dir).resolve()
        # the options as the pytest plugin, the guard and the command line read them
        self.site = site_config.read(Path(config.config_file_path))
        self.reported: list[str] = []  #: with report_only: what would have stopped the build
        self._read_records(config)
        try:
            self.key_blocks = evidence.key_blocks(self.config.key_blocks)
        except evidence.EvidenceError as error:
            raise PluginError(f"ruota_docs: {error}") from None
        self.target_cards = evidence.target_cards(self.config.target_cards)
        try:
            groups.use_guide_targets(evidence.guide_targets(self.config.guide_cards, self.target_cards))
        except evidence.EvidenceError as error:
            raise PluginError(f"ruota_docs: {error}") from None
        self.languages = site_config.languages(self.root)
        self._built: dict[str, list] = {}  #: each page's blocks as this build rendered them, for the record check
        self._marked: list = []  #: the pages this build marked, in order
        self._generated = []  # (page, placeholder, directive, lang, rendered): filled in on_env
        self._after_search: dict[int, list[tuple[str, str]]] = {}  # id(page) → (placeholder, fragment): `_later`
        fragment_templates.use_theme(config.theme)  # overrides/ruota/*.html before the package's
        # The blocks are captured while MkDocs renders each page (static-i18n runs the
        # build once per language, with this config: one extension for all). mkdocstrings
        # renders each docstring with the list it holds of the site's extensions: blocks it
        # generates are not the page's, so that list does without the capture (in place),
        # and the pages get a list of their own with it.
        if self.config.enabled and STYLESHEET not in [str(css) for css in config.extra_css]:
            config.extra_css.append(STYLESHEET)  # shipped with the plugin: see on_files
        self._use_capture(config)
        return config

    # -- helpers -------------------------------------------------------------
    def _read_records(self, config) -> None:
        """The site's records: read, checked (``check_records``), held to the publishing rules;
        with report_only, those refused are left out of the build."""
        self._pending = None
        try:
            files, self.ledgers, self.indexed = _records(self.site.record_dir)
            if self.config.check_records:
                stamp = _stamp(self.site.record_dir)
                if self.config.report_only or stamp not in _CHECKED:  # checked once every page is rendered
                    self._pending = (stamp, [path for path, _ in files])
            # who sent each record, and which ci records' attestations the deploy job verified
            self._verified = attestations.read(self.config.verified_records
                                               and self.root / self.config.verified_records)
            trust.use(self.root, files, self._verified)
            self.published = published.Published(files, config.repo_url, self.config.allow_private,
                                                 keep_going=self.config.report_only)
        except (RecordError, published.RecordRefused, attestations.ListError) as error:
            raise PluginError(f"ruota_docs: {error}") from None
        if self.published.refused:  # report_only: the site is built without them
            for message in self.published.refused:
                self._stop(f"ruota_docs: {message} (left out of this build)")
            self.ledgers = [data for _, data in self.published.kept]
            self.indexed = verdicts.index_ledgers(self.ledgers)

    def _use_capture(self, config) -> None:
        """The pages' Markdown gets the block capture, last; the list mkdocstrings holds keeps none."""
        captures = [e for e in config.markdown_extensions if isinstance(e, BlockCapture)]
        self.capture = captures[0] if captures else BlockCapture()
        if self.config.enabled:
            for capture in captures:
                config.markdown_extensions.remove(capture)
            config.markdown_extensions = [*config.markdown_extensions, self.capture]

    def _theme_lang(self, config) -> str:
        """The language being built: Material's ``language``, the mkdocs theme's ``locale``."""
        return site_config.theme_language(config) or self.languages.default

    def _reader_lang(self, page, config) -> str:
        return getattr(page.file, "locale_alternate_of", None) or self._theme_lang(config)

    def _own_page(self, page_key: str, lang: str) -> bool:
        """Whether the page is in the language being built (not a source page shown in its place). On a
        site in one language every page of its docs is: a hook may set the theme's language page by page
        (FastAPI's), and the record check then rendered every such page a second time."""
        return self.languages.single or self.languages.page_language(page_key) == lang

    def _language_pages(self, lang: str, files, page) -> list:
        """``(title, url, [(block, verdict)…])`` for every page of one language."""
        result = []
        folder = self.docs_dir / lang if self.languages.folders else self.docs_dir
        # in the menu's order, as readers meet the pages; pages the menu leaves out come last
        order = getattr(self, "nav_order", {})
        paths = sorted(folder.rglob("*.md"), key=lambda p: (order.get(p.relative_to(folder).as_posix(), len(order)), p))
        for path in paths:
            key = path.relative_to(self.docs_dir).as_posix()
            blocks = [b for b in self._blocks(path, key) if not b.shown_only]
            if not blocks:
                continue
            source = read_page(path)
            title = next((ln[2:].split("{")[0].strip() for ln in source.splitlines() if ln.startswith("# ")), key)
            if path.parent == folder and path.name == "index.md":  # the home page: named as the menu names it
                title = text(lang, "home")
            file = files.get_file_from_path(key) if files else None
            url = get_relative_url(file.url, page.url) if file is not None else key
            found = [(b, verdicts.verdict(b.page, b.index, b.sha256, self.indexed)) for b in blocks]
            result.append((title, url, found))
        return result

    def _blocks(self, path: Path, key: str) -> list:
        """Every block of the page file ``path``: from its rendering in this build (or an
        earlier one of this process, where nothing it was rendered from changed), else
        rendered now; a page the engine cannot read stops the build with its file and line."""
        found = page_cache.blocks(path)
        if found is not None:
            return found
        rendered = renderer.render(self.root, path, docs_dir=self.docs_dir, fast=True)
        if rendered.problems:
            problem = rendered.problems[0]
            raise PluginError(f"{key}:{problem.line}: {problem.message}")
        included = {self.root / str(source).split(":", 1)[0] for b in rendered.blocks for source in b.includes}
        page_cache.remember(path, rendered.blocks, included | self._hook_files())
        return rendered.blocks

    def _file_blocks(self, page) -> list | None:
        """The blocks of the page's file as pytest collects them (rendered without the site's hooks
        and plugins); None where the engine cannot read it (the build then goes on as rendered)."""
        rendered = renderer.render(self.root, Path(page.file.abs_src_path), docs_dir=self.docs_dir, fast=True)
        return None if rendered.problems else rendered.blocks

    def _hook_files(self) -> set:
        """With ``collect_hooks``, the site's hooks: what a page's blocks depend on besides its files."""
        if not self.config.collect_hooks:
            return set()
        return {self.root / str(name) for name in site_config.load_mkdocs_config(self.root).get("hooks") or ()}

    def _made_reason(self, config) -> str:
        """The locale key of why a block the site's rewriting made is not run: a plugin made it (the hooks'
        blocks are collected), or its hooks or plugins did (and ``collect_hooks`` would collect the hooks')."""
        if self.config.collect_hooks:
            return "engine.made_by_plugin"
        return "engine.made_by_hooks" if config.hooks else "engine.made_by_site"

    def _guide_blocks(self, path: Path) -> list:
        """A guide's blocks for the card matrix (evidence.load_guides), as `page_blocks` gives them."""
        key = Path(path).resolve().relative_to(self.docs_dir).as_posix()
        return [b for b in self._blocks(Path(path), key) if not b.shown_only]

    def _check_records(self, config, files) -> None:
        """The build refuses whatever ``record check`` refuses (`ruota_docs.site.published.checked`),
        checked once per set of records a process reads. It runs once every page is rendered and
        before any is written (on_env), on each page's blocks as this build rendered them: a page
        is not rendered a second time to learn them. With ``report_only``, it leaves the records it
        refuses out, lists them with the other problems, and renders the pages again without them,
        so that none of them shows."""
        if self._pending is None:
            return
        (stamp, paths), self._pending = self._pending, None
        try:
            refused = published.checked(paths, self.root, self.docs_dir, self.site.record_dir,
                                        keep_going=self.config.report_only, built=self._built)
        except published.RecordRefused as error:
            raise PluginError(f"ruota_docs: {error}") from None
        _CHECKED.add(stamp)
        for file, errors in refused.items():
            self._stop(f"ruota_docs: {listing.shown(file)}: refused by `ruota-docs record check` "
                       "(left out of this build): "
                       + "; ".join(errors[:3]) + (f"; … and {len(errors) - 3} more" if len(errors) > 3 else ""))
        if refused:
            self._leave_out(set(refused), config, files)

    def _leave_out(self, refused: set[str], config, files) -> None:
        """``report_only``: the records ``refused`` by the check left out, and each page this build
        marked rendered again without them (as MkDocs renders a page, every plugin's events included)."""
        from mkdocs.commands.build import _populate_page  # noqa: PLC0415 — only where a record is refused

        kept = [(path, data) for path, data in self.published.kept if str(path) not in refused]
        self.published.kept = kept
        self.ledgers = [data for _, data in kept]
        self.indexed = verdicts.index_ledgers(self.ledgers)
        trust.use(self.root, kept, self._verified)
        pages, self._marked, self._generated = self._marked, [], []
        self._again = True  # their problems are listed already
        try:
            for page in pages:
                self._after_search.pop(id(page), None)
                _populate_page(page, config, files)
        finally:
            self._again = False

    def _stop(self, message: str, *more, page: str = "") -> None:
        """Stop the build on ``message``; with ``report_only``, note it (and ``more`` page
        problems) and go on: the summary after the build lists them all."""
        if not self.config.report_only:
            raise PluginError(message)
        if getattr(self, "_again", False):  # a page rendered again without a refused record (`_leave_out`)
            return
        for line in [message, *(f"{page}:{p.line}: {p.message}" for p in more)]:
            self.reported.append(line)
            log.info(f"report_only: {line}")

    def on_post_build(self, config):
        if self.reported:
            log.info(f"report_only: {len(self.reported)} block(s) or page problem(s) to settle before the build "
                     "may enforce them (each listed above); the site was built anyway")
        self.reported = []

    # -- events ----------------------------------------------------------------
    def on_files(self, files, config):
        """The plugin's stylesheet joins the site's files (a file of the same name in docs/
        or the theme's custom_dir wins); a page that is not UTF-8 stops the build with its
        file and line (MkDocs itself would stop with a traceback)."""
        if self.config.enabled and files.get_file_from_path(STYLESHEET) is None:
            files.append(File.generated(config, STYLESHEET, abs_src_path=str(_ASSETS / "ruota.css")))
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

    @event_priority(-100)  # after the site's hooks and plugins: what it sees is what MkDocs renders
    def on_page_markdown(self, markdown, page, config, files):
        if not self.config.enabled:
            return markdown
        # the Markdown instance MkDocs makes next renders this page: lines are counted in its
        # file, from where MkDocs' front matter ends (plugins before this one may rewrite the
        # Markdown without moving its lines: mkdocs-static-i18n drops its final newline)
        first_line = 1
        self._rewritten = False
        if page.file.abs_src_path:
            try:
                written, first_line = split_meta(read_page(page.file.abs_src_path))
                # a hook or plugin rewrote the page: its blocks are told from the file's own (on_page_content)
                self._rewritten = written.rstrip("\n") != markdown.rstrip("\n")
            except (OSError, PageError):
                pass
        self.capture.context(Context(str(Path(page.file.abs_src_path or page.file.src_uri).resolve()), first_line))
        return markdown

    def on_page_content(self, html, page, config, files):
        state = self.capture.page_state if self.config.enabled else None
        if state is None:
            return html
        outside = _outside(page.file.abs_src_path, self.docs_dir)
        # a page a hook brings in from another folder (FastAPI's: the English page where a translation
        # is missing) is no page of this site's docs: keyed by where it is, so no page's record is its
        page_key = outside or page.file.src_uri
        lang = self._reader_lang(page, config)
        # the Markdown as the page holds it (the lines its value: directives are found on)
        source = page.file.content_string if page.file.abs_src_path else ""
        rendered = renderer.assemble(state, html, page_key, lang, self.root, source)
        self.capture.page_state = None
        own = None  # the file's own blocks, where a hook or plugin rewrote the page
        rewritten = getattr(self, "_rewritten", False)
        if rewritten:
            self._rewritten = False
            own = self._file_blocks(page)
            _align_with_file(rendered, own, lang, self._made_reason(config))
        if outside:
            _not_collected(rendered.blocks, text(lang, "engine.outside_docs", path=outside))
        if rendered.problems:
            problem = rendered.problems[0]
            self._stop(f"{page_key}:{problem.line}: {problem.message}", *rendered.problems[1:], page=page_key)
        before, after, page_verdicts = self._block_marks(rendered, page_key, source, lang)
        filled = self._page_directives(page, rendered, lang, files)
        banner = "" if self.languages.single else fragments.translation_banner(
            self.docs_dir, page_key, lang, self.site.source_language)
        if page.file.abs_src_path and not outside and self._own_page(page_key, lang):  # a page of these docs
            page_cache.remember(page.file.abs_src_path, own or rendered.blocks,
                                {o[0] for o in state.origins if o} | self._hook_files(),
                                lists_pages=any(directives.KINDS[d.name].lists_pages for d in rendered.directives),
                                banner=banner)
            # for the record check, the blocks `record check` would render: those pytest collects of a page a hook
            # or plugin rewrote, else this rendering's; none where the engine cannot read it (the check says so)
            checked = own if rewritten else None if rendered.problems else rendered.blocks
            if checked is not None:  # keyed by its file (i18n may show it under another language's address)
                self._built[Path(page.file.abs_src_path).resolve().relative_to(self.docs_dir).as_posix()] = checked
        self._marked.append(page)
        html = _mark_generated(html, rendered, page_verdicts, lang)
        html = markers.fill(html, rendered.nonce, before, after, filled)
        html = self._values(html, rendered, page, lang)
        html = self._facts(html, rendered, lang)
        shown = sum(1 for block in rendered.blocks if block.shown_only and not block.error)
        header = fragments.page_summary(page_verdicts, lang, shown) + banner
        return _after_title(html, header) if header else html

    def _block_marks(self, rendered, page_key: str, source: str, lang: str) -> tuple[dict, dict, list]:
        """``(badges, panels, verdicts)`` of a page's blocks: the marks before and the panel after each
        block, by its number, and each block's verdict (a block in error stops the build)."""
        before, after, page_verdicts = {}, {}, []
        for block in rendered.blocks:
            if block.error:
                self._stop(block.error)
                continue
            if block.shown_only:
                continue
            verdict = verdicts.verdict(page_key, block.index, block.sha256, self.indexed)
            try:
                self.published.verdict(verdict, page_key, block.index, (source, block.code))
            except published.RecordRefused as error:
                self._stop(f"ruota_docs: {error}")  # report_only: the block is shown unmarked by any record
                verdict = verdicts.verdict(page_key, block.index, block.sha256, _NO_RECORDS)
            page_verdicts.append((block, verdict))
            if block.generated_by is not None:  # no markers: marked where it stands, below
                continue
            before[block.number] = fragments.badges(block, lang)
            after[block.number] = fragments.block_panel(block, verdict, lang, str(block.index))
        return before, after, page_verdicts

    def _page_directives(self, page, rendered, lang: str, files) -> dict[int, str]:
        """Each page directive's HTML by its place; those listing pages wait for every page (on_env)."""
        filled = {}
        for n, directive in enumerate(rendered.directives):
            if directives.KINDS[directive.name].lists_pages:  # filled once every page is rendered (on_env)
                filled[n] = f'<div data-ruota-generated="{rendered.nonce}:{n}"></div>'
                self._generated.append((page, filled[n], directive, lang, rendered))
            else:
                expanded = PAGE_DIRECTIVE_EXPANDERS[directive.name](self, page, directive, lang, files, rendered)
                filled[n] = self._later(page, expanded)
        return filled

    # -- page directives: each name of PAGE_DIRECTIVE_EXPANDERS (below), expanded for one page ----------------
    def _chart(self, page, directive, lang: str, files, rendered) -> str:
        options = directive.options()
        try:
            return fragments.chart(options, self._chart_entries(rendered, options, lang), lang)
        except ValueError as error:
            raise PluginError(f"{page.file.src_uri}:{directive.line}: chart: {error}") from None

    def _status(self, page, directive, lang: str, files, rendered) -> str:
        return fragments.status_page(self._language_pages(lang, files, page), self.ledgers, lang)

    def _card_matrix(self, page, directive, lang: str, files, rendered) -> str:
        try:
            guides = evidence.load_guides(self.root, self.docs_dir, lang, self.key_blocks, blocks_of=self._guide_blocks)
        except evidence.EvidenceError as error:
            raise PluginError(f"{page.file.src_uri}:{directive.line}: card-matrix: {error}") from None
        found = lambda k: files.get_file_from_path(k) if files else None  # noqa: E731
        to = lambda k: get_relative_url(found(k).url, page.url) if found(k) else k  # noqa: E731
        return matrix.card_matrix(guides, self.ledgers, lang, to, self.target_cards, self.indexed)

    def _values(self, html: str, rendered, page, lang: str) -> str:
        """``<!-- value: … -->`` in the prose: the number each machine's record holds."""
        if "value:" not in html:
            return html
        by_id = {b.block_id: b for b in rendered.blocks if b.block_id}
        source = page.file.content_string if page.file.abs_src_path else ""

        def fill(match):
            line = _line_of(source, match.group(0))
            try:
                value = value_directive.parse(match["args"])
            except value_directive.ValueDirectiveError as error:
                raise PluginError(f"{rendered.page}:{line}: {error}") from None
            block = by_id.get(value.block)
            if block is None:  # in a page without a source file, which assemble could not check
                unknown = renderer.unknown_block("value", value.block, rendered.blocks)
                raise PluginError(f"{rendered.page}:{line}: {unknown}")
            verdict = verdicts.verdict(block.page, block.index, block.sha256, self.indexed)
            # the GPU's value first where the block needs one, or where the author asks for it
            needs_gpu = value.machine == "gpu" or (value.machine != "cpu" and
                                                   any(r.name in values.GPU_TERMS for r in block.requirements))
            return values.render_all(value, verdict, lang, block.page, needs_gpu)

        return values.attributed_once(value_directive.DIRECTIVE.sub(fill, html))

    def _facts(self, html: str, rendered, lang: str) -> str:
        """``<!-- fact: … -->`` after a claim: the day it was checked, marked once it has aged."""
        if "fact:" not in html:
            return html
        today = dt.date.today()

        def parse(args: str):
            try:
                return fact_directive.parse(args)
            except fact_directive.FactDirectiveError as error:  # assemble reports those of a page's file
                raise PluginError(f"{rendered.page}: {error}") from None

        return facts.render_page(html, parse, lang, today, self.config.fact_max_age)

    def _chart_entries(self, rendered, options: dict, lang: str):
        """Each target's bar for the chart's block, labelled as the marks label it (the machine where it is
        the only one, else the target), for its current code only: what a machine recorded for code that
        has changed since is not shown."""
        # renderer.assemble has checked that the chart names a block of the page
        block = next(b for b in rendered.blocks if b.block_id == options.get("block"))
        verdict = verdicts.verdict(block.page, block.index, block.sha256, self.indexed)
        # one bar per backend and target: its latest run (a thousand machines are not a thousand bars)
        latest = [(g, g.latest("passed", "failed")) for g in groups.groups_of(verdict, block.page)]
        return [(g.label(lang), [r.entry]) for g, r in latest if r is not None]

    # -- the site's frame in the reader's language ----------------------------------------
    def on_pre_build(self, config):
        """Headings' permalink title in the language being built (the i18n plugin builds
        each language in turn, each with its own ``theme.language``)."""
        toc = config.mdx_configs.get("toc")
        if toc is not None and toc.get("permalink"):
            toc["permalink_title"] = text(self._theme_lang(config), "permalink")

    def on_env(self, env, config, files):
        """Every page is rendered now (MkDocs renders them all before it writes any): the
        status page and the card matrix, from their blocks. Also ``ruota_text(lang, key)``
        and ``ruota_theme_text`` for templates (overrides/): strings from the locale files
        (site/locales/*.yml)."""
        self._check_records(config, files)  # before the pages listing others are filled, and any page is written
        for page, placeholder, directive, lang, rendered in self._generated:
            expanded = PAGE_DIRECTIVE_EXPANDERS[directive.name](self, page, directive, lang, files, rendered)
            page.content = page.content.replace(placeholder, self._later(page, expanded), 1)
        self._generated = []
        env.globals["ruota_text"] = text
        env.globals["ruota_theme_text"] = theme_text  # overrides/partials/language.html
        return env

    # -- what Material's search reads ------------------------------------------------------
    def _later(self, page, fragment: str) -> str:
        """``fragment`` itself, or, where search does not index it (``data-search-exclude`` on its
        outer element: a chart, the status page, the card matrix), a placeholder it takes the place
        of until the search plugin has read the page (`_after_search`): Material's search parses the
        whole content, excluded elements too, and with a thousand records these fragments are most
        of the site's HTML."""
        if not _SEARCH_EXCLUDED.match(fragment):
            return fragment
        placeholder = f'<div data-ruota-after-search="{id(fragment)}"></div>'
        self._after_search.setdefault(id(page), []).append((placeholder, fragment))
        return placeholder

    def _put_back(self, page, html: str) -> str:
        for placeholder, fragment in self._after_search.pop(id(page), ()):
            html = html.replace(placeholder, fragment, 1)
        return html

    @event_priority(50)  # before the search plugin (0), which indexes page.content in this event
    def _before_search(self, context, page, config, nav):
        """The content in the typography of its language, so that the search index, built
        from it, reads as the page does (on_post_page sets the rest of the page)."""
        lang = self._reader_lang(page, config)
        if lang != "en" and page.content:
            page.content = _api_in_english(page.content, lang)
        written = self.languages.page_language(page.file.src_uri)
        if lang == "fr" and page.content and (written == lang or written not in LANGUAGE_NAMES):
            page.content = typography.french(page.content)
        if page.content:  # English text (the page, or the API's docstrings elsewhere) in English typography
            page.content = typography.english(page.content, default=lang == "en")
        return context

    @event_priority(-100)  # after the search plugin and every other that reads the content
    def _after_search(self, context, page, config, nav):
        """The fragments search does not index, back in the content (`_later`)."""
        if page.content:
            page.content = self._put_back(page, page.content)
        return context

    on_page_context = CombinedEvent(_before_search, _after_search)

    def on_post_page(self, output, page, config):
        """Text in another language than the page's says so (``lang``), so that browsers,
        screen readers and French typography treat it as what it is."""
        output = self._put_back(page, output)  # a page rendered without its context event
        lang = self._reader_lang(page, config)
        if lang != "en":  # a page without context (no search, another plugin's) still gets it
            output = _api_in_english(output, lang)
        written = self.languages.page_language(page.file.src_uri)
        if written != lang and written in LANGUAGE_NAMES:  # the source page, shown where no translation exists
            output = output.replace(_ARTICLE, f'<article lang="{written}" class="md-content__inner md-typeset">', 1)
            output = output.replace(_BANNER, f'<div lang="{lang}" class="admonition note ruota-banner">')
        output = typography.english(output, default=lang == "en")  # <html lang> decides, where it is set
        return typography.french(output) if lang == "fr" else output

    def on_post_template(self, output, template_name, config):
        """Pages rendered from a template alone (the 404 page) in a French build."""
        if template_name.endswith(".html") and self._theme_lang(config) == "fr":
            return typography.french(output)
        return output


#: How the site expands each page directive of `ruota_docs.blocks.directives.KINDS`.
PAGE_DIRECTIVE_EXPANDERS = {
    "chart": RuotaDocsPlugin._chart,
    "verification-status": RuotaDocsPlugin._status,
    "card-matrix": RuotaDocsPlugin._card_matrix,
}


#: The records read by this process, and the files they were read from: the i18n plugin
#: builds each language with its own configuration, the records are read once.
_READ: dict[Path, tuple[tuple, list, list, verdicts.Index]] = {}


#: What a block shows whose record the build refused (``report_only``): no run.
_NO_RECORDS = verdicts.index_ledgers([])


def _records(folder: Path) -> tuple[list[tuple[Path, Record]], list[Record], verdicts.Index]:
    """The records of ``folder`` (with their files), and their index, read again only where a file
    changed (each language's build gets fresh verdicts: the cache of verdicts is the index's)."""
    stamp = _stamp(folder)
    known = _READ.get(folder)
    if known is None or known[0] != stamp:
        with gc_pause.paused():
            files = ledger.load_files(folder)  # indexed as stored: see verdicts.Index
            ledgers = [data for _, data in files]
            known = _READ[folder] = (stamp, files, ledgers, verdicts.index_ledgers(ledgers))
    return known[1], known[2], known[3]


def _stamp(folder: Path) -> tuple:
    """What the records of ``folder`` are now, cheaply (one lstat each): the same list every tool reads."""
    try:
        paths = listing.records(folder)
    except listing.RecordsRefused as refused:
        raise ledger.LedgerError(str(refused)) from None
    return tuple((p.name, p.lstat().st_mtime_ns, p.lstat().st_size) for p in paths)


#: The sets of records (by `_stamp`) this process found `record check` accepts.
_CHECKED: set[tuple] = set()


def nav_order(nav) -> dict[str, int]:
    """Each page the ``nav`` names (a path relative to its language folder) and its place in the menu."""
    found: dict[str, int] = {}

    def walk(item) -> None:
        if isinstance(item, str):
            found.setdefault(item, len(found))
        elif isinstance(item, dict):
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(nav or [])
    return found


def _align_with_file(rendered, own: list | None, lang: str, reason: str = "engine.made_by_site") -> None:
    """A page a hook or plugin rewrote: each block pytest collects of it (the file's own, and with
    ``collect_hooks`` those the site's hooks write) gets its index, line and source as pytest collects
    them (so its record is found, and messages point into the file); a block the rewriting made
    otherwise is marked not run, with why (``reason``, a locale key), and never stops the build
    (pytest can never collect it, so no mark of a run could ever come true)."""
    if own is None:
        return
    twins: dict[str, list] = {}
    for block in own:
        twins.setdefault(block.sha256, []).append(block)
    moved, extra = {}, len(own)
    for block in rendered.blocks:
        found = twins.get(block.sha256)
        if found:
            written = found.pop(0)
            moved[block.index] = written.index
            block.index, block.line, block.end_line, block.source = (written.index, written.line, written.end_line,
                                                                     written.source)
            block.made_by = written.made_by
            block.error = written.error
            continue
        moved[block.index] = extra
        block.index, extra = extra, extra + 1
        _not_collected([block], text(lang, reason))
    rendered.placed = [(start, end, moved.get(index, index)) for start, end, index in rendered.placed]


def _outside(path: str | None, docs_dir: Path) -> str:
    """Where a page's file is, relative to the docs directory, if it is outside it ("" if inside)."""
    if not path:
        return ""
    found = Path(path).resolve()
    return "" if found.is_relative_to(docs_dir) else Path(os.path.relpath(found, docs_dir)).as_posix()


def _not_collected(blocks, reason: str) -> None:
    """Blocks pytest does not collect are marked not run, with why (no run could ever mark them)."""
    for block in blocks:
        block.error = None
        if block.generated_by is None and not block.shown_only:
            # the engine's reason, not an author's: the mark words it as such
            block.options = {**block.options, "skip": True, "reason": reason, "engine_reason": True}


def _mark_generated(html: str, rendered, page_verdicts: list, lang: str) -> str:
    """The panel under each block the page's own fences did not write (mkdocstrings'
    docstrings): not run, and why, as under the page's own blocks that do not run."""
    if not rendered.placed:
        return html
    found = {block.index: (block, verdict) for block, verdict in page_verdicts}
    placed = sorted(rendered.placed)
    panels = [fragments.block_panel(found[index][0], found[index][1], lang, str(found[index][0].index))
              for _start, _end, index in reversed(placed)][::-1]
    ends = [end for _start, end, _index in placed]
    if ends != sorted(ends):  # blocks inside one another (never from `generated.add_blocks`): one at a time
        for (_start, end, _index), panel in reversed(list(zip(placed, panels, strict=True))):
            html = html[:end] + panel + html[end:]
        return html
    # one pass: a page of mkdocstrings' API reference holds hundreds of such blocks, and copying
    # its whole HTML once for each panel cost more than the panels
    parts, last = [], 0
    for end, panel in zip(ends, panels, strict=True):
        parts += [html[last:end], panel]
        last = end
    return "".join(parts) + html[last:]


def _line_of(source: str, fragment: str) -> int:
    """The line of ``fragment`` in a page's source (1 where it is not found as written)."""
    position = source.find(fragment)
    return source.count("\n", 0, position) + 1 if position >= 0 else 1


def _after_title(html: str, header: str) -> str:
    """``header`` right after the page's first ``<h1>`` (at the top where there is none)."""
    end = html.find("</h1>")
    return html[: end + 5] + header + html[end + 5:] if end >= 0 else header + html


def _api_in_english(content: str, lang: str) -> str:
    """The API reference's docstrings marked as English (``lang="en"``), and, inside them, the
    site's own words in the reader's language ``lang``: the panels, "Bases:" and "Examples:"."""
    if _API_OBJECT not in content:
        return content
    content = content.replace(_API_OBJECT, '<div lang="en" class="doc doc-object ')
    content = content.replace(_PANEL, f'<div lang="{lang}" class="ruota-verify ')
    bases = _escape(text(lang, "api_bases"))
    examples = f'<p lang="{lang}"><span class="doc-section-title">{_escape(text(lang, "api_examples"))}</span></p>'
    content = content.replace(_EXAMPLES, examples)
    content = _LABEL.sub(lambda found: _api_label(found, lang), content)
    return _BASES.sub(lambda _: f'<p lang="{lang}" class="doc doc-class-bases">{bases}', content)


def _api_label(found: re.Match[str], lang: str) -> str:
    """A member's label in ``lang`` where the site words it (its name as mkdocstrings wrote it otherwise)."""
    name = found.group(1)
    key = f"api_label.{name}"
    if key not in STRINGS[lang]:
        return found.group(0)
    return f'<small class="doc doc-label doc-label-{name}" lang="{lang}"><code>{_escape(text(lang, key))}</code>'
