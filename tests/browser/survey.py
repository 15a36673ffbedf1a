"""One visit per page and language, collecting everything the page-level tests assert.

Loading a page is the expensive part of a browser test, so each page is opened once:
what it requested and logged, its landmarks and head, the plugin's panels, contrast of
the verification colours and axe-core's WCAG 2.1 A/AA audit in the light and the dark
scheme, the print layout, overflow at desktop and phone widths, and (for guides)
full-page screenshots in both schemes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from browserkit import COPY_BUTTON, REVEAL_JS, axe_audit, contrast, parse_rgb, recorded_page

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
PRINTED = {"width": 720, "height": 1000}  #: an A4 page at 96 dpi, less its margins
MARK_STATES = ("passed", "failed", "skipped", "stale", "notrun", "never")

PAGE_JS = """() => {
  const out = {problems: []};
  out.lang = document.documentElement.getAttribute('lang');
  out.landmarks = {
    header: document.querySelectorAll('header, [role=banner]').length,
    nav: document.querySelectorAll('nav, [role=navigation]').length,
    main: document.querySelectorAll('main, [role=main]').length,
  };
  out.imgs_without_alt = [...document.querySelectorAll('img')].filter(i => !i.hasAttribute('alt')).map(i => i.src);
  out.svgs = [...document.querySelectorAll('svg.ruota-chart, .md-content svg:not([aria-hidden=true])')]
    .filter(svg => !svg.closest('[aria-hidden=true]') && !svg.closest('.md-code__nav'))
    .map(svg => ({
      cls: svg.getAttribute('class') || '',
      title: (svg.querySelector(':scope > title') || {textContent: ''}).textContent.trim(),
      role: svg.getAttribute('role') || '',
      label: (svg.getAttribute('aria-label') || '').trim(),
      html: svg.outerHTML.slice(0, 90),
      // the chart's text alternative: the table of its values, in the same figure
      values: svg.closest('figure') ? svg.closest('figure').querySelectorAll('table tbody tr').length : 0,
    }));
  out.alternates = Object.fromEntries([...document.querySelectorAll('link[rel=alternate][hreflang]')]
    .map(l => [l.getAttribute('hreflang'), l.href]));
  out.switcher = Object.fromEntries([...document.querySelectorAll('.md-select__link[hreflang]')]
    .map(a => [a.getAttribute('hreflang'), a.href]));
  out.plugin_text = [...document.querySelectorAll(
      '.ruota-summary, .ruota-banner, .ruota-requires, .ruota-verify, .ruota-status, .ruota-figure, .ruota-chart-empty')]
    .map(e => { const c = e.cloneNode(true); c.querySelectorAll('pre, code').forEach(x => x.remove()); return c.textContent; })
    .join('\\n');
  const isCode = e => !!e && e.matches('.highlight, [class*="language-"]');
  out.panels = [...document.querySelectorAll('.ruota-verify')].map(v => ({
    cls: v.className,
    after_code: isCode(v.previousElementSibling),
    marks: [...v.querySelectorAll('.ruota-marks > li')].map(li => [li.className, li.textContent.trim()]),
    // the words of each tab; its icon's name (the state) apart
    labels: [...v.querySelectorAll('.ruota-outputs > .tabbed-labels > label')].map(l => {
      const c = l.cloneNode(true); c.querySelectorAll('svg').forEach(x => x.remove()); return c.textContent.trim(); }),
    label_icons: [...v.querySelectorAll('.ruota-outputs > .tabbed-labels > label')]
      .map(l => [...l.querySelectorAll('svg[role=img]')].map(x => x.getAttribute('aria-label')).join(' ')),
    outputs: [...v.querySelectorAll('.ruota-outputs > .tabbed-content > .tabbed-block')].map(b => b.textContent),
  }));
  out.requires = [...document.querySelectorAll('.ruota-requires')].map(r => ({
    before_code: isCode(r.nextElementSibling),
    badges: [...r.querySelectorAll('.ruota-badge')].map(b => b.textContent.trim()),
  }));
  return out;
}"""

LAYOUT_JS = """() => {
  const root = document.documentElement;
  const out = {overflow: root.scrollWidth - root.clientWidth, badges: [], wide: []};
  for (const b of document.querySelectorAll('.ruota-badge')) {
    const lines = new Set([...b.getClientRects()].map(r => Math.round(r.top)));
    const box = b.getBoundingClientRect(), holder = b.closest('.md-content').getBoundingClientRect();
    if (lines.size > 1) out.badges.push(`badge ${JSON.stringify(b.textContent)} breaks across ${lines.size} lines`);
    if (box.right > holder.right + 1) out.badges.push(`badge ${JSON.stringify(b.textContent)} sticks out of the content`);
  }
  for (const chart of document.querySelectorAll('svg.ruota-chart')) {
    const heights = [...chart.querySelectorAll('text')].map(t => t.getBoundingClientRect().height).filter(h => h > 0);
    if (heights.length && Math.min(...heights) < 9) out.wide.push(`chart ${JSON.stringify(chart.getAttribute('aria-label'))}: text ${Math.min(...heights).toFixed(1)} px high, too small to read`);
    const width = chart.viewBox.baseVal.width;
    for (const t of chart.querySelectorAll('text')) {
      const box = t.getBBox();
      if (box.width && (box.x < -0.5 || box.x + box.width > width + 0.5)) {
        out.wide.push(`chart ${JSON.stringify(chart.getAttribute('aria-label'))}: ${JSON.stringify(t.textContent)} is cut at the edge (x ${box.x.toFixed(0)} to ${(box.x + box.width).toFixed(0)} of ${width})`);
        break;
      }
    }
  }
  const content = document.querySelector('.md-content');
  if (content) {
    const limit = content.getBoundingClientRect().right + 1;
    for (const e of content.querySelectorAll('table, .ruota-figure, .ruota-verify, .ruota-requires, .ruota-summary, .admonition')) {
      const r = e.getBoundingClientRect();
      if (r.width && r.right > limit && !e.closest('.md-typeset__scrollwrap, .highlight')) out.wide.push(`${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ends at ${Math.round(r.right)} > ${Math.round(limit)}`);
    }
  }
  return out;
}"""

# Colours of every verification mark on the page, plus one probe per state, against the
# background actually painted behind each (transparent layers composited).
CONTRAST_JS = """(states) => {
  const host = document.querySelector('article.md-content__inner') || document.body;
  const probe = document.createElement('ul');
  probe.className = 'ruota-marks ruota-contrast-probe';
  probe.innerHTML = states.map(s => `<li class="ruota-mark-${s}"><span>probe ${s}</span></li>`).join('');
  host.appendChild(probe);
  const parse = c => { const m = c.match(/[\\d.]+/g).map(Number); return c.startsWith('color(') ? [m[0]*255, m[1]*255, m[2]*255, m.length > 3 ? m[3] : 1] : [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, bottom) => { const a = top[3]; return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)).concat([1]); };
  const background = el => {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const found = [];
  for (const el of document.querySelectorAll('.ruota-marks > li, .ruota-summary, .ruota-count')) {
    const bg = background(el);
    const fg = over(parse(getComputedStyle(el).color), bg);
    const probeOf = el.closest('.ruota-contrast-probe') ? 'probe ' : '';
    found.push({what: probeOf + el.className, text: el.textContent.trim().slice(0, 50), fg, bg});
  }
  probe.remove();
  return {scheme: document.body.getAttribute('data-md-color-scheme'), found};
}"""

# Material's own palette toggle sets data-md-color-scheme on <body> (and remembers it).
SCHEME_JS = """(scheme) => {
  const input = document.querySelector(`input.md-option[data-md-color-scheme="${scheme}"]`);
  if (input && !input.checked) input.click();
  else if (!input) document.body.setAttribute('data-md-color-scheme', scheme);
}"""

PRINT_JS = """() => {
  const shown = e => { const s = getComputedStyle(e), r = e.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0; };
  const out = [];
  for (const sel of ['.md-header', '.md-sidebar--primary', '.md-sidebar--secondary', '.md-footer', '.md-search', '.md-top'])
    for (const e of document.querySelectorAll(sel)) if (shown(e)) out.push(`${sel} is printed`);
  // the page's code blocks, and of each output the first tab (the others are not printed)
  const codes = [...document.querySelectorAll('.md-content pre > code')].filter(c => !c.closest('.ruota-outputs'))
    .concat([...document.querySelectorAll('.ruota-outputs > .tabbed-content > .tabbed-block:first-child pre > code')]);
  for (const c of codes) {
    if (!shown(c)) out.push(`a code block is not printed: ${c.textContent.slice(0, 40)}`);
    else if (c.scrollWidth > c.clientWidth + 1) out.push(`printed code is cut at the right edge: ${c.textContent.split('\\n').sort((a, b) => b.length - a.length)[0].slice(0, 60)}`);
  }
  for (const m of document.querySelectorAll('.ruota-marks')) if (!shown(m)) out.push(`verification marks are not printed: ${m.textContent.trim().slice(0, 40)}`);
  return {problems: out, codes: codes.length, marks: document.querySelectorAll('.ruota-marks').length};
}"""


# For each block index: show the block, press its copy button, read the clipboard.
COPY_JS = """async ({indices, selector}) => {
  const reveal = """ + REVEAL_JS + """;
  const copied = {};
  for (const index of indices) {
    // each block's panel carries its index (outputs and diagrams have none)
    const panel = document.getElementById(`ruota-block-${index}`);
    const box = panel && panel.previousElementSibling;
    const buttons = box ? box.querySelectorAll(selector) : [];
    if (buttons.length !== 1) { copied[index] = {error: `${buttons.length} copy buttons`}; continue; }
    reveal(box);
    await navigator.clipboard.writeText('<nothing copied>');
    buttons[0].click();
    let text = '<nothing copied>';
    for (let waited = 0; text === '<nothing copied>' && waited < 2000; waited += 20) {
      await new Promise(r => setTimeout(r, 20));
      text = await navigator.clipboard.readText();
    }
    copied[index] = {text};
  }
  return copied;
}"""


@dataclass
class PageReport:
    page: str
    lang: str
    url: str
    problems: list[str] = field(default_factory=list)  #: requests and console
    requests: list[str] = field(default_factory=list)
    dom: dict = field(default_factory=dict)  #: PAGE_JS
    layout: dict = field(default_factory=dict)  #: viewport name → LAYOUT_JS
    contrast: dict = field(default_factory=dict)  #: scheme → [(what, text, ratio)]
    printed: dict = field(default_factory=dict)  #: PRINT_JS
    screenshots: list[Path] = field(default_factory=list)
    backgrounds: dict = field(default_factory=dict)  #: scheme → <body> background (0–255 RGBA)
    copied: dict = field(default_factory=dict)  #: block index → {"text": clipboard} or {"error": …}
    axe: dict = field(default_factory=dict)  #: scheme → serious and critical violations (browserkit.axe_audit)
    colours_audited: bool = True  #: whether the audit included the colour rules (else the source's copy has them)
    axe_seconds: float = 0.0  #: what the audit took on this page, both schemes


def _contrasts(page) -> tuple[str, list]:
    data = page.evaluate(CONTRAST_JS, list(MARK_STATES))
    return data["scheme"], [(f["what"], f["text"], round(contrast(f["fg"], f["bg"]), 2)) for f in data["found"]]


def survey(context, site, pages: list[tuple[str, str]], shots: set[tuple[str, str]], shot_dir: Path,
           copies: dict | None = None, colours_in: set[str] | None = None) -> dict:
    """Visit each ``(page, lang)`` once; screenshot those in ``shots`` into ``shot_dir``;
    press the copy button of the blocks ``copies[(page, lang)]`` lists (block indices).

    ``colours_in``: the languages whose copies axe-core's colour rules audit, in both schemes (None: all).
    Colours come from the stylesheets and the markup, which the copies of a page share (`ruota-docs i18n
    check` compares their structure), and the colour rules are most of axe-core's time: the other copies
    get every other rule, in the light scheme."""
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.origin)
    page, recorder = recorded_page(context, site)
    reports = {}
    for path, lang in pages:
        report = PageReport(path, lang, site.href(path, lang), colours_audited=colours_in is None or lang in colours_in)
        recorder.clear()
        page.set_viewport_size(DESKTOP)
        page.emulate_media(media="screen", color_scheme="light")
        page.goto(report.url, wait_until="load")
        report.dom = page.evaluate(PAGE_JS)
        report.layout["desktop"] = page.evaluate(LAYOUT_JS)
        for scheme, media in (("default", "light"), ("slate", "dark")):
            page.emulate_media(color_scheme=media)
            page.wait_for_timeout(20)  # Material re-reads its palette when the media query changes
            page.evaluate(SCHEME_JS, scheme)
            page.wait_for_function("s => document.body.getAttribute('data-md-color-scheme') === s && !document.body.hasAttribute('data-md-color-switching')", arg=scheme, timeout=3000)
            report.backgrounds[scheme] = parse_rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
            found_scheme, values = _contrasts(page)
            report.contrast[scheme] = values if found_scheme == scheme else [("scheme", f"data-md-color-scheme is {found_scheme}", 0.0)]
            # the page whole in the light scheme; in the dark one what colours can change
            started = time.monotonic()
            if colours_in is None or lang in colours_in:
                report.axe[scheme] = axe_audit(page, colours_only=scheme != "default")
            elif scheme == "default":
                report.axe[scheme] = axe_audit(page, colours=False)
            report.axe_seconds += time.monotonic() - started
            if (path, lang) in shots:
                target = shot_dir / lang / f"{path[:-3].replace('/', '-')}-{'light' if media == 'light' else 'dark'}.jpg"
                target.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(target), full_page=True, type="jpeg", quality=80)  # PNG: 1.7× the time
                report.screenshots.append(target)
        page.evaluate(SCHEME_JS, "default")
        page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'default'", timeout=3000)
        indices = (copies or {}).get((path, lang))
        if indices:
            # the way a reader gets there: the pointer over the code shows the button
            page.locator(".ruota-verify").nth(indices[0]).locator("xpath=preceding-sibling::*[1]").hover()
            report.copied = {int(k): v for k, v in page.evaluate(COPY_JS, {"indices": indices, "selector": COPY_BUTTON}).items()}
        page.set_viewport_size(PRINTED)
        page.emulate_media(media="print", color_scheme="light")
        report.printed = page.evaluate(PRINT_JS)
        page.emulate_media(media="screen")
        page.set_viewport_size(PHONE)
        report.layout["phone"] = page.evaluate(LAYOUT_JS)
        # last, so what the visit itself set off is heard too; by now the page is usually quiet
        recorder.settle(page)
        report.problems = recorder.problems()
        report.requests = list(recorder.requests)
        reports[(path, lang)] = report
    page.close()
    return reports
