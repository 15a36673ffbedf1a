"""Which languages a site is written in, and which language each page is.

Two layouts, both first-class:

- **one folder per language** — mkdocs-static-i18n with ``docs_structure: folder``: a page's
  language is its first folder (``docs/fr/guide.md`` is French), a page outside every
  language folder belongs to the default language;
- **one suffix per language** — mkdocs-static-i18n's default ``docs_structure: suffix``:
  ``guide.fr.md`` is French, ``guide.md`` the default language;
- **one language** — no i18n plugin: every page is in the site's language, whatever its
  folders (``docs/advanced/x.md`` is English on an English site). That language is the
  ``ruota_docs`` plugin's ``source_language`` where set, else the theme's: Material's
  ``language``, the mkdocs theme's ``locale``; else English.

A folder without a mkdocs.yml keeps the older rule: a page's first folder is its language.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ruota_docs.blocks import site_config

#: The language of a single-language site that names none.
FALLBACK = "en"


@dataclass(frozen=True)
class SiteLanguages:
    """The languages of a site and how its pages are laid out."""

    locales: tuple[str, ...]  #: every language, the default first
    default: str  #: the source language
    folders: bool  #: pages live in one folder per language (the i18n plugin's folder layout)
    suffixes: bool = False  #: pages are named ``page.<locale>.md`` (the i18n plugin's suffix layout)
    known: bool = True  #: False where no mkdocs.yml says (a page's first folder is then its language)

    @property
    def single(self) -> bool:
        """A site in one language: no translations, no banner, nothing to compare."""
        return self.known and len(self.locales) == 1 and not (self.folders or self.suffixes)

    def page_language(self, page: str) -> str:
        """The language of a page given by its path under the docs folder (``fr/guide.md``)."""
        first = page.split("/", 1)[0] if "/" in page else ""
        if not self.known:
            return first
        if self.folders and first in self.locales:
            return first
        if self.suffixes:
            parts = page.rsplit("/", 1)[-1].split(".")
            if len(parts) > 2 and parts[-2] in self.locales:
                return parts[-2]
        return self.default


def theme_language(config: dict) -> str | None:
    """The language a theme is set to: Material's ``language``, the mkdocs theme's ``locale``."""
    theme = config.get("theme")
    if not isinstance(theme, dict):
        return None
    value = theme.get("language") or theme.get("locale")
    return str(value) if value else None


def from_config(config: dict) -> SiteLanguages:
    """The languages a parsed mkdocs.yml describes."""
    options = site_config.plugin_options(config, "ruota_docs") or {}
    i18n = site_config.plugin_options(config, "i18n")
    if i18n is None:
        default = str(options.get("source_language") or theme_language(config) or FALLBACK)
        return SiteLanguages((default,), default, folders=False)
    locales, default = [], None
    for lang in i18n.get("languages") or []:
        if isinstance(lang, dict) and lang.get("locale"):
            locales.append(str(lang["locale"]))
            default = default or (str(lang["locale"]) if lang.get("default") else None)
    default = str(options.get("source_language") or default or (locales[0] if locales else FALLBACK))
    ordered = (default, *[lang for lang in locales if lang != default])
    structure = str(i18n.get("docs_structure") or "suffix")
    return SiteLanguages(ordered, default, folders=structure == "folder", suffixes=structure == "suffix")


def read(root: Path) -> SiteLanguages:
    """The languages of the site whose mkdocs.yml is at ``root`` (cached per file and change)."""
    path = site_config.config_path(Path(root)).resolve()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return SiteLanguages((), "", folders=True, known=False)
    return _read(str(path), stamp)


@functools.lru_cache(maxsize=16)
def _read(path: str, _stamp: int) -> SiteLanguages:
    return from_config(site_config.load_mkdocs_config(Path(path).parent))
