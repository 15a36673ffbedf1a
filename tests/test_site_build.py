"""The real site, built with ``mkdocs build --strict``: pages, languages, switcher, assets."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sitebuild import LANGUAGES, SOURCE, build, html_path, page_paths, url_path

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    result = build(target)
    assert result.returncode == 0, result.stdout + result.stderr
    # strict mode turns warnings into failure, but say it plainly if any slipped through
    assert "WARNING" not in result.stderr, result.stderr
    return target


class _Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.lang = None
        self.alternates: dict[str, str] = {}
        self.switcher: dict[str, str] = {}
        self.loaded: list[str] = []
        self._in_select = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "link" and a.get("rel") == "alternate" and a.get("hreflang"):
            self.alternates.setdefault(a["hreflang"], a["href"])
        if tag == "a" and "md-select__link" in (a.get("class") or ""):
            self.switcher[a.get("hreflang")] = a.get("href")
        if tag in ("script", "img", "iframe") and a.get("src"):
            self.loaded.append(a["src"])
        if tag == "link" and a.get("rel") in ("stylesheet", "preload", "modulepreload", "icon") and a.get("href"):
            self.loaded.append(a["href"])


def _parse(path: Path) -> _Head:
    parser = _Head()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_page_exists_in_every_language(site):
    missing = [f"{lang}: {page}" for page in page_paths() for lang in LANGUAGES if not html_path(site, page, lang).exists()]
    assert not missing, missing
    guides = {"guides/keras-rx7600.md", "guides/stable-diffusion-rocm.md", "guides/radeon-vii-windows.md", "guides/verify-against-reference.md"}
    assert guides <= set(page_paths())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lang_attribute(site, lang):
    for page in page_paths():
        assert _parse(html_path(site, page, lang)).lang == lang, page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_switcher_leads_to_the_same_page(site, lang):
    for page in page_paths():
        path = html_path(site, page, lang)
        head = _parse(path)
        assert set(head.switcher) == set(LANGUAGES), (page, head.switcher)
        for other, href in head.switcher.items():
            # the home page links by root-relative paths (site_url's path is /)
            target = (site / href.lstrip("/")) if href.startswith("/") else (path.parent / href)
            target = target.resolve()
            target = target / "index.html" if target.is_dir() or not target.suffix else target
            assert target == html_path(site, page, other).resolve(), (page, lang, other, href)


def test_hreflang_alternates_are_absolute(site):
    for page in page_paths():
        head = _parse(html_path(site, page, "en"))
        for lang in LANGUAGES:
            assert lang in head.alternates, (page, head.alternates)
        assert head.alternates.get("x-default", "").startswith("https://ruota-docs.example.org/"), page


def test_nothing_is_loaded_from_another_host(site):
    offenders = []
    for path in site.rglob("*.html"):
        for url in _parse(path).loaded:
            if re.match(r"^(https?:)?//", url):
                offenders.append(f"{path.relative_to(site)}: {url}")
    for path in list(site.rglob("*.css")):
        for url in re.findall(r"url\(\s*['\"]?((?:https?:)?//[^'\")]+)", path.read_text(encoding="utf-8", errors="replace")):
            offenders.append(f"{path.relative_to(site)}: {url}")
        offenders += [f"{path.relative_to(site)}: @import" for _ in re.findall(r"@import\s+url\(\s*['\"]?https?:", path.read_text(errors="replace"))]
    assert not offenders, offenders


def test_sitemap_lists_every_language(site):
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    for page in page_paths():
        for lang in LANGUAGES:
            assert f"https://ruota-docs.example.org{url_path(page, lang)}" in sitemap, (page, lang)


def test_search_index_in_each_language(site):
    index = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    for lang in LANGUAGES:
        assert f'"{lang}"' in index
    for lang in ("en", "fr"):
        assert f'"location":"{lang}/' in index.replace(" ", "")
