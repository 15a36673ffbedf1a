"""HTML fragments the plugin puts into pages, in the reader's language."""

from __future__ import annotations

import html
from collections import Counter

from babel import Locale

from . import charts, formatting
from .locales import LANGUAGE_NAMES, text
from .marks import Verdict, machine_label
from .requirements import OS_LABELS

_ICONS = {
    # Material Design Icons (Apache 2.0), inlined so pages load nothing from elsewhere.
    "passed": "M12 2C6.5 2 2 6.5 2 12S6.5 22 12 22 22 17.5 22 12 17.5 2 12 2M10 17L5 12L6.41 10.59L10 14.17L17.59 6.58L19 8L10 17Z",
    "failed": "M12 2C17.53 2 22 6.47 22 12S17.53 22 12 22 2 17.53 2 12 6.47 2 12 2M15.59 7L12 10.59L8.41 7L7 8.41L10.59 12L7 15.59L8.41 17L12 13.41L15.59 17L17 15.59L13.41 12L17 8.41L15.59 7Z",
    "skipped": "M12 2A10 10 0 0 0 2 12A10 10 0 0 0 12 22A10 10 0 0 0 22 12A10 10 0 0 0 12 2M7 13V11H17V13H7Z",
    "stale": "M12 20A8 8 0 0 0 20 12A8 8 0 0 0 12 4A8 8 0 0 0 4 12A8 8 0 0 0 12 20M12 2A10 10 0 0 1 22 12A10 10 0 0 1 12 22C6.47 22 2 17.5 2 12A10 10 0 0 1 12 2M12.5 7V12.25L17 14.92L16.25 16.15L11 13V7H12.5Z",
}
_ICONS["never"] = _ICONS["stale"]
_ICONS["notrun"] = _ICONS["skipped"]


def icon(state: str) -> str:
    return (f'<svg class="ruota-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">'
            f'<path d="{_ICONS[state]}"/></svg>')


def requirement_label(term, lang: str) -> str:
    """A short badge text for one requirement term."""
    name, values = term.name, term.values
    fixed = {"gpu": "GPU", "rocm": "ROCm", "cuda": "CUDA", "cpu": "CPU", "network": text(lang, "network")}
    if name in fixed:
        return fixed[name]
    if name == "arch":
        return " / ".join(values)
    if name == "os":
        return " / ".join(OS_LABELS[v] for v in values)
    if name == "vram":
        return f"VRAM ≥ {values[0].replace('GiB', ' GiB').replace('MiB', ' MiB')}"
    if name == "import":
        return " + ".join(values)
    return f"{name} ≥ {values[0]}"


def badges(block, lang: str) -> str:
    """The requirement badges shown above a block ('' when it has none)."""
    labels = [requirement_label(t, lang) for t in block.requirements]
    if block.kind == "windows" and not any(t.name == "os" for t in block.requirements):
        labels.insert(0, text(lang, "windows_only"))
    if not labels:
        return ""
    # Spaces between the spans (a flex row ignores them) keep the words apart where the
    # text is read without styles: the search index, copy and paste, plain-text readers.
    spans = " ".join(f'<span class="ruota-badge">{html.escape(label)}</span>' for label in labels)
    return (f'<div class="ruota-requires" role="note"><span class="ruota-requires-label">'
            f'{html.escape(text(lang, "requires"))}</span> {spans}</div>')


def localised_reason(block, reason: str, lang: str) -> str:
    """A requirement skip in the reader's language, naming the unmet terms as badges do.

    The record keeps the engine's English reason (``requires ROCm; this machine: …``);
    the terms it names are the block's own, so they can be said in any language.
    """
    if not reason.startswith("requires "):
        return reason
    unmet = [t for t in block.requirements if t.describe() in reason.split(";")[0]]
    if block.kind == "windows" and "Windows" in reason and not unmet:
        return text(lang, "needs", what=text(lang, "windows_only"))
    if not unmet:
        return reason
    return text(lang, "needs", what=", ".join(requirement_label(t, lang) for t in unmet))


def _machines(results) -> str:
    return ", ".join(r.label for r in results)


