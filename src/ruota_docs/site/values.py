"""Measured numbers written into sentences: ``<!-- value: block=ID metric=NAME -->``.

Written inline in prose, the directive becomes the value that block printed as a metric
line (``NAME: value``, the lines charts read) for its current code, formatted for the
reader's language, and only one: measured on the card the guide is about where it has
been, else on a GPU, else on the CPU, with that machine and the date —
"67,2 MiB (NVIDIA H200, 1 dic 2026)". The other machines' values are in its tooltip,
identical ones counted once, so the sentence reads the same with two records or a thousand.
Options: ``unit=`` (shown after the number, in the reader's units: Mio in French),
``digits=`` (decimals; default: as printed). A value no record holds yet is shown as a
visible "not measured yet" mark, and ``ruota-docs status --strict`` fails.
"""

from __future__ import annotations

import html
import re

from ruota_docs.site import charts, formatting, groups
from ruota_docs.site.locales import text
from ruota_docs.records.verdicts import MachineResult, Verdict
from ruota_docs.blocks.value_directive import Value, ValueDirectiveError, in_text, parse

def measured(value: Value, verdict: Verdict | None) -> list[tuple[MachineResult, float, str]]:
    """``(result, number, as printed)`` on each machine that printed it for the current code."""
    result, read = [], {}  # machines that printed the same output: it is read once
    for machine in verdict.by_state("passed") if verdict else []:
        output = machine.entry.output if machine.entry is not None else None
        if output not in read:
            printed = charts.metric_text(output, value.metric)
            read[output] = (float(printed), printed) if printed is not None else None
        if read[output] is not None:
            result.append((machine, *read[output]))
    return result


def _short(result: MachineResult) -> str:
    """The machine as a sentence names it in passing: its GPU, else its CPU."""
    machine = result.machine
    return str(machine.get("gpu_name") or f"CPU {machine.get('machine', '')}".strip())


def render(value: Value, verdict: Verdict | None, lang: str, page: str = "") -> str:
    """The sentence fragment a value directive becomes: one value — measured on the card
    ``page`` is about where it has been, else on a GPU, else on the CPU — with that machine
    and the date; the other machines' values in the tooltip (identical ones counted once)."""
    found = measured(value, verdict)
    if not found:
        words = text(lang, "value_missing")
        tip = text(lang, "value_missing_tip", block=value.block, metric=value.metric)
        return f'<span class="ruota-value ruota-value-missing" title="{html.escape(tip)}">{html.escape(words)}</span>'
    numbers = {id(r): (number, printed) for r, number, printed in found}
    written: dict[tuple[float, str], str] = {}  # a thousand machines print a few distinct values

    def shown(result) -> str:
        key = numbers[id(result)]
        if key not in written:
            number, printed = key
            digits = value.digits if value.digits is not None else _decimals(printed)
            written[key] = formatting.quantity(formatting.fixed(number, lang, digits), value.unit, lang)
        return written[key]

    ordered = groups.group([r for r, _, _ in found], groups.page_targets(page))
    chosen = ordered[0].latest("passed")
    main = shown(chosen)
    # the value, then where and when it was measured (`attributed_once` keeps one per sentence)
    ran_at = chosen.entry.ran_at if chosen.entry else None
    before, _, after = text(lang, "value_at", value="\0", machine=_short(chosen),
                            date=formatting.date(ran_at, lang, "medium")).partition("\0")
    words = f'{html.escape(before + main)}<span class="ruota-value-at">{html.escape(after)}</span>'
    attribution = after
    same, others = 0, {}
    for g in ordered:
        for result in g.results:
            if result is chosen:
                continue
            if shown(result) == main:
                same += 1
            else:
                others.setdefault(shown(result), []).append(result)
    notes = []
    for number, results in list(others.items())[:5]:
        where = results[0].label if len(results) == 1 else text(lang, "machines_count", count=len(results))
        notes.append(text(lang, "value_on", value=number, machine=where))
    if same:
        notes.append(text(lang, "value_same", count=same))
    tip = f' title="{html.escape(text(lang, "value_also", values="; ".join(notes)))}"' if notes else ""
    return (f'<span class="ruota-value" data-block="{html.escape(value.block)}"'
            f' data-metric="{html.escape(value.metric)}"'
            f' data-at="{html.escape(attribution)}"{tip}>{words}</span>')


_PARAGRAPH = re.compile(r"<(p|li|td)\b[^>]*>.*?</\1>", re.DOTALL)
_AT = re.compile(r'(<span class="ruota-value" [^>]*data-at="(?P<at>[^"]*)"[^>]*>[^<]*)'
                 r'<span class="ruota-value-at">[^<]*</span>')


def attributed_once(page_html: str) -> str:
    """Within a paragraph (or list item, or cell), values measured on the same machine the same
    day name it once, after the last of them: "0.258 of its tolerance, with 65 operations
    checked (NVIDIA H200, 1 Dec 2026)" rather than the attribution after each number."""
    def paragraph(match: re.Match) -> str:
        block = match.group(0)
        ats = [m["at"] for m in _AT.finditer(block)]
        if len(ats) < 2:
            return block
        remaining = {at: ats.count(at) for at in ats}

        def value(m: re.Match) -> str:
            remaining[m["at"]] -= 1
            return m.group(0) if remaining[m["at"]] == 0 else m.group(1) + '<span class="ruota-value-at"></span>'
        return _AT.sub(value, block)
    return _PARAGRAPH.sub(paragraph, page_html) if "ruota-value-at" in page_html else page_html


def _decimals(printed: str) -> int:
    """As many decimals as the block printed (``67.20`` → 2)."""
    mantissa = printed.lower().split("e")[0]
    return len(mantissa.split(".", 1)[1]) if "." in mantissa else 0


def check_page(page_text: str, blocks: list, indexed) -> list[tuple[int, str]]:
    """``(line, problem)`` for each value directive of a page that is wrong or not measured
    on any machine (every block of the page, outputs included, to leave their lines out)."""
    from ruota_docs.records.verdicts import verdict  # noqa: PLC0415 — marks imports nothing of ours back

    code_lines = {n for b in blocks if b.end_line is not None and not b.source for n in range(b.line, b.end_line + 1)}
    by_id = {b.block_id: b for b in blocks if b.block_id}
    problems = []
    for line, args in in_text(page_text, code_lines):
        try:
            value = parse(args)
        except ValueDirectiveError as error:
            problems.append((line, str(error)))
            continue
        block = by_id.get(value.block)
        if block is None:  # collecting the page's blocks reports it (renderer.assemble)
            continue
        if not measured(value, verdict(block.page, block.index, block.sha256, indexed)):
            problems.append((line, f"value {value.block}/{value.metric}: not measured yet on any machine"))
    return problems
