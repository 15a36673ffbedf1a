"""Readers of every ability: WCAG 2.1 A and AA, checked by axe-core on every page in both
schemes, and the engine's components used with the keyboard alone.

The audit itself runs inside the survey (survey.py), which opens each page once and switches
Material's palette: here its findings are asserted. A sample site that adopts the engine (the
authors' page "Using the engine on your own MkDocs site") is built with Material's default
palette and with the mkdocs theme and audited the same way.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from _support import RX7600, record_of, synthetic_record
from browserkit import LANGUAGES, axe_audit, build_site, open_context, serve
from ruota_docs.records import ledger as ledger_mod
from ruota_docs.site.locales import text
from survey import SCHEME_JS

SURVEYS = ["real_survey", "fixture_survey"]
SCHEMES = ("default", "slate")
OWN_SITE = Path(__file__).resolve().parents[1] / "corpus" / "own-site"
CPU = {"backend": "cpu", "gpu_name": None, "arch": None, "vram_bytes": None, "gpu_count": 0, "os": "linux",
       "machine": "x86_64", "python": "3.11.2", "torch": "2.9.1+cpu", "hip": None, "cuda": None,
       "packages": {"torch": "2.9.1+cpu"}, "machine_id": "cpu-x86_64"}


@pytest.mark.parametrize("which", SURVEYS)
def test_no_serious_or_critical_axe_violation_on_any_page(request, which):
    """Every page, in every language: axe-core finds nothing serious or critical against WCAG 2.1 A and AA.
    The colour rules run in the light and the dark scheme on every page whose colours differ: each page of the
    real site in its source language (its translations share its styles and markup), every page of the fixture
    site (where translations show a banner of their own)."""
    reports = request.getfixturevalue(which)
    problems, audited = [], 0
    for (page, lang), report in sorted(reports.items()):
        for scheme in SCHEMES if report.colours_audited else SCHEMES[:1]:
            if scheme not in report.axe:
                problems.append(f"{lang}/{page} [{scheme}]: not audited")
                continue
            audited += 1
            problems += [f"{lang}/{page} [{scheme}]: {found}" for found in report.axe[scheme]]
    coloured = {page for (page, _), report in reports.items() if report.colours_audited}
    assert coloured == {page for page, _ in reports}, "a page whose colours no copy audited"
    assert audited == sum(2 if r.colours_audited else 1 for r in reports.values()) and \
        {lang for _, lang in reports} == set(LANGUAGES)
    assert not problems, f"{len(problems)} violations:\n" + "\n".join(problems[:60])


def test_output_tabs_say_their_state_in_the_readers_language(fixture_survey):
    """A tab's state is shown by its icon only: the icon is an image named with the state."""
    seen, problems = 0, []
    for (page, lang), report in sorted(fixture_survey.items()):
        words = {text(lang, "tab_passed"), text(lang, "tab_parsed"), text(lang, "tab_failed")}
        for panel in report.dom["panels"]:
            for label, said in zip(panel["labels"], panel["label_icons"]):
                seen += 1
                if said not in words:
                    problems.append(f"{lang}/{page}: tab {label!r} says {said!r}, not one of {sorted(words)}")
    assert seen and not problems, problems


def test_every_chart_has_the_table_of_its_values(fixture_survey):
    """A chart is an image named with its title, and the figure holding it has the table of its values."""
    charts = [(key, svg) for key, report in sorted(fixture_survey.items()) for svg in report.dom["svgs"]
              if "ruota-chart" in svg["cls"]]
    assert {page for (page, _), _ in charts} == {"index.md", "verification-status.md"}
    assert not [f"{lang}/{page}: {svg['html']}" for (page, lang), svg in charts if svg["values"] < 1 or svg["role"] != "img"]


def _focus_before(page, selector: str) -> None:
    """Put the keyboard's focus just before the first ``selector``, as a reader tabbing through the page would."""
    page.locator(selector).first.evaluate("el => { el.tabIndex = -1; el.focus(); }")  # -1: out of the Tab order


def _tab_until(page, test_js: str, presses: int = 12) -> bool:
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(test_js):
            return True
    return False