def _latest(results) -> str | None:
    stamps = [r.entry.get("ran_at") for r in results if r.entry and r.entry.get("ran_at")]
    return max(stamps) if stamps else None


def mark(block, verdict: Verdict, lang: str) -> str:
    """The small verification mark under a block: one line per kind of result."""
    lines = []
    if block.not_run_reason is not None:
        lines.append(("notrun", text(lang, "not_run", reason=block.not_run_reason)))
    for state, key in (("failed", "failed_on"), ("passed", "verified_on")):
        results = verdict.by_state(state)
        if results:
            lines.append((state, text(lang, key, machines=_machines(results), date=formatting.date(_latest(results), lang))))
    skipped = verdict.by_state("skipped")
    if skipped and block.not_run_reason is None:
        reasons = Counter((r.entry or {}).get("reason") or "" for r in skipped)
        for reason in reasons:
            machines = [r for r in skipped if ((r.entry or {}).get("reason") or "") == reason]
            words = text(lang, "skipped_on", machines=_machines(machines), reason=localised_reason(block, reason, lang))
            lines.append(("skipped", words))
    if not verdict.by_state("passed") and not verdict.by_state("failed") and block.not_run_reason is None:
        if verdict.by_state("stale"):
            lines.append(("stale", text(lang, "stale")))
        elif not skipped:
            lines.append(("never", text(lang, "never")))
    items = "".join(
        f'<li class="ruota-mark-{state}">{icon(state)}<span>{html.escape(words)}</span></li>' for state, words in lines
    )
    return f'<ul class="ruota-marks">{items}</ul>'


def output_tabs(verdict: Verdict, lang: str, uid: str) -> str:
    """Tabs with what the block printed on each machine where it ran."""
    shown = [r for r in verdict.results if r.state in ("passed", "failed") and r.entry]
    if not shown:
        return ""
    inputs, labels, blocks = [], [], []
    for n, result in enumerate(shown, 1):
        entry = result.entry
        tab_id = f"__ruota_{uid}_{n}"
        checked = ' checked="checked"' if n == 1 else ""
        inputs.append(f'<input{checked} id="{tab_id}" name="__ruota_{uid}" type="radio">')
        labels.append(f'<label for="{tab_id}">{icon(result.state)}{html.escape(result.label)}</label>')
        body = entry.get("output") or ""
        if result.state == "failed" and entry.get("error"):
            body = (body + "\n" if body else "") + entry["error"]
        took = entry.get("duration") or 0
        # a block that ran in under 5 ms is not "0 s": say it took less than 0.01 s
        took = formatting.seconds(took, lang) if took >= 0.005 else "< " + formatting.number(0.01, lang)
        meta = [formatting.date(entry.get("ran_at"), lang), text(lang, "duration", seconds=took)]
        if entry.get("as_root"):  # what a permission check printed there is not what readers get
            meta.append(text(lang, "ran_as_root"))
        if entry.get("reused_from"):
            other = entry["reused_from"].split("/", 1)[0]
            meta.append(text(lang, "credited", language=LANGUAGE_NAMES.get(lang, LANGUAGE_NAMES["en"]).get(other, other)))
        content = (f'<pre class="ruota-output"><code>{html.escape(body)}</code></pre>' if body.strip()
                   else f'<p class="ruota-output-empty">{html.escape(text(lang, "no_output"))}</p>')
        blocks.append(f'<div class="tabbed-block">{content}<p class="ruota-output-meta">{html.escape(" · ".join(meta))}</p></div>')
    return (f'<div class="tabbed-set tabbed-alternate ruota-outputs" data-tabs="{uid}:{len(shown)}">'
            + "".join(inputs)
            + f'<div class="tabbed-labels" aria-label="{html.escape(text(lang, "output_on"))}">' + " ".join(labels) + "</div>"
            + '<div class="tabbed-content">' + "".join(blocks) + "</div></div>")


def block_panel(block, verdict: Verdict, lang: str, uid: str) -> str:
    state = "notrun" if block.not_run_reason is not None else verdict.state
    # the id (the block's index) lets the card matrix link to the block's verification
    return (f'<div class="ruota-verify ruota-state-{state}" id="ruota-block-{uid}">'
            f'{mark(block, verdict, lang)}{output_tabs(verdict, lang, uid)}</div>')


