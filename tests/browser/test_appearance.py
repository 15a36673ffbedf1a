"""How pages look: contrast of the verification colours in both schemes, the dark scheme
from the reader's system setting, printing, nothing wider than the screen, and full-page
screenshots of every guide in its source language (test-artifacts/screenshots/) for people to look at."""

from __future__ import annotations

import pytest

from browserkit import LANGUAGES, contrast, parse_rgb
from sitebuild import SOURCE
from survey import MARK_STATES

SURVEYS = ["real_survey", "fixture_survey"]
MINIMUM = 4.5  # WCAG AA for text of normal size; the marks are small text


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("which", SURVEYS)
def test_verification_colours_have_enough_contrast(request, which, scheme):
    """Marks (passed, failed, skipped, stale…), summaries and status counts against the
    background painted behind them, light (default) and dark (slate)."""
    reports = request.getfixturevalue(which)
    problems, probes = [], set()
    for (page, lang), report in sorted(reports.items()):
        for what, text, ratio in report.contrast[scheme]:
            if what.startswith("probe "):
                probes.add(what)
            if ratio < MINIMUM:
                problems.append(f"{lang}/{page} [{scheme}] {what} {text!r}: contrast {ratio} < {MINIMUM}")
    assert probes >= {f"probe ruota-mark-{s}" for s in MARK_STATES}, probes
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_dark_system_setting_selects_the_dark_scheme(site, new_context, lang):
    """A reader whose system is dark gets Material's slate scheme, and its marks stay legible."""
    page = new_context(site, color_scheme="dark").new_page()
    page.goto(site.href("index.md", lang))
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    background = parse_rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
    text = parse_rgb(page.evaluate("getComputedStyle(document.querySelector('.md-typeset')).color"))
    assert contrast(background, (255, 255, 255)) > 10, f"the dark scheme's background is not dark: {background}"
    shown = [t * text[3] + b * (1 - text[3]) for t, b in zip(text[:3], background[:3])]  # text colours have alpha
    assert contrast(shown, background) >= MINIMUM, (text, background)


@pytest.mark.parametrize("which", SURVEYS)
def test_printed_pages_keep_code_and_marks_and_drop_navigation(request, which):
    reports = request.getfixturevalue(which)
    problems = [f"{lang}/{page}: {p}" for (page, lang), r in sorted(reports.items()) for p in r.printed["problems"]]
    assert not problems, "\n".join(problems)
    assert sum(r.printed["codes"] for r in reports.values()) > 0, "no page had code to print"
    assert sum(r.printed["marks"] for r in reports.values()) > 0, "no page had marks to print"


@pytest.mark.parametrize("which", SURVEYS)
def test_nothing_is_wider_than_the_screen_and_badges_stay_whole(request, which):
    """At desktop and phone widths: no sideways scrolling of the page, no table or figure
    wider than the text outside a scrolling wrapper, no badge broken across lines."""
    reports = request.getfixturevalue(which)
    problems = []
    for (page, lang), report in sorted(reports.items()):
        for viewport, layout in report.layout.items():
            where = f"{lang}/{page} ({viewport})"
            if layout["overflow"] > 1:
                problems.append(f"{where}: the page scrolls sideways by {layout['overflow']} px")
            problems += [f"{where}: {p}" for p in layout["badges"] + layout["wide"]]
    assert not problems, "\n".join(problems)


def test_every_guide_has_light_and_dark_screenshots(real_survey, site):
    """Full-page screenshots of each guide in its source language, taken with the light and the dark
    scheme really applied; every copy's backgrounds show that both schemes were applied to it."""
    guides = site.guides()
    assert guides, "no guide pages under docs/es/guides/"
    missing = []
    for page in guides:
        for lang in LANGUAGES:
            shots = real_survey[(page, lang)].screenshots
            names = sorted(p.name for p in shots)
            stem = page[:-3].replace("/", "-")
            wanted = [f"{stem}-dark.jpg", f"{stem}-light.jpg"] if lang == SOURCE else []
            if names != wanted or any(p.stat().st_size < 10_000 for p in shots):
                missing.append(f"{lang}/{page}: {names}")
            backgrounds = real_survey[(page, lang)].backgrounds
            if not (contrast(backgrounds["default"], (0, 0, 0)) > 10 and contrast(backgrounds["slate"], (255, 255, 255)) > 10):
                missing.append(f"{lang}/{page}: the schemes were not applied (backgrounds {backgrounds})")
    assert not missing, missing
