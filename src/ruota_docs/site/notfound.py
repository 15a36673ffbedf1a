"""The 404 page in each language.

MkDocs renders the theme's 404.html once per build, into the root of the site; with
mkdocs-static-i18n each language's build wrote over the previous one's, and the site's
only 404 page was in its last language. Here each language's copy goes to its folder
(``en/404.html``, ``fr/404.html``) and the root keeps the default language's: the one
GitHub Pages (and ``mkdocs serve``, and the preview server) sends for any missing
address. Its script (overrides/404.html) sends a reader whose address is in another
language's folder to that language's copy, keeping the address they asked for.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from mkdocs import utils

from ruota_docs.site.locales import text
from ruota_docs.site.site_languages import SiteLanguage, build_language

TEMPLATE = "404.html"


class NotFoundPages:
    """Across the builds of one site: what the template needs, and where each copy goes."""

    def __init__(self) -> None:
        self.root_page: str | None = None  #: the default language's rendered 404

    def prepare(self, template, config, languages: list[SiteLanguage]):
        lang = build_language(config, languages)
        base = urlsplit(config.site_url or "/").path or "/"
        base = base if base.endswith("/") else base + "/"
        # mkdocs-static-i18n points the language selector at each page's translations by
        # setting config.extra.alternate as an attribute, which templates read before the
        # item it resets for every build: the 404 of a later language named the last page
        # of the previous one. The item holds each language's home.
        if "alternate" in config.extra:
            config.extra.alternate = config.extra["alternate"]
        template.globals["not_found"] = {
            "title": text(lang.locale, "not_found_title"),
            "text": text(lang.locale, "not_found_text"),
            "home": text(lang.locale, "not_found_home"),
            "home_url": base + lang.prefix,
            "base": base,
            "folder": lang.folder,
            "folders": [other.folder for other in languages if other.folder],
        }
        return template

    def place(self, output: str, config, languages: list[SiteLanguage]) -> str:
        """Write a language's copy into its folder; what MkDocs then writes to the root is
        always the default language's."""
        lang = build_language(config, languages)
        if not lang.folder:
            self.root_page = output
            return output
        utils.write_file(output.encode("utf-8"), str(Path(config.site_dir) / lang.folder / TEMPLATE))
        return self.root_page if self.root_page is not None else output
