"""Search in the reader's language. On a page of one language, Material's search looks in
that language's own index (its pages only, its lunr rules) and its results lead to pages
of that language — at the root, under /ruota-docs/ and under ``mkdocs serve``. Words
that exist in every language (product names) find the reader's pages only; a word of
one language is found there and nowhere else; every page is found by its own title, the
API reference (English docstrings on every language's page) in the reader's language."""

from __future__ import annotations

import bisect
import json
import re
import urllib.request
from collections import defaultdict
from urllib.parse import urlsplit, urlunsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browserkit import LANGUAGES, SEARCH_READY_JS, SOURCE, copy_repo, mkdocs_serve, open_context, recorded_page, url_path
from ruota_docs.records import verdicts
from ruota_docs.site.locales import STRINGS
from sitebuild import SUBPATH_SITE_URL

BUILDS = ["site", "subpath_site"]
#: Words on pages of every language, and the guide each must find.
PRODUCTS = {"Keras": "guides/keras-rx7600.md", "ROCm": "guides/stable-diffusion-rocm.md",
            "Radeon": "guides/radeon-vii-windows.md"}
API_NAME = "unmet_reason"  #: a function documented on the API reference page, in English everywhere
SEPARATOR = re.compile(r"[\s\-]+")  #: Material's word separator for es, en and fr (the index's config)

RESULTS_JS = """() => {
  const words = JSON.parse(document.getElementById('__config').textContent).translations;
  const meta = document.querySelector('.md-search-result__meta').textContent.trim();
  const links = [...document.querySelectorAll('.md-search-result__list .md-search-result__link')].map(a => a.href);
  return {meta, links, none: words['search.result.none'], one: words['search.result.one'], placeholder: words['search.result.placeholder']};
}"""


def _index(site, lang: str) -> dict:
    with urllib.request.urlopen(f"{site.url}{url_path('index.md', lang)}search/search_index.json", timeout=10) as response:
        return json.load(response)


def _page_url(href: str) -> str:
    return urlunsplit(urlsplit(href)._replace(query="", fragment=""))


def _language_of(site, href: str) -> str | None:
    """The language of a page of ``site`` by its address; None when it is not on the site."""
    if not href.startswith(site.url + "/"):
        return None
    first = href[len(site.url) + 1:].split("/", 1)[0]
    return first if first in LANGUAGES and first != SOURCE else SOURCE


class Search:
    """Material's search box on one page: ``search(query)`` → (number found, page URLs in order)."""

    def __init__(self, page) -> None:
        self.page = page
        self.box = page.locator(".md-search__input")
        page.wait_for_function(SEARCH_READY_JS, timeout=30_000)

    def __call__(self, query: str) -> tuple[int, list[str]]:
        # Material reads the query on keyup; an empty query first, so the next answer is this one's
        self.box.click()
        self.box.fill("")
        self.box.press("End")
        self.page.wait_for_function(SEARCH_READY_JS)
        self.box.fill(query)
        self.box.press("End")
        try:  # this query's answer: a count (not the placeholder, nor "Initializing search" after a reload)
            self.page.wait_for_function(f"() => {{ const f = ({RESULTS_JS})(); "
                                        "return f.meta === f.none || f.meta === f.one || /\\d/.test(f.meta); }",
                                        timeout=10_000)
        except PlaywrightTimeout:
            raise AssertionError(f"no answer to {query!r}: the search says {self.page.evaluate(RESULTS_JS)['meta']!r}") from None
        found = self.page.evaluate(RESULTS_JS)
        if found["meta"] == found["none"]:
            count = 0
        elif found["meta"] == found["one"]:
            count = 1
        else:
            count = int(re.search(r"\d+", found["meta"]).group())
        pages = list(dict.fromkeys(_page_url(h) for h in found["links"]))
        return count, pages


