"""Rebuilding some pages of a site that ``ruota-docs serve`` built in full before.

MkDocs rebuilds a whole site, and mkdocs-static-i18n every language of it, on each change.
Here each language that has pages to rebuild gets one MkDocs build of its own (the i18n
plugin set to that language and told not to build the others, as it does itself between
its builds) in MkDocs' *dirty* mode, where only the pages whose file says it is modified
are rendered and written; `Selection`, a plugin added to the loaded configuration, says
which ones. Everything those pages show of the others comes from the last full build of
this process: the titles in the navigation (and the footer's previous and next links),
the blocks on the status page (:mod:`ruota_docs.blocks.page_cache`). What a language's build
would otherwise write once for the whole site is left as the full build wrote it: the
404 pages and the sitemap (nothing a page edit changes), and the search index of each
language, where only the rebuilt pages' entries are replaced.

A rebuilt page whose title changed shows in every page's navigation: `build_pages`
returns the languages where that happened, for the caller to rebuild all their pages.
"""

from __future__ import annotations

import json
import logging
from contextlib import contextmanager
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.plugins import BasePlugin, event_priority

from ruota_docs.serve import caches
from ruota_docs.site import search
from ruota_docs.site.site_languages import SiteLanguage, build_language, site_languages

#: Each page's title in the navigation, per ``(locale, page path in the language folder)``,
#: as the last build of this process that wrote it found it.
TITLES: dict[tuple[str, str], str | None] = {}

#: Files of the whole site that a build writes after its pages: a partial build leaves them as
#: the last full build wrote them (the API reference's inventory, which only the package's
#: code changes, and that rebuilds everything).
SITE_FILES = ("objects.inv",)
#: What MkDocs says of every dirty build: true, and no warning here (``strict`` would abort).
_DIRTY_WARNING = "A 'dirty' build is being performed"
#: What it says of a template a partial build does not write.
_SKIPPED_TEMPLATE = "Template skipped: "


class TitleUnknown(RuntimeError):
    """A page whose title no build of this process has recorded: build the site in full."""


def _page_path(file) -> str:
    """A page's path in its language folder (``guides/x.md``), fallbacks included."""
    return getattr(file, "norm_src_uri", None) or file.src_uri


class Selection(BasePlugin):
    """Which pages a build renders and writes (``None``: all of them, as a plain build),
    and what each page's title was; added to a loaded configuration, never to mkdocs.yml."""

    def __init__(self, pages: dict[str, set[str]] | None = None) -> None:
        super().__init__()
        self.pages = pages
        self.retitled: set[str] = set()  #: languages where a rebuilt page's title changed

    def _language(self, config) -> SiteLanguage:
        return build_language(config, site_languages(config))

    @event_priority(-200)  # after mkdocs-static-i18n (-100) has made the language's files
    def on_files(self, files, config):
        if self.pages is not None:
            chosen = self.pages.get(self._language(config).locale, set())
            for file in files.documentation_pages():
                selected = _page_path(file) in chosen
                file.is_modified = lambda selected=selected: selected  # MkDocs' dirty mode asks each file
        return files

    @event_priority(-200)  # after mkdocs-static-i18n has translated the navigation
    def on_nav(self, nav, config, files):
        """The pages not rebuilt keep the title and front matter they have in the site."""
        if self.pages is None:
            return nav
        locale = self._language(config).locale
        chosen = self.pages.get(locale, set())
        for page in nav.pages:
            if _page_path(page.file) in chosen:
                continue
            key = (locale, _page_path(page.file))
            if key not in TITLES:
                raise TitleUnknown(f"{locale}/{key[1]}: no build of this process has its title")
            page.read_source(config)  # the front matter, which the navigation reads (icons, status)
            page.title = TITLES[key]  # a MkDocs weak_property: the title as the last build wrote it
        return nav

    def on_pre_build(self, config):
        """The search indexes and the site's own files as they are before a partial build."""
        self._indexes, self._rebuilt, self._kept = {}, set(), {}
        if self.pages is not None:
            lang = self._language(config)
            for folder in {lang.folder, ""}:
                path = Path(config.site_dir) / folder / search.INDEX
                self._indexes[folder] = path.read_bytes() if path.is_file() else None
            for name in SITE_FILES:
                path = Path(config.site_dir) / name
                self._kept[path] = path.read_bytes() if path.is_file() else None

    @event_priority(-200)
    def on_post_page(self, output, page, config):
        lang = self._language(config)
        key = (lang.locale, _page_path(page.file))
        if self.pages is not None:  # only the chosen pages are built: the search index replaces their entries
            self._rebuilt.add(page.url[len(lang.prefix):] if page.url.startswith(lang.prefix) else page.url)
            if key in TITLES and TITLES[key] != page.title:
                self.retitled.add(key[0])
        TITLES[key] = page.title
        return output

    @event_priority(-200)  # after ruota_docs_site has written the language's own 404 page
    def on_post_template(self, output_content, template_name, config):
        return "" if self.pages is not None else output_content

    @event_priority(-200)  # after ruota_docs_site (-150) has written the language's index
    def on_post_build(self, config):
        if self.pages is None:
            return
        lang = self._language(config)
        site = Path(config.site_dir)
        written = site / lang.folder / search.INDEX
        before = self._indexes.get(lang.folder)
        if before is not None and written.is_file():
            fresh = json.loads(written.read_text(encoding="utf-8"))
            merged = search.replace_pages(json.loads(before), fresh, self._rebuilt)
            written.write_text(json.dumps(merged, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        root = self._indexes.get("")
        if lang.folder and root is not None:  # the build left its own pages in the site's root index
            (site / search.INDEX).write_bytes(root)
        for path, content in self._kept.items():
            if content is not None:
                path.write_bytes(content)


class _Quiet(logging.Filter):
    """Drop what MkDocs says of a partial build that is no fault of the pages."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not (message.startswith(_DIRTY_WARNING) or message.startswith(_SKIPPED_TEMPLATE))


@contextmanager
def _quiet_partial_build():
    logger, quiet = logging.getLogger("mkdocs.commands.build"), _Quiet()
    logger.addFilter(quiet)
    try:
        yield
    finally:
        logger.removeFilter(quiet)


def record_titles(config) -> Selection:
    """Add to ``config`` what records every page's title as a full build writes it."""
    selection = Selection()
    config.plugins["ruota_docs_titles"] = selection
    return selection


def build_pages(config, pages: dict[str, set[str]], serve_url: str | None = None) -> set[str]:
    """Rebuild ``pages`` (``{"fr": {"guides/x.md"}}``) into ``config.site_dir``, which holds
    the site as a full build of this process left it; the languages where a rebuilt page's
    title changed. Raises `TitleUnknown` where that build is missing."""
    selection = Selection(pages)
    config.plugins["ruota_docs_titles"] = selection
    caches.keep_theme_listing(config.theme)  # before the first build: Material's search reads the theme in on_config
    caches.compile_once(config.theme)
    i18n = config.plugins.get("i18n")
    with _quiet_partial_build():
        for lang in site_languages(config):
            if not pages.get(lang.locale):
                continue
            if i18n is not None:
                i18n.current_language = lang.locale
                i18n.building = True  # its last hook builds the other languages unless it is building
            build(config, serve_url=serve_url, dirty=True)
    return selection.retitled