def page_summary(blocks_verdicts, lang: str) -> str:
    """The one line at the top of a page."""
    total = len(blocks_verdicts)
    if not total:
        return ""
    counts = Counter("notrun" if b.not_run_reason is not None else v.state for b, v in blocks_verdicts)
    machines = {r.machine_id for _, v in blocks_verdicts for r in v.results if r.state == "passed"}
    stamps = [r.entry["ran_at"] for _, v in blocks_verdicts for r in v.results if r.entry and r.entry.get("ran_at")]
    if counts["passed"] == 0 and counts["failed"] == 0:
        parts = [text(lang, "summary_none")]
    else:
        parts = [text(lang, "summary", passed=counts["passed"], total=total, machines=len(machines),
                      date=formatting.date(max(stamps) if stamps else None, lang))]
    if counts["failed"]:
        parts.append(text(lang, "summary_failed", failed=counts["failed"]))
    pending = counts["stale"] + counts["never"]
    if pending:
        parts.append(text(lang, "summary_pending", pending=pending))
    if counts["skipped"] + counts["notrun"]:
        parts.append(text(lang, "summary_skipped", skipped=counts["skipped"] + counts["notrun"]))
    state = "failed" if counts["failed"] else ("passed" if counts["passed"] and not pending else "stale")
    return f'<p class="ruota-summary ruota-state-{state}">{icon(state)}<span>{html.escape(" ".join(parts))}</span></p>'


def chart(options: dict, entries_by_machine: list[tuple[dict, list[dict]]], lang: str) -> str:
    """A ``chart:`` directive: a table and an SVG bar chart of recorded metrics."""
    metrics = [m for m in str(options.get("metrics", "")).split(",") if m]
    unit = str(options.get("unit", ""))
    title = str(options.get("title", ", ".join(metrics)))
    fmt = lambda v: formatting.number(v, lang)  # noqa: E731
    groups, rows = [], []
    for machine, entries in entries_by_machine:
        values = []
        for name in metrics:
            value = next((charts.metric(e.get("output"), name) for e in entries if e["outcome"] == "passed"
                          and charts.metric(e.get("output"), name) is not None), None)
            values.append((name if len(metrics) > 1 else "", value, "measured"))
        if any(v is not None for _, v, _ in values):
            groups.append((machine_label(machine), values))
            rows.append((machine_label(machine), text(lang, "chart_measured"), [v for _, v, _ in values]))
    for item in str(options.get("reported", "")).split(";"):
        label, sep, value = item.rpartition("=")
        if sep and label.strip():
            try:
                number = float(value.strip().replace(",", "."))
            except ValueError:
                raise ValueError(f"reported value {value.strip()!r} for {label.strip()!r} is not a number") from None
            groups.append((label.strip(), [("", number, "reported")]))
            rows.append((label.strip(), text(lang, "chart_reported"), [number]))
    if not groups:
        return f'<p class="ruota-chart-empty">{html.escape(text(lang, "chart_none", metrics=", ".join(metrics)))}</p>'
    head = "".join(f"<th>{html.escape(m)}{' (' + html.escape(unit) + ')' if unit else ''}</th>" for m in metrics)
    body = "".join(
        f"<tr><td>{html.escape(label)}</td><td>{html.escape(kind)}</td>"
        + "".join(f'<td class="ruota-num">{fmt(v) if v is not None else "—"}</td>' for v in values)
        + "</tr>" for label, kind, values in rows
    )
    table = (f'<div class="md-typeset__scrollwrap"><div class="md-typeset__table ruota-chart-table"><table><thead><tr><th>{html.escape(text(lang, "machine"))}</th><th></th>{head}</tr></thead>'
             f"<tbody>{body}</tbody></table></div></div>")
    svg = charts.bar_chart(title, groups, unit, fmt)
    # data-search-exclude: Material's search would index the chart's labels and the table's
    # cells run together ("CPU x86_64 · measured30,5 s"); the page's prose says what it shows.
    return (f'<div data-search-exclude><figure class="ruota-figure">{svg}<figcaption>{html.escape(title)}</figcaption>'
            f'{table}</figure></div>')


