"""The site where it is published. Under a sub-path (a project page on GitHub Pages:
``/ruota-docs/``), every page of every language loads with all it asks for, from under
that path only, and its links and language selector lead to pages there; a missing
address gets the 404 page of its language, at the root and under the sub-path, from a
server that (like GitHub Pages) has only the root 404.html to send."""

from __future__ import annotations

import urllib.error
import urllib.request
from urllib.parse import urljoin, urlsplit, urlunsplit

import pytest

from browserkit import LANGUAGES, SEARCH_READY_JS, SOURCE, recorded_page
from ruota_docs.site.locales import STRINGS
from ruota_docs.site.typography import french_text
from survey import DESKTOP

LINKS_JS = """() => ({
  links: [...document.querySelectorAll('a[href]')].map(a => a.href),
  switcher: Object.fromEntries([...document.querySelectorAll('.md-select__link[hreflang]')]
    .map(a => [a.getAttribute('hreflang'), a.href])),
})"""


def _without_fragment(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(fragment=""))


@pytest.fixture(scope="module")
def subpath_walk(subpath_site, browser) -> dict:
    """Every page of the sub-path site in every language, visited once: what went wrong,
    every request, its links and its language selector."""
    context = browser.new_context(base_url=subpath_site.url, viewport=DESKTOP)
    page, recorder = recorded_page(context, subpath_site)
    walked = {}
    try:
        for path in subpath_site.pages():
            for lang in LANGUAGES:
                recorder.clear()
                page.goto(subpath_site.href(path, lang), wait_until="load")
                page.wait_for_function(SEARCH_READY_JS, timeout=20_000)  # the worker has fetched all it needs
                recorder.settle(page)
                walked[(path, lang)] = dict(problems=recorder.problems(), requests=list(recorder.requests), **page.evaluate(LINKS_JS))
    finally:
        context.close()
    return walked


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_loads_cleanly_under_a_sub_path(subpath_site, subpath_walk, lang):
    """No failed request, nothing from another host, no console error; and everything a
    page loads comes from under /ruota-docs/."""
    visited = [(page, r) for (page, page_lang), r in sorted(subpath_walk.items()) if page_lang == lang]
    assert len(visited) == len(subpath_site.pages())
    problems = [f"{lang}/{page}: {p}" for page, r in visited for p in r["problems"]]
    base = urlsplit(subpath_site.url).path + "/"
    problems += [f"{lang}/{page}: outside {base}: {u}" for page, r in visited for u in r["requests"]
                 if not urlsplit(u).path.startswith(base)]
    assert not problems, "\n".join(problems)
    assert any("/search/search_index.json" in u for _, r in visited for u in r["requests"]), "search never loaded its index"


def test_every_link_leads_to_a_page_under_the_sub_path(subpath_site, subpath_walk):
    same_site = sorted({_without_fragment(u) for r in subpath_walk.values() for u in r["links"]
                        if urlsplit(u).netloc == subpath_site.host})
    assert len(same_site) >= len(subpath_site.pages()) * len(LANGUAGES)
    broken = []
    for url in same_site:
        if not urlsplit(url).path.startswith(urlsplit(subpath_site.url).path + "/"):
            broken.append(f"{url}: outside the site's path")
            continue
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                response.read(1)
        except urllib.error.HTTPError as error:
            broken.append(f"{url}: HTTP {error.code}")
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_language_selector_leads_to_the_same_page_under_a_sub_path(subpath_site, subpath_walk, lang):
    wrong = []
    for page in subpath_site.pages():
        switcher = {other: _without_fragment(href) for other, href in subpath_walk[(page, lang)]["switcher"].items()}
        expected = {other: subpath_site.href(page, other) for other in LANGUAGES}
        if switcher != expected:
            wrong.append(f"{lang}/{page}: {switcher}, expected {expected}")
    assert not wrong, "\n".join(wrong)


# -- 404 ---------------------------------------------------------------------------------
MISSING = [("nope/", "es"), ("guides/nope", "es"), ("en/nope/", "en"), ("en/guides/keras-rx7600/nope/", "en"),
           ("fr/nope/", "fr"), ("fr/nope.html?x=1#here", "fr")]


@pytest.mark.parametrize("which", ["site", "subpath_site"])
@pytest.mark.parametrize(("missing", "lang"), MISSING, ids=[m for m, _ in MISSING])
def test_a_missing_address_gets_the_404_page_of_its_language(request, new_context, which, missing, lang):
    site = request.getfixturevalue(which)
    asked = f"{site.url}/{missing}"
    page, recorder = recorded_page(new_context(site), site)
    response = page.goto(asked)
    assert response.status == 404, "the server's answer to the missing address"
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.wait_for_load_state("load")
    assert page.locator("article h1").inner_text() == STRINGS[lang]["not_found_title"]
    assert page.url == asked, "the address bar keeps the address the reader asked for"
    assert page.title() == f"{STRINGS[lang]['not_found_title']} – ruota-docs"
    recorder.settle(page)
    # the missing address itself answered 404, as it should (and the console says so)
    expected = {f"failed: {_without_fragment(asked)} (HTTP 404)"} | {
        f"console: Failed to load resource: the server responded with a status of 404 (Not Found) @ {url}"
        for url in (asked, _without_fragment(asked))}
    problems = [p for p in recorder.problems(navigated=True) if p not in expected]
    assert not problems, problems
    selector = {other: _without_fragment(href) for other, href in page.evaluate(LINKS_JS)["switcher"].items()}
    assert selector == {other: site.href("index.md", other) for other in LANGUAGES}
    with page.expect_navigation():
        # as the page shows it: French prose gets the typographic apostrophe (« Aller à l’accueil »)
        home = STRINGS[lang]["not_found_home"]
        page.get_by_role("link", name=french_text(home) if lang == "fr" else home).click()
    assert page.url == site.href("index.md", lang)


@pytest.mark.parametrize("which", ["site", "subpath_site"])
def test_without_javascript_the_root_404_page_leads_to_every_language(request, new_context, which):
    """GitHub Pages sends the root 404.html for every address: without its script, a reader
    of /en/… still gets a page of the site whose language selector reaches every language."""
    site = request.getfixturevalue(which)
    page = new_context(site, java_script_enabled=False).new_page()
    response = page.goto(f"{site.url}/en/nope/")
    assert response.status == 404
    assert page.locator("html").get_attribute("lang") == SOURCE
    assert page.locator("article h1").inner_text() == STRINGS[SOURCE]["not_found_title"]
    hrefs = {a.get_attribute("hreflang"): urljoin(page.url, a.get_attribute("href"))
             for a in page.locator(".md-select__link[hreflang]").all()}
    assert hrefs == {other: site.href("index.md", other) for other in LANGUAGES}
