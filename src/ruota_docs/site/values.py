"""Measured numbers written into sentences: ``<!-- value: block=ID metric=NAME -->``.

Written inline in prose, the directive becomes the value that block printed as a metric
line (``NAME: value``, the lines charts read), for every machine whose record holds it
for the block's current code, formatted for the reader's language:
"66,0 MiB en CPU x86_64 y 67,2 MiB en NVIDIA H200 (CUDA)". Options: ``unit=`` (shown after
the number, in the reader's units: Mio in French), ``digits=`` (decimals; default: as
printed). A value no record holds yet is
shown as a visible "not measured yet" mark, and ``ruota-docs status --strict`` fails.
"""

from __future__ import annotations

import html

from ruota_docs.site import charts, formatting
from ruota_docs.site.locales import text
from ruota_docs.records.verdicts import Verdict
from ruota_docs.blocks.value_directive import Value, ValueDirectiveError, in_text, parse

def measured(value: Value, verdict: Verdict | None) -> list[tuple[str, float, str]]:
    """``(machine label, number, as printed)`` on each machine that printed it for the current code."""
    result = []
    for machine in verdict.by_state("passed") if verdict else []:
        output = (machine.entry or {}).get("output")
        number = charts.metric(output, value.metric)
        if number is not None:
            printed = charts.metric_text(output, value.metric)
            result.append((machine.label, number, printed))
    return result


def render(value: Value, verdict: Verdict | None, lang: str) -> str:
    """The sentence fragment a value directive becomes."""
    found = measured(value, verdict)
    if not found:
        words = text(lang, "value_missing")
        tip = text(lang, "value_missing_tip", block=value.block, metric=value.metric)
        return f'<span class="ruota-value ruota-value-missing" title="{html.escape(tip)}">{html.escape(words)}</span>'
    parts = []
    for label, number, printed in found:
        digits = value.digits if value.digits is not None else _decimals(printed)
        shown = formatting.quantity(formatting.fixed(number, lang, digits), value.unit, lang)
        parts.append(text(lang, "value_on", value=html.escape(shown), machine=html.escape(label)))
    return (f'<span class="ruota-value" data-block="{html.escape(value.block)}" data-metric="{html.escape(value.metric)}">'
            f'{formatting.join(parts, lang)}</span>')


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
        if block is None:
            problems.append((line, f"value: no block on this page has id={value.block}"))
        elif not measured(value, verdict(block.page, block.index, block.sha256, indexed)):
            problems.append((line, f"value {value.block}/{value.metric}: not measured yet on any machine"))
    return problems
