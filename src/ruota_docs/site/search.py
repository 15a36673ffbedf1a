"""Search in the reader's language.

mkdocs-static-i18n builds the languages one after the other and leaves Material a single
index for all of them (``search/search_index.json``), searched with every language's
rules at once: a Spanish reader who searched "Keras" got the English and French pages
too. Material reads the index beside its ``base`` URL, so each language gets its own index
at its own root — ``search/`` for the default language, ``en/search/``, ``fr/search/`` —
with its own pages only (their addresses relative to that root) and lunr set to that
language alone. overrides/main.html gives the pages of each language their language's
root as that ``base``.

The pipeline stays Material's default for es, fr and en: that language's stop words, no
stemmer. Material adds a wildcard to every term of a query (prefix search) and lunr does
not stem wildcard terms, so an index built with a stemmer stops matching whole words
(with it, a page's own title, "Guías" or "Escribir fragmentos verificados", found nothing).
"""

from __future__ import annotations

import json
from pathlib import Path

from mkdocs import utils
from mkdocs.plugins import get_plugin_logger

from ruota_docs.site.site_languages import SiteLanguage

log = get_plugin_logger(__name__)

INDEX = Path("search") / "search_index.json"
LUNR = Path("assets") / "javascripts" / "lunr" / "min"  #: Material's lunr languages in the built site


def split_index(index: dict, languages: list[SiteLanguage], lunr_languages: set[str]) -> dict[SiteLanguage, dict]:
    """One index per language that ``index`` holds pages of: those pages, with their
    addresses relative to the language's root, and lunr set to that language only
    (``lunr_languages``: those lunr can stem; English needs no file)."""
    folders = {lang.folder: lang for lang in languages}
    docs: dict[SiteLanguage, list[dict]] = {}
    for doc in index.get("docs", []):
        location = doc.get("location", "")
        first = location.split("/", 1)[0] if "/" in location else ""
        lang = (folders.get(first) if first else None) or folders.get("")
        if lang is None:
            continue
        docs.setdefault(lang, []).append(dict(doc, location=location[len(lang.prefix):]))
    result = {}
    for lang, entries in docs.items():
        config = dict(index.get("config", {}))
        if lang.locale == "en" or lang.locale in lunr_languages:
            config["lang"] = [lang.locale]
        else:
            log.warning(f"search: lunr.js has no rules for '{lang.locale}' (no {LUNR}/lunr.{lang.locale}.min.js); "
                        f"its pages are searched with {config.get('lang')}")
        result[lang] = dict(index, config=config, docs=entries)
    return result


def write_language_indexes(site_dir: Path, languages: list[SiteLanguage]) -> list[Path]:
    """Replace the index a build left in ``site_dir`` with one per language it holds; the
    files written. Run after every build: a language's own build leaves only its pages
    (its index is written then), the last one leaves every language's."""
    site_dir = Path(site_dir)
    path = site_dir / INDEX
    if not path.is_file():  # search is off
        return []
    index = json.loads(path.read_text(encoding="utf-8"))
    lunr = {p.name.removeprefix("lunr.").removesuffix(".min.js") for p in (site_dir / LUNR).glob("lunr.*.min.js")}
    written = []
    for lang, part in split_index(index, languages, lunr).items():
        target = site_dir / lang.folder / INDEX
        utils.write_file(json.dumps(part, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), str(target))
        written.append(target)
    return written


def replace_pages(index: dict, fresh: dict, pages: set[str]) -> dict:
    """``index`` (one language's) with the entries of ``pages`` (their locations, ``guides/x/``)
    replaced by those ``fresh`` holds (an index of a build of those pages alone): in their
    place, and at the end for a page ``index`` did not hold."""
    page_of = lambda doc: doc.get("location", "").split("#", 1)[0]  # noqa: E731 — "guides/x/#section" is on "guides/x/"
    new: dict[str, list[dict]] = {}
    for doc in fresh.get("docs", []):
        new.setdefault(page_of(doc), []).append(doc)
    docs = []
    for doc in index.get("docs", []):
        page = page_of(doc)
        if page not in pages:
            docs.append(doc)
        elif page in new:
            docs += new.pop(page)
    for page in sorted(pages):
        docs += new.pop(page, [])
    return dict(index, docs=docs)