def _count_of_blocks(value: float, lang: str) -> str:
    """``1 block`` / ``2 blocks``, ``0 bloc`` in French: the language's own plural rule."""
    one = Locale.parse(lang).plural_form(int(value)) == "one"
    return f"{formatting.number(value, lang, 0)} {text(lang, 'block' if one else 'blocks')}"


def status_page(pages: list[tuple[str, str, list]], ledgers: list[dict], lang: str) -> str:
    """The generated verification status: every page, every machine, the machines' descriptions.

    ``pages`` holds ``(title, url, [(block, verdict), …])`` for the reader's language.
    """
    machines = [(d.get("machine_id"), machine_label(d.get("machine", {}))) for d in ledgers]
    # Outcomes per machine over every page of this language.
    totals = {mid: Counter() for mid, _ in machines}
    for _, _, items in pages:
        for _, v in items:
            for r in v.results:
                totals[r.machine_id][r.state] += 1
    groups = [(label, [(text(lang, s), float(totals[mid][s]), s) for s in ("passed", "failed", "skipped")])
              for mid, label in machines]
    svg = charts.bar_chart(text(lang, "outcomes_chart"), groups, "", lambda v: _count_of_blocks(v, lang)) if groups else ""
    head = "".join(f"<th>{html.escape(label)}</th>" for _, label in machines)
    rows = []
    for title, url, items in pages:
        cells = []
        for mid, _ in machines:
            c = Counter(r.state for _, v in items for r in v.results if r.machine_id == mid)
            parts = [f'<span class="ruota-count ruota-mark-{s}">{icon(s)}{c[s]}</span>' for s in ("passed", "failed", "skipped") if c[s]]
            pending = c["stale"] + c["absent"]
            if pending:
                parts.append(f'<span class="ruota-count ruota-mark-stale" title="{html.escape(text(lang, "stale_col"))}">{icon("stale")}{pending}</span>')
            cells.append(f"<td>{' '.join(parts) or '—'}</td>")
        rows.append(f'<tr><td><a href="{html.escape(url)}">{html.escape(title)}</a></td><td class="ruota-num">{len(items)}</td>{"".join(cells)}</tr>')
    table = (f'<div class="md-typeset__scrollwrap"><div class="md-typeset__table ruota-status-table"><table><thead><tr><th>{html.escape(text(lang, "page"))}</th>'
             f'<th>{html.escape(text(lang, "blocks"))}</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div></div>')
    described = []
    for data in ledgers:
        m = data.get("machine", {})
        versions = ", ".join(f"{k} {v}" for k, v in sorted((m.get("packages") or {}).items()))
        extra = ", ".join(x for x in (m.get("hip") and f"HIP {m['hip']}", m.get("cuda") and f"CUDA {m['cuda']}") if x)
        system = f"{m.get('os')} {m.get('machine')}"
        facts = " · ".join(x for x in (system, f"Python {m.get('python')}", extra, versions) if x)
        gpu = str(m.get("gpu_name") or "—") + (f" · {m['arch']}" if m.get("arch") else "")
        described.append(
            f"<tr><td>{html.escape(machine_label(m))}</td><td>{html.escape(str(m.get('backend')))}</td>"
            f"<td>{html.escape(gpu)}</td><td>{html.escape(facts)}</td>"
            f"<td>{formatting.date(data.get('updated'), lang)}</td></tr>"
        )
    machines_table = (f'<div class="md-typeset__scrollwrap"><div class="md-typeset__table ruota-machines"><table><thead><tr><th>{html.escape(text(lang, "machine"))}</th><th>{html.escape(text(lang, "backend"))}</th>'
                      f'<th>{html.escape(text(lang, "gpu"))}</th><th>{html.escape(text(lang, "versions"))}</th><th>{html.escape(text(lang, "updated"))}</th></tr></thead>'
                      f'<tbody>{"".join(described)}</tbody></table></div></div>')
    figure = f'<figure class="ruota-figure">{svg}<figcaption>{html.escape(text(lang, "outcomes_chart"))}</figcaption></figure>' if svg else ""
    return f'<div class="ruota-status" data-search-exclude>{figure}{table}{machines_table}</div>'