@pytest.mark.parametrize("lang", LANGUAGES)
def test_output_tabs_and_outputs_work_with_the_keyboard(new_context, fixture_site, lang):
    """Tab reaches the output tabs (a visible focus), the arrow keys switch them, Tab then
    reaches the output itself (it scrolls: the fixture's measured block prints a line wider than
    the page), which is named for its machine, outlined, and scrolls with the arrow keys."""
    page = new_context(fixture_site).new_page()
    page.goto(fixture_site.href("index.md", lang))
    tabs = ".ruota-verify:has(.ruota-outputs > input:nth-of-type(2)):has-text('per_layer_ms')"
    assert page.locator(tabs).count(), "the fixture home page has no block with two output tabs"
    _focus_before(page, tabs)
    on_tabs = "() => document.activeElement.matches('.ruota-outputs > input[type=radio]:checked')"
    assert _tab_until(page, on_tabs), "Tab never reached the output tabs"
    first = page.evaluate("() => document.activeElement.id")
    label = page.locator(f"label[for='{first}']")
    assert label.evaluate("l => getComputedStyle(l).outlineStyle") != "none", "the focused tab shows no focus"

    page.keyboard.press("ArrowRight")
    second = page.evaluate("() => document.activeElement.id")
    assert second != first and page.locator(f"#{second}").is_checked()
    shown = page.locator(f"#{second} ~ .tabbed-content > .tabbed-block:nth-child(2)")
    assert shown.is_visible() and not page.locator(f"#{first} ~ .tabbed-content > .tabbed-block:nth-child(1)").is_visible()

    on_output = "() => document.activeElement.matches('pre.ruota-output')"
    assert _tab_until(page, on_output, 3), "Tab never reached the output the tab shows"
    focused = page.evaluate("""() => { const c = document.activeElement, s = getComputedStyle(c);
      return {role: c.getAttribute('role'), name: c.getAttribute('aria-label'), outline: s.outlineStyle,
              visible: c.closest('.tabbed-block').checkVisibility(), scrolls: c.scrollWidth > c.clientWidth}; }""")
    machine = page.locator(f"label[for='{second}']").evaluate(
        "l => { const c = l.cloneNode(true); c.querySelectorAll('svg').forEach(x => x.remove()); return c.textContent.trim(); }")
    assert focused == {"role": "region", "name": text(lang, "output_region", machine=machine), "outline": "solid",
                       "visible": True, "scrolls": True}
    before = page.evaluate("() => document.activeElement.scrollLeft")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("before => document.activeElement.scrollLeft > before", arg=before, timeout=2000)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_matrix_filter_announces_the_rows_left(new_context, site, lang):
    """Typing in the card matrix's filter hides rows and says how many are left, in a polite
    live region, in the reader's language."""
    page = new_context(site).new_page()
    page.goto(site.href("card-matrix.md", lang))
    field = page.locator(".ruota-matrix-filter")
    count = page.locator(".ruota-matrix-count")
    assert count.get_attribute("role") == "status" and count.get_attribute("aria-live") == "polite"
    total = page.locator("tr[data-filter]").count()
    assert total >= 2, "the matrix needs two rows for the filter to narrow"
    assert count.text_content() == text(lang, "matrix_filter_count", shown=total, total=total)
    _focus_before(page, ".ruota-card-matrix")
    assert _tab_until(page, "() => document.activeElement.matches('.ruota-matrix-filter')", 3)
    assert field.evaluate("f => getComputedStyle(f).outlineStyle") != "none", "the focused filter shows no focus"
    word = page.locator("tr[data-filter]").first.get_attribute("data-filter").split()[0]
    page.keyboard.type(word)
    left = page.locator("tr[data-filter]:not([hidden])").count()
    assert 0 < left <= total
    assert count.text_content() == text(lang, "matrix_filter_count", shown=left, total=total)
    page.keyboard.type(" no-such-card-anywhere")
    assert count.text_content() == text(lang, "matrix_filter_count", shown=0, total=total)


# -- a site that adopts the engine ---------------------------------------------------------------

