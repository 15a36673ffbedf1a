"""What the preview (``mkdocs serve``, ``ruota-docs serve``) rebuilds after files change: the pages
they change, or everything.

A page is rebuilt in every language whose site shows something of it:

- an edited page, in its language; an edited page of the source language also in every
  language that shows it in place of a missing translation, and in those whose translation
  of it gets another banner (it becomes stale, or the date of the source's change moves);
- for an edited file under a folder pages include from (pymdownx.snippets' ``base_path``),
  the pages whose last rendering included it (:mod:`ruota_docs.blocks.page_cache`), in the same
  way; a file that no page includes changes nothing on the site;
- the pages drawn from every page of a language (the verification status, the card
  matrix), where a page of that language now has other blocks than at its last rendering
  (other code, requirements, lines…): a page is rendered for that without highlighting,
  as the engine collects blocks.

Anything else rebuilds the whole site, as MkDocs' own rebuild does after every change: a page
added, removed or renamed (the navigation changes), any other file under the docs directory,
the configuration, the theme's overrides, the records, the package's code (the API
reference), and a page not rendered yet in this process. A change of a page's title is
found while it is rebuilt (:mod:`ruota_docs.serve.partial_build`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ruota_docs.blocks import page_cache, renderer
from ruota_docs.site import fragments
from ruota_docs.site.site_languages import SiteLanguage


@dataclass
class Plan:
    """Pages to rebuild per language (``{"fr": {"guides/x.md"}}``: paths inside the language
    folder), or the reason for rebuilding everything."""

    pages: dict[str, set[str]] = field(default_factory=dict)
    full: str | None = None  #: why everything is rebuilt; ``None`` when only ``pages`` are

    def add(self, locale: str, page: str) -> None:
        self.pages.setdefault(locale, set()).add(page)

    def describe(self) -> str:
        if self.full:
            return f"everything ({self.full})"
        if not self.pages:
            return "nothing (no page shows what changed)"
        count = sum(len(pages) for pages in self.pages.values())
        return f"{count} page{'s' if count != 1 else ''} in {', '.join(sorted(self.pages))}"


def _under(path: Path, folder: Path) -> Path | None:
    """``path`` relative to ``folder``, or ``None`` where it is not inside it."""
    try:
        return path.relative_to(folder)
    except ValueError:
        return None


def _blocks(blocks) -> list[tuple]:
    """What the pages drawn from others show of a page's blocks."""
    return [(b.index, b.line, b.end_line, b.kind, b.fence_language, b.sha256, tuple(map(str, b.requirements)),
             sorted((k, str(v)) for k, v in b.options.items()), b.includes, b.skip_reason, b.error, b.source, b.title)
            for b in blocks]


def _blocks_changed(root: Path, docs_dir: Path, path: Path) -> bool:
    entry = page_cache.last(path)
    now = renderer.render(root, path, docs_dir=docs_dir, fast=True)
    return entry is None or bool(now.problems) or _blocks(now.blocks) != _blocks(entry.blocks)


class _Pages:
    """The site's pages, by file: ``docs_dir/<locale>/<page>``."""

    def __init__(self, docs_dir: Path, languages: list[SiteLanguage], source: str) -> None:
        self.docs_dir, self.source = docs_dir, source
        self.locales = {lang.locale for lang in languages}

    def split(self, path: Path) -> tuple[str, str] | None:
        """``(locale, page)`` of a page file, ``None`` for any other file."""
        inside = _under(path, self.docs_dir)
        if inside is None or len(inside.parts) < 2 or inside.parts[0] not in self.locales or path.suffix != ".md":
            return None
        return inside.parts[0], Path(*inside.parts[1:]).as_posix()

    def shown(self, locale: str, page: str) -> list[str]:
        """The languages whose site changes where ``locale``'s ``page`` does: its own, and for
        a source page the languages without a translation, or whose translation's banner moves."""
        found = [locale]
        if locale != self.source:
            return found
        for other in sorted(self.locales - {locale}):
            translation = self.docs_dir / other / page
            if not translation.exists():
                found.append(other)
                continue
            last = page_cache.last(translation)
            banner = fragments.translation_banner(self.docs_dir, f"{other}/{page}", other, self.source)
            if last is None or last.banner != banner:
                found.append(other)
        return found


def plan(changes: dict[Path, str], root: Path, docs_dir: Path, languages: list[SiteLanguage], source: str,
         include_dirs: list[Path]) -> Plan:
    """What to rebuild after ``changes`` (absolute path → ``added``, ``removed`` or
    ``modified``), for the project at ``root`` whose pages are ``docs_dir/<locale>/…``, built
    in ``languages``, translated from ``source``, including files from ``include_dirs``."""
    docs_dir = Path(os.path.realpath(docs_dir))
    include_dirs = [Path(os.path.realpath(d)) for d in include_dirs]
    pages = _Pages(docs_dir, languages, source)
    edited: set[Path] = set()
    included: set[Path] = set()
    for path, change in sorted(changes.items()):
        path = Path(os.path.realpath(path))
        full = _needs_full(path, change, docs_dir, include_dirs, pages)
        if full:
            return Plan(full=full)
        (edited if _under(path, docs_dir) is not None else included).add(path)
    result = Plan()
    for path in sorted(edited | {Path(p) for p in page_cache.including(included)}):
        where = pages.split(Path(os.path.realpath(path)))
        if where is None:
            continue
        locale, page = where
        for shown in pages.shown(locale, page):
            result.add(shown, page)
        if _blocks_changed(root, docs_dir, path):
            for listing in page_cache.listing(docs_dir / locale):
                result.add(locale, Path(listing).relative_to(docs_dir / locale).as_posix())
    return result


def _needs_full(path: Path, change: str, docs_dir: Path, include_dirs: list[Path], pages: _Pages) -> str | None:
    """Why a change to ``path`` means rebuilding everything; None where a page of the docs was
    edited that was built before, or an included file changed."""
    inside = _under(path, docs_dir)
    if inside is None:
        included = any(_under(path, folder) is not None for folder in include_dirs)
        return None if included else f"{path.name} changed"
    if pages.split(path) is None:
        return f"{inside.as_posix()} changed"
    if change != "modified":
        return f"{inside.as_posix()} was {change}: the navigation changes"
    if page_cache.last(path) is None:
        return f"{inside.as_posix()} has not been built yet"
    return None
