"""Moving around: the language selector keeps the page and the section (at the root and
under a sub-path), the keyboard reaches everything and shows where it is. Search has
its own file (test_search.py)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from browserkit import LANGUAGES, SOURCE, recorded_page

PINNED = re.compile(r"^##+ .*\{\s*#([A-Za-z0-9_-]+)\s*\}\s*$", re.MULTILINE)


def _pinned_ids(site, page: str, lang: str) -> list[str]:
    return PINNED.findall(site.source(page, lang))


def _switch_page(site) -> tuple[str, str]:
    """A guide with a pinned heading id present in every language (a heading far down the
    page, so landing on it means something); any page with one if no guide has it yet."""
    for group in ([p for p in site.guides() if p != "guides/index.md"], site.pages()):
        shared = {page: [i for i in _pinned_ids(site, page, SOURCE) if all(i in _pinned_ids(site, page, lang) for lang in LANGUAGES)]
                  for page in group}
        page = max(sorted(shared), key=lambda p: len(shared[p]), default=None)
        if page and shared[page]:
            return page, shared[page][len(shared[page]) // 2]
    pytest.skip("no page has a pinned ## heading id in every language yet")


@pytest.mark.parametrize("which", ["site", "subpath_site"])
@pytest.mark.parametrize("cycle", [("es", "en", "fr", "es"), ("es", "fr", "en", "es")], ids=["es-en-fr-es", "es-fr-en-es"])
def test_language_selector_keeps_page_and_section(request, new_context, which, cycle):
    site = request.getfixturevalue(which)
    page_path, anchor = _switch_page(site)
    context = new_context(site)
    page, recorder = recorded_page(context, site)
    page.goto(site.href(page_path, cycle[0]) + "#" + anchor)
    for here, there in zip(cycle, cycle[1:]):
        assert page.url.split("#")[0] == site.href(page_path, here)
        page.hover(".md-header .md-select")
        link = page.locator(f".md-header .md-select__link[hreflang='{there}']")
        with page.expect_navigation():
            link.click()
        where = urlsplit(page.url)
        assert page.url.split("#")[0] == site.href(page_path, there), f"{here}→{there}: landed on {page.url}"
        assert where.fragment == anchor, f"{here}→{there}: the section #{anchor} was lost ({page.url})"
        heading = page.locator(f"[id='{anchor}']")
        assert heading.count() == 1, f"{there}/{page_path} has no #{anchor}"
        assert page.evaluate("document.documentElement.lang") == there
        top = heading.evaluate("e => e.getBoundingClientRect().top")
        assert 0 <= top < page.viewport_size["height"] - 40, f"{here}→{there}: #{anchor} is not in view (top={top})"
    assert not recorder.problems(navigated=True), recorder.problems(navigated=True)


# How an element shows focus: its outline, shadow, colours, border ("visual"), or, for an
# element with no visible peer (the skip link), by appearing at all ("presence"). Each
# stop of the Tab key is compared with the same element before any focus (recorded at
# load) and after focus left it. A link that only appears with its siblings (a language
# in the opened selector) must still look different from them: the visual part counts.
LOOK_JS = """
window.__look = el => {
  const target = (el.getBoundingClientRect().width * el.getBoundingClientRect().height === 0 && el.id)
    ? (document.querySelector(`label[for="${el.id}"]:not([hidden])`) || el) : el;
  const s = getComputedStyle(target), r = target.getBoundingClientRect();
  const outline = s.outlineStyle === 'none' || parseFloat(s.outlineWidth) === 0 ? 'none' : `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`;
  return {
    visual: [outline, s.boxShadow, s.backgroundColor, s.color, s.textDecorationLine, s.borderColor].join('|'),
    presence: [s.transform, s.opacity, s.visibility, Math.round(r.left), Math.round(r.top)].join('|'),
  };
};
window.__rest = new Map([...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
  .map(el => [el, window.__look(el)]));
"""

FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const shown = e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth && s.visibility !== 'hidden'; };
  const visible = shown(el), focused = window.__look(el);
  const peers = el.classList.length ? [...document.querySelectorAll('.' + CSS.escape(el.classList[0]))].filter(p => p !== el && shown(p)) : [];
  el.blur();
  const blurred = window.__look(el);
  el.focus();
  const rest = window.__rest.get(el) || blurred;
  const differs = key => focused[key] !== blurred[key] || focused[key] !== rest[key];
  return {
    tag: el.tagName.toLowerCase(), cls: String(el.className || ''), text: (el.textContent || el.placeholder || '').trim().slice(0, 40),
    visible, shows_focus: differs('visual') || (peers.length === 0 && differs('presence')),
    focus_visible: el.matches(':focus-visible'),
  };
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_keyboard_reaches_skip_link_search_and_navigation_with_visible_focus(site, new_context, lang):
    page_path = next((p for p in site.guides() if p != "guides/index.md"), "index.md")
    page = new_context(site).new_page()
    page.goto(site.href(page_path, lang))
    # Focus styles are compared at rest: transitions would hide them for a quarter second.
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; animation: none !important; }")
    page.evaluate(LOOK_JS)
    stops = []
    for _ in range(80):
        page.keyboard.press("Tab")
        page.wait_for_timeout(30)  # Material reacts to focus (opens search, a select) in a task
        stop = page.evaluate(FOCUS_JS)
        if stop:
            stops.append(stop)
        if any("md-nav__link" in s["cls"] for s in stops) and any("md-search__input" in s["cls"] for s in stops):
            break
    assert stops and "md-skip" in stops[0]["cls"], f"the first Tab does not reach the skip link: {stops[:1]}"
    assert stops[0]["visible"], "the focused skip link is not on screen"
    assert any("md-search__input" in s["cls"] for s in stops), "Tab never reaches the search field"
    assert any("md-nav__link" in s["cls"] for s in stops), "Tab never reaches the navigation"
    unseen = [s for s in stops if s["visible"] and not (s["shows_focus"] and s["focus_visible"])]
    assert not unseen, f"focus is not visible on: {unseen}"