def _own_site(work: Path, theme: dict) -> Path:
    """The authors' page's example site with ``theme``, and records of two machines so that its
    block shows output tabs."""
    root = work / "repo"
    shutil.copytree(OWN_SITE, root, ignore=shutil.ignore_patterns("case.yml"))
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    config["theme"] = theme
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    (root / "verification").mkdir()
    for machine in (RX7600, CPU):
        ledger_mod.write_atomic(root / "verification" / f"{machine['machine_id']}.json",
                               record_of(synthetic_record(root, machine)))
    return root


#: What the engine adds to a page: its requirement badges, panels, summary, banners, charts, tables.
ENGINE_PARTS = [".ruota-requires", ".ruota-verify", ".ruota-summary", ".ruota-banner", ".ruota-figure",
                ".ruota-card-matrix", ".ruota-status", ".ruota-chart-empty"]
#: Material's default colours (indigo), in its light and its dark scheme.
MATERIAL_DEFAULT = {"name": "material", "palette": [{"scheme": "default", "toggle": {"icon": "material/brightness-7", "name": "Dark"}},
                                                    {"scheme": "slate", "toggle": {"icon": "material/brightness-4", "name": "Light"}}]}


@pytest.mark.parametrize("theme", [MATERIAL_DEFAULT, {"name": "mkdocs"}], ids=["material", "mkdocs"])
def test_a_site_that_adopts_the_engine_passes_axe(tmp_path, browser, theme):
    """The engine's stylesheet on the example site, with Material's default palette (both
    schemes) and with the mkdocs theme: what the engine adds to the page has nothing serious or
    critical. (The themes' own colours are each site's to choose: the mkdocs theme's links are
    #2fa4e7 on white, 2.8:1, and Material's footer is 4.47:1, which this site's palette.css fixes.)"""
    root = _own_site(tmp_path, theme)
    with serve(build_site(root, tmp_path / "site"), root) as served:
        context = open_context(browser, served)
        try:
            page = context.new_page()
            page.goto(served.url + "/")
            # the two machines printed different lines: two tabs, two outputs, each named for its machine
            names = page.locator(".ruota-outputs pre.ruota-output[tabindex='0'][role=region]").evaluate_all(
                "codes => codes.map(c => c.getAttribute('aria-label'))")
            assert names == [text("en", "output_region", machine=m) for m in ("AMD Radeon RX 7600", "x86-64 CPU")]
            problems = [f"[light] {found}" for found in axe_audit(page, ENGINE_PARTS)]
            if theme["name"] == "material":
                page.emulate_media(color_scheme="dark")
                page.evaluate(SCHEME_JS, "slate")
                page.wait_for_function("() => getComputedStyle(document.body).backgroundColor !== 'rgb(255, 255, 255)'")
                problems += [f"[slate] {found}" for found in axe_audit(page, ENGINE_PARTS)]
        finally:
            context.close()
    assert not problems, "\n".join(problems)


def test_axe_finds_what_it_should(new_context, fixture_site):
    """The audit can fail: a low-contrast line, a scrolling box without focus and a faint token in
    a code block (where the audit samples one token per colour), added to a page that passes,
    are reported."""
    page = new_context(fixture_site).new_page()
    page.goto(fixture_site.href("index.md", "en"))
    assert not axe_audit(page)
    page.evaluate("""() => { const p = document.createElement('p'); p.id = 'faint-words'; p.textContent = 'faint words';
      p.style.color = '#bbbbbb'; document.querySelector('article').append(p);
      const box = document.createElement('pre'); box.style.cssText = 'height: 2em; overflow: auto';
      box.textContent = 'line\\n'.repeat(40); document.querySelector('article').append(box);
      const token = [...document.querySelectorAll('.highlight code span.n')].pop();
      token.id = 'faint-token'; token.style.color = '#808080'; }""")
    found = axe_audit(page)
    assert [f for f in found if f.startswith("color-contrast (serious): #faint-token:")], found
    assert [f for f in found if f.startswith("color-contrast (serious): #faint-words:")], found
    assert [f for f in found if f.startswith("scrollable-region-focusable")], found
    page.evaluate(SCHEME_JS, "slate")
    assert [f for f in axe_audit(page, colours_only=True) if "#faint-token" in f]
