"""The languages the site is built in, and where each one's pages live.

mkdocs-static-i18n (``docs_structure: folder``) builds the default language at the root of
the site and every other language into a folder named after its locale (``en/``, ``fr/``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ruota_docs.blocks import site_config


@dataclass(frozen=True)
class SiteLanguage:
    locale: str
    folder: str  #: ``""`` for the default language (the root), else the locale

    @property
    def prefix(self) -> str:
        """What the language's addresses start with, relative to the site: ``""`` or ``"en/"``."""
        return f"{self.folder}/" if self.folder else ""


def site_languages(config) -> list[SiteLanguage]:
    """The built languages of an MkDocs config, the default (root) one first; a site without
    the i18n plugin has one language, its theme's (`ruota_docs.blocks.site_config.theme_language`), at the root."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return [SiteLanguage(_theme_language(config) or site_config.FALLBACK_LANGUAGE, "")]
    built = [lang for lang in i18n.config.languages if lang.build]
    built.sort(key=lambda lang: not lang.default)
    return [SiteLanguage(lang.locale, "" if lang.default else lang.locale) for lang in built]


def build_language(config, languages: list[SiteLanguage]) -> SiteLanguage:
    """The language the current build renders: mkdocs-static-i18n sets the theme's language
    to it before each language's build."""
    current = _theme_language(config) or ""
    for lang in languages:
        if lang.locale == current:
            return lang
    return languages[0]


def _theme_language(config) -> str | None:
    """Material's ``language``, the mkdocs theme's ``locale`` (`ruota_docs.blocks.site_config.theme_language`)."""
    return site_config.theme_language({"theme": config.theme})
