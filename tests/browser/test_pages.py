"""Every page in every language: loads cleanly, stays on this site, is accessible, speaks
the reader's language, and is listed with its translations in the head and the sitemap."""

from __future__ import annotations

import re
import urllib.request
import xml.etree.ElementTree as ET

import pytest

from browserkit import LANGUAGES, SOURCE, url_path
from ruota_docs.site.locales import templates

# What the engine writes into the ledger in English; the page must say it in its own language.
ENGINE_ENGLISH = ("requires ", "this machine:", "not run:", "offline (run with", "timed out after")

SURVEYS = ["real_survey", "fixture_survey"]


def _reports(request, which, lang):
    reports = request.getfixturevalue(which)
    chosen = [r for (_, page_lang), r in sorted(reports.items()) if page_lang == lang]
    assert chosen, f"{which} visited no page in {lang}"
    return chosen


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("which", SURVEYS)
def test_no_console_errors_failed_or_foreign_requests(request, which, lang):
    """Every request goes to the local server and succeeds; the console stays clean."""
    problems = [f"{r.lang}/{r.page}: {p}" for r in _reports(request, which, lang) for p in r.problems]
    assert not problems, "\n".join(problems)


def test_the_survey_records_requests(real_survey):
    """Guard for the test above: requests are really recorded, the search worker's included."""
    requests = real_survey[("index.md", SOURCE)].requests
    for wanted in ("/assets/javascripts/bundle.", "/search/search_index.json", "/assets/javascripts/lunr/"):
        assert any(wanted in url for url in requests), (wanted, requests)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("which", SURVEYS)
def test_landmarks_alt_text_charts_and_html_lang(request, which, lang):
    problems = []
    for r in _reports(request, which, lang):
        dom, where = r.dom, f"{r.lang}/{r.page}"
        if dom["lang"] != lang:
            problems.append(f"{where}: <html lang={dom['lang']!r}>, expected {lang!r}")
        for landmark in ("header", "nav"):
            if dom["landmarks"][landmark] < 1:
                problems.append(f"{where}: no {landmark} landmark")
        if dom["landmarks"]["main"] != 1:
            problems.append(f"{where}: {dom['landmarks']['main']} main landmarks, expected 1")
        problems += [f"{where}: img without alt: {src}" for src in dom["imgs_without_alt"]]
        for svg in dom["svgs"]:
            if not svg["title"]:
                problems.append(f"{where}: svg without a <title>: {svg['html']}")
            if svg["role"] != "img" or not svg["label"]:
                problems.append(f"{where}: svg without role=img and an aria-label: {svg['html']}")
    assert not problems, "\n".join(problems)


def test_fixture_status_page_and_home_have_accessible_charts(fixture_survey):
    """Guard: the chart checks above really met charts (status page and a chart: directive)."""
    for lang in LANGUAGES:
        for page in ("index.md", "verification-status.md"):
            charts = [s for s in fixture_survey[(page, lang)].dom["svgs"] if "ruota-chart" in s["cls"]]
            assert charts, f"{lang}/{page} of the fixture site shows no chart"


_DOTTED = re.compile(r"\b\w+(?:\.\w+)+\b")


def _foreign_fragments(lang: str) -> list[str]:
    """Pieces of the plugin's strings in the other languages that this language never uses."""
    own = " ".join(templates(lang))
    fragments = set()
    for other in LANGUAGES:
        if other == lang:
            continue
        for template in templates(other):
            for piece in re.split(r"\{[^}]*\}", template):
                piece = piece.strip(" .,;:()")
                if len(piece) >= 5 and re.search(r"[^\W\d_]{3}", piece) and piece not in own:
                    fragments.add(piece)
    if lang != "en":
        fragments.update(ENGINE_ENGLISH)
    return sorted(fragments)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("which", SURVEYS)
def test_plugin_output_is_in_the_readers_language(request, which, lang):
    """Badges, marks, summaries, banners and charts say nothing in another language."""
    fragments = _foreign_fragments(lang)
    assert len(fragments) > 10, fragments
    problems = []
    for r in _reports(request, which, lang):
        text = _DOTTED.sub("", r.dom["plugin_text"])  # a module's dotted name is code, in no language
        for fragment in fragments:
            at = text.find(fragment)
            if at >= 0:
                problems.append(f"{r.lang}/{r.page}: {fragment!r} in …{text[max(0, at - 50): at + 70]!r}…")
    assert not problems, "\n".join(problems)


def test_hreflang_alternates_in_the_head(real_survey, site):
    """Each page names itself and its translations (and an x-default) in the head."""
    problems = []
    for (page, lang), r in sorted(real_survey.items()):
        alternates = r.dom["alternates"]
        for other in LANGUAGES:
            if alternates.get(other, "").split("#")[0] != site.href(page, other):
                problems.append(f"{lang}/{page}: hreflang={other} is {alternates.get(other)!r}, expected {site.href(page, other)!r}")
        if alternates.get("x-default") != site.site_url.rstrip("/") + url_path(page, SOURCE):
            problems.append(f"{lang}/{page}: x-default is {alternates.get('x-default')!r}")
    assert not problems, "\n".join(problems)


def test_sitemap_lists_every_page_with_its_translations(site):
    with urllib.request.urlopen(f"{site.url}/sitemap.xml", timeout=10) as response:
        tree = ET.fromstring(response.read())
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    entries = {}
    for url in tree.findall("s:url", ns):
        links = {link.get("hreflang"): link.get("href") for link in url.findall("x:link", ns)}
        entries[url.findtext("s:loc", namespaces=ns)] = links
    problems = []
    for page in site.pages():
        expected = {lang: site.site_url.rstrip("/") + url_path(page, lang) for lang in LANGUAGES}
        for lang, loc in expected.items():
            if loc not in entries:
                problems.append(f"sitemap lacks {loc}")
            elif entries[loc] != expected:
                problems.append(f"sitemap entry {loc} lists alternates {entries[loc]}, expected {expected}")
    assert not problems, "\n".join(problems)
