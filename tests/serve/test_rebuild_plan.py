"""The author's preview (ruota_docs.serve.server): what a change rebuilds, and that the rebuilt site is
byte for byte the site a full build makes of the same files."""

from __future__ import annotations

from pathlib import Path

import pytest

from _support import edit, write_tree
from ruota_docs.blocks import page_cache, renderer
from ruota_docs.serve import rebuild_plan
from ruota_docs.site import fragments
from ruota_docs.site.site_languages import SiteLanguage

LANGUAGES = [SiteLanguage("es", ""), SiteLanguage("en", "en"), SiteLanguage("fr", "fr")]

# -- what a change rebuilds ------------------------------------------------------------------------------------
PAGES = {
    "docs/es/guide.md": "# Guía { #guide }\n\nTexto.\n\n```python\n--8<-- \"g/code.py\"\n```\n",
    "docs/fr/guide.md": "# Guide { #guide }\n\nTexte.\n\n```python\n--8<-- \"g/code.py\"\n```\n",
    "docs/es/other.md": "# Otra { #other }\n\nTexto.\n",
    "snippets/g/code.py": "print(1)\n",
    "snippets/g/unused.py": "print(2)\n",
} | {f"docs/{lang}/status.md": "# Estado { #status }\n\n<!-- verification-status: -->\n" for lang in ("es", "en", "fr")}


@pytest.fixture
def rendered(tmp_path, monkeypatch):
    """A docs tree whose pages the cache has seen rendered, as the site build leaves it."""
    root = write_tree(tmp_path, PAGES, conftest=False)
    monkeypatch.chdir(root)
    page_cache.clear()
    for path in sorted((root / "docs").rglob("*.md")):
        key = path.relative_to(root / "docs").as_posix()
        found = renderer.render(root, path, docs_dir=root / "docs", fast=True)
        included = {root / "snippets" / src.split(":", 1)[0].removeprefix("snippets/") for b in found.blocks for src in b.includes}
        page_cache.remember(path, found.blocks, included, lists_pages=path.name == "status.md",
                            banner=fragments.translation_banner(root / "docs", key, key[:2], "es"))
    yield root
    page_cache.clear()


def plan(root: Path, **changed: str):
    return rebuild_plan.plan({root / path: change for path, change in changed.items()}, root, root / "docs", LANGUAGES,
                             "es", [root / "snippets"])


def test_prose_edited_in_a_source_page(rendered):
    edit(rendered / "docs/es/other.md", "Texto.", "Texto nuevo.")
    result = plan(rendered, **{"docs/es/other.md": "modified"})
    assert result.full is None
    # en and fr have no translation of it: they show the Spanish page; no block changed: no status page
    assert result.pages == {"es": {"other.md"}, "en": {"other.md"}, "fr": {"other.md"}}


def test_a_translation_whose_banner_stays_is_left_alone(rendered):
    edit(rendered / "docs/es/guide.md", "Texto.", "Texto nuevo.")
    # fr/guide.md records no translation_of: it was stale already, and its banner says the same;
    # en has no guide: it shows the Spanish one
    assert plan(rendered, **{"docs/es/guide.md": "modified"}).pages == {"es": {"guide.md"}, "en": {"guide.md"}}
    page_cache.remember(rendered / "docs/fr/guide.md", [], banner="")  # as if it had been in sync
    assert plan(rendered, **{"docs/es/guide.md": "modified"}).pages == {lang: {"guide.md"} for lang in ("es", "en", "fr")}


def test_other_blocks_rebuild_the_pages_that_list_them(rendered):
    edit(rendered / "docs/es/guide.md", "Texto.", "Texto.\n\n```python\nprint(3)\n```")
    assert plan(rendered, **{"docs/es/guide.md": "modified"}).pages == {"es": {"guide.md", "status.md"}, "en": {"guide.md"}}
    edit(rendered / "docs/fr/guide.md", "Texte.", "Texte,\nsur deux lignes.")  # the block moves down a line
    assert plan(rendered, **{"docs/fr/guide.md": "modified"}).pages == {"fr": {"guide.md", "status.md"}}


def test_a_snippet_rebuilds_the_pages_that_include_it(rendered):
    edit(rendered / "snippets/g/code.py", "print(1)", "print(10)")
    result = plan(rendered, **{"snippets/g/code.py": "modified"})
    # en has no guide of its own: it shows the Spanish one, which includes the snippet
    assert result.pages == {"es": {"guide.md", "status.md"}, "fr": {"guide.md", "status.md"}, "en": {"guide.md"}}
    nothing = plan(rendered, **{"snippets/g/unused.py": "modified"})
    assert nothing.full is None and nothing.pages == {}
    assert nothing.describe() == "nothing (no page shows what changed)"


@pytest.mark.parametrize(("changed", "why"), [
    ({"docs/es/new.md": "added"}, "es/new.md was added: the navigation changes"),
    ({"docs/es/other.md": "removed"}, "es/other.md was removed: the navigation changes"),
    ({"docs/es/image.png": "modified"}, "es/image.png changed"),
    ({"docs/de/page.md": "modified"}, "de/page.md changed"),
    ({"mkdocs.yml": "modified"}, "mkdocs.yml changed"),
    ({"verification/cpu-x86_64.json": "modified"}, "cpu-x86_64.json changed"),
])
def test_what_rebuilds_everything(rendered, changed, why):
    assert plan(rendered, **changed).full == why


def test_a_page_never_rendered_rebuilds_everything(rendered):
    (rendered / "docs/en/guide.md").write_text("# Guide\n", encoding="utf-8")
    assert plan(rendered, **{"docs/en/guide.md": "modified"}).full == "en/guide.md has not been built yet"