@pytest.fixture(scope="module")
def reader(browser):
    """``reader(site, lang)`` → (page, recorder, Search) on the home page of ``lang``: one page per
    site and language for the module, as the index is loaded and lunr built once per page
    (about two seconds). Its recorder is cleared for each test; ``take=True`` hands the page
    over to a test that navigates away (the next asker gets a new one)."""
    contexts, opened = {}, {}

    def open_(site, lang: str, take: bool = False):
        if (site.url, lang) not in opened:
            if site.url not in contexts:
                contexts[site.url] = open_context(browser, site)
            page, recorder = recorded_page(contexts[site.url], site)
            page.goto(site.href("index.md", lang))
            opened[(site.url, lang)] = (page, recorder, Search(page))
        found = opened.pop((site.url, lang)) if take else opened[(site.url, lang)]
        found[0].bring_to_front()  # a page in the background gets no animation frames to poll on
        found[1].clear()
        return found

    yield open_
    for context in contexts.values():
        context.close()


@pytest.mark.parametrize("which", BUILDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_product_names_find_the_readers_pages_only(request, reader, which, lang):
    site = request.getfixturevalue(which)
    page, recorder, search = reader(site, lang)
    for word, guide in PRODUCTS.items():
        count, pages = search(word)
        others = [p for p in pages if _language_of(site, p) != lang]
        assert not others, f"{word!r} on the {lang} site found pages of other languages: {others}"
        assert 0 < count <= len(site.pages()), f"{word!r} on the {lang} site: {count} results for {len(site.pages())} pages"
        assert site.href(guide, lang) in pages, (word, pages)
    assert not recorder.problems(navigated=True), recorder.problems(navigated=True)


def _search_terms(site) -> dict[str, tuple[str, str]]:
    """Per language, a word that only one page of the site contains (in any language), and
    that page: ``{lang: (word, page URL)}``. Guides are preferred, then longer words."""
    where = defaultdict(set)  # word → {(lang, page URL)}
    for lang in LANGUAGES:
        for doc in _index(site, lang)["docs"]:
            location = site.url + url_path("index.md", lang) + doc["location"].split("#")[0]
            text = re.sub(r"<[^>]+>", " ", f"{doc.get('title', '')} {doc.get('text', '')}").lower()
            for token in SEPARATOR.split(text):
                word = token.strip(".,;:!?()[]{}«»\"'`*/")
                if re.fullmatch(r"[a-z]{7,}", word):
                    where[word].add((lang, location))
    ordered = sorted(where)
    chosen = {}
    for lang in LANGUAGES:
        options = []
        for word, places in where.items():
            if len(places) != 1 or next(iter(places))[0] != lang:
                continue
            after = bisect.bisect_right(ordered, word)
            if after < len(ordered) and ordered[after].startswith(word):
                continue  # Material also finds words that start with the query: keep to one page
            location = next(iter(places))[1]
            options.append(("/guides/" not in location, -len(word), word, location))
        if options:
            _, _, word, location = min(options)
            chosen[lang] = (word, location)
    return chosen


@pytest.mark.parametrize("which", BUILDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_word_of_one_language_is_found_in_that_language_only(request, reader, which, lang):
    site = request.getfixturevalue(which)
    terms = _search_terms(site)
    if lang not in terms:
        pytest.skip(f"no word appears on exactly one {lang} page")
    word, location = terms[lang]
    for other in LANGUAGES:
        page, recorder, search = reader(site, other)
        count, pages = search(word)
        if other == lang:
            assert location in pages, f"searching {word!r} on the {lang} site: {location} not among {pages}"
        else:
            assert (count, pages) == (0, []), f"{word!r}, a word of the {lang} pages, found {pages} on the {other} site"
        assert not recorder.problems(navigated=True), recorder.problems(navigated=True)


@pytest.mark.parametrize("which", BUILDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_is_found_by_its_own_title(request, reader, which, lang):
    """Each page's title (as the index has it) brings that page among the first three."""
    site = request.getfixturevalue(which)
    titles = {doc["location"]: re.sub(r"<[^>]+>", "", doc["title"]) for doc in _index(site, lang)["docs"] if "#" not in doc["location"]}
    expected = {site.href(p, lang)[len(site.url + url_path("index.md", lang)):] for p in site.pages()}
    assert set(titles) == expected, "the index lists other pages than the site's"
    page, recorder, search = reader(site, lang)
    lost = []
    for location, title in sorted(titles.items()):
        count, pages = search(title)
        href = site.url + url_path("index.md", lang) + location
        if href not in pages[:3]:
            lost.append(f"{title!r}: {href} not among the first three of {pages}")
    assert not lost, "\n".join(lost)
    assert not recorder.problems(navigated=True), recorder.problems(navigated=True)


@pytest.mark.parametrize("which", BUILDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_api_reference_is_found_in_the_readers_language(request, reader, which, lang):
    site = request.getfixturevalue(which)
    page, recorder, search = reader(site, lang, take=True)  # it follows the result
    count, pages = search(API_NAME)
    assert pages and pages[0] == site.href("reference/api.md", lang), pages
    assert all(_language_of(site, p) == lang for p in pages), pages
    # and the result leads there, in the reader's language
    with page.expect_navigation():
        page.locator(".md-search-result__list .md-search-result__link").first.click()
    assert _page_url(page.url) == site.href("reference/api.md", lang)
    assert page.evaluate("document.documentElement.lang") == lang
    assert not recorder.problems(navigated=True), recorder.problems(navigated=True)


@pytest.mark.parametrize("which", BUILDS)
def test_each_language_has_its_own_index(request, which):
    """At the language's root, with lunr set to that language alone, holding its pages only."""
    site = request.getfixturevalue(which)
    for lang in LANGUAGES:
        index = _index(site, lang)
        assert index["config"]["lang"] == [lang]
        assert not [d["location"] for d in index["docs"] if d["location"].split("/")[0] in LANGUAGES], lang


@pytest.mark.parametrize("site_url", [None, SUBPATH_SITE_URL], ids=["root", "subpath"])
def test_search_works_the_same_under_mkdocs_serve(browser, tmp_path, site_url):
    """As authors preview the site: `mkdocs serve`, each language searching its own pages. It serves a
    copy of the repository, which the pages' runs beside it leave alone: a record they write would
    rebuild the whole site, and a page asked for meanwhile would not be there."""
    with mkdocs_serve(copy_repo(tmp_path / "repo"), site_url=site_url) as served:
        context = browser.new_context(base_url=served.url)
        try:
            for lang in LANGUAGES:
                page, recorder = recorded_page(context, served)
                page.goto(served.href("index.md", lang))
                search = Search(page)
                for word, guide in PRODUCTS.items():
                    count, pages = search(word)
                    assert pages and all(_language_of(served, p) == lang for p in pages), (lang, word, pages)
                    assert served.href(guide, lang) in pages, (lang, word, pages)
                count, pages = search(API_NAME)
                assert pages[0] == served.href("reference/api.md", lang), (lang, pages)
                assert not recorder.problems(navigated=True), recorder.problems(navigated=True)
                page.close()
        finally:
            context.close()


@pytest.mark.parametrize("which", ["site", "fixture_site"])
def test_search_index_keeps_the_plugins_words_apart(request, which):
    """Badges and tab labels are separate words for search too ("Requiere ROCm", not
    "RequiereROCm"): the index is built from the HTML without its styles."""
    site = request.getfixturevalue(which)
    text = " ".join(re.sub(r"<[^>]+>", "", d.get("text", "")) for lang in LANGUAGES for d in _index(site, lang)["docs"])
    labels = [verdicts.machine_label(data.machine) for data in site.ledgers]
    glued = [f"{STRINGS[lang]['requires']}{badge}" for lang in LANGUAGES for badge in ("ROCm", "CUDA", "GPU", "Linux", "Windows", "gfx")]
    glued += [a + b for a in labels for b in labels if a != b]
    found = sorted({g for g in glued if g in text})
    assert not found, f"words run together in the search index: {found}"
    if which == "fixture_site":  # guard: the index does hold the fixture's badges and labels
        assert all(f"{STRINGS[lang]['requires']} ROCm" in text for lang in LANGUAGES) and len(labels) == 2
