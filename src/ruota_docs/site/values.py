"""Measured numbers written into sentences: ``<!-- value: block=ID metric=NAME -->``.

Written inline in prose, the directive becomes the value that block printed as a metric
line (``NAME: value``, the lines charts read) for its current code, formatted for the
reader's language (``metric=a,b``: several, said once where they read the same), and only one
machine's: measured on the card the guide is about where it has
been, else on a GPU, else on the CPU. Where and when it was measured closes the sentence,
never splitting it: "…fue de 67,2 MiB (en una NVIDIA H200, el 1 de
diciembre de 2026)." The other machines' values are in its tooltip, identical
ones counted once, so the sentence reads the same with two records or a thousand.
Options: ``unit=`` (shown after the number, in the reader's units: Mio in French),
``digits=`` (exact decimals; by default the decimals the block
printed, at most two, as the charts show them, so prose and chart give the same digits). A value no
record holds yet is shown as a visible "not measured yet" mark, and
``ruota-docs status --strict`` fails.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace

from ruota_docs.site import charts, formatting, groups, machine_names
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


#: ``requires:`` terms that put a block's work on a GPU; the others (hipcc, arch=, import=…) do not
GPU_TERMS = frozenset({"gpu", "rocm", "cuda", "vram", "rocm_library"})


def render(value: Value, verdict: Verdict | None, lang: str, page: str = "", needs_gpu: bool = True) -> str:
    """The sentence fragment a value directive becomes: one value — measured on the card
    ``page`` is about where it has been, else on a GPU, else on the CPU — with that machine
    and the date; the other machines' values in the tooltip (identical ones counted once).
    A block that needs no GPU (``needs_gpu=False``) shows its CPU value first where a CPU
    machine measured it: a timing of pure Python is the host's, not the GPU's."""
    found = measured(value, verdict)
    if not found:
        return _missing(value, lang)
    numbers = {id(r): (number, printed) for r, number, printed in found}
    written: dict[tuple[float, str], str] = {}  # a thousand machines print a few distinct values

    def shown(result) -> str:
        key = numbers[id(result)]
        if key not in written:
            number, printed = key
            # as the chart of the same metric rounds it: the decimals the block printed, at most two
            digits = value.digits if value.digits is not None else charts.decimals(printed)
            shown_number = (formatting.fixed(number, lang, digits) if digits is not None
                            else formatting.number(number, lang))
            written[key] = formatting.quantity(shown_number, value.unit, lang)
        return written[key]

    ordered = groups.group([r for r, _, _ in found], groups.page_targets(page))
    chosen = ordered[0].latest("passed")
    on_cpu = [r for g in ordered for r in g.results if not r.machine.gpu_name]
    if not needs_gpu and on_cpu:
        chosen = max(on_cpu, key=lambda r: str((r.entry.ran_at if r.entry else None) or ""))
    main = shown(chosen)
    # the value, then where and when it was measured: running text writes the date out, and
    # `attributed_once` moves the attribution to the end of the sentence; a value every machine measured
    # alike is said of them all, not of the one that happens to be named (a count does not depend on it)
    ran_at = chosen.entry.ran_at if chosen.entry else None
    everywhere = len(found) > 1 and all(shown(r) == main for r, _, _ in found)
    if not everywhere:
        where = machine_names.name(chosen, lang, "a")  # "measured on an x86-64 CPU on 6 December 2026"
    else:
        where = text(lang, "value_everywhere_two") if len(found) == 2 else text(lang, "value_everywhere",
                                                                                  count=len(found))
    before, _, after = text(lang, "value_at_everywhere" if everywhere else "value_at", value="\0", machine=where,
                            date=formatting.date(ran_at, lang, "long")).partition("\0")
    words = f'{html.escape(before + main)}<span class="ruota-value-at">{html.escape(after)}</span>'
    attribution = after
    tip = "" if everywhere else _others(ordered, chosen, main, shown, lang)
    tip = f' title="{html.escape(tip)}"' if tip else ""
    # where the sentence also names one machine, the value is said of that one (`attributed_once`)
    one = (' data-one="' + html.escape(text(lang, "value_at", value="", machine=machine_names.name(chosen, lang, "a"),
                                             date=formatting.date(ran_at, lang, "long"))) + '"') if everywhere else ""
    return (f'<span class="ruota-value" data-block="{html.escape(value.block)}"'
            f' data-metric="{html.escape(value.metric)}"'
            f' data-at="{html.escape(attribution)}"{one}{tip}>{words}</span>')


def _missing(value: Value, lang: str) -> str:
    """A value no machine measured: said so, with the block and metric in the tooltip."""
    words = text(lang, "value_missing")
    tip = text(lang, "value_missing_tip", block=value.block, metric=value.metric)
    return f'<span class="ruota-value ruota-value-missing" title="{html.escape(tip)}">{html.escape(words)}</span>'


#: Up to this many machines that measured the same value are named in the tooltip; more are counted.
SAME_NAMED = 3


def _others(ordered, chosen: MachineResult, main: str, shown, lang: str) -> str:
    """The tooltip: the other machines' values (five at most), then the machines that agree with
    ``main``, named where they are few ("Same value on NVIDIA H100 (CUDA)."); empty where there are none."""
    same: list[MachineResult] = []
    others: dict[str, list[MachineResult]] = {}
    for g in ordered:
        for result in g.results:
            if result is chosen:
                continue
            if shown(result) == main:
                same.append(result)
            else:
                others.setdefault(shown(result), []).append(result)
    notes = []
    for number, results in list(others.items())[:5]:
        where = (machine_names.name(results[0], lang) if len(results) == 1
                 else text(lang, "machines_count", count=len(results)))
        notes.append(text(lang, "value_on", value=number, machine=where))
    sentences = [text(lang, "value_also", values="; ".join(notes), count=len(notes))] if notes else []
    if len(same) > SAME_NAMED:
        sentences.append(text(lang, "value_same", count=len(same)))
    elif same:
        named = [machine_names.name(r, lang) for r in same]
        sentences.append(text(lang, "value_same_on", machines=formatting.join(named, lang)))
    return " ".join(sentences)


_SHOWN = re.compile(r'^<span class="ruota-value"[^>]*>([^<]*)<span class="ruota-value-at">')


def render_all(value: Value, verdict: Verdict | None, lang: str, page: str = "", needs_gpu: bool = True) -> str:
    """A value directive that names several metrics (``metric=a,b``): each as `render` writes it,
    joined ("67.2 MiB and 80.1 MiB"), or, where they read the same, the value once and "in both
    cases" ("in each of the three cases"), so that a sentence never repeats one number as if it were two;
    with ``alike=once``, the value alone, for a sentence that already says the values are the same."""
    if len(value.metrics) == 1:
        return render(value, verdict, lang, page, needs_gpu)
    parts = [render(replace(value, metric=m), verdict, lang, page, needs_gpu) for m in value.metrics]
    shown = [_SHOWN.match(part) for part in parts]
    if all(shown) and len({m[1] for m in shown if m}) == 1:
        if value.alike == "once":
            return parts[0]
        both = text(lang, "value_both") if len(parts) == 2 else text(lang, "value_each", count=len(parts))
        return f'{parts[0]} {html.escape(both)}'
    return formatting.join(parts, lang)


_PARAGRAPH = re.compile(r"<(p|li|td)\b[^>]*>.*?</\1>", re.DOTALL)
_ONE = re.compile(r'data-one="([^"]*)"')
_AT = re.compile(r'(<span class="ruota-value" [^>]*data-at="(?P<at>[^"]*)"[^>]*>[^<]*)'
                 r'<span class="ruota-value-at">(?P<words>[^<]*)</span>(?P<close></span>)')
_TAG = re.compile(r"<[^>]*>")
#: Words whose full stop ends no sentence: "e.g.", "p. ej.", "cf.", "etc." mid-sentence.
ABBREVIATIONS = {"e.g", "i.e", "cf", "vs", "etc", "ej", "p", "approx", "núm", "env", "fig"}
_SPACES = " \t\n\u00a0\u202f"
#: Closing quotation marks that may follow a sentence's full stop, directly ("…ms.”" in English).
_CLOSING_QUOTES = "”’»"


def attributed_once(page_html: str) -> str:
    """Within a paragraph (or list item, or cell), where and when a value was measured closes
    its sentence instead of splitting it, named once for the values of one sentence measured on
    the same machine the same day: "the worst row used 0.26 of its tolerance, with 65 operations
    checked (measured on an NVIDIA H200 on 1 December 2026)." rather than "0.26 (NVIDIA H200, …) of its tolerance".
    A sentence that says what the one before it said names no machine again, and a sentence that
    ends with the author's parenthesis takes the attribution into it after a semicolon."""
    def paragraph(match: re.Match) -> str:
        block = match.group(0)
        pieces, ends, cursor = [], [], 0
        for m in _AT.finditer(block):  # each value without its attribution, and where it ends
            pieces.append(block[cursor:m.start()] + m.group(1) + m["close"])
            cursor = m.end()
            one = _ONE.search(m.group(1))  # a value all machines measured alike, as one machine's
            ends.append((sum(len(p) for p in pieces), m["words"], html.unescape(one[1]) if one else m["words"]))
        if not ends:
            return block
        bare = "".join(pieces) + block[cursor:]
        said_at: dict[int, list[tuple[str, str]]] = {}
        for end, words, one in ends:
            said_at.setdefault(_sentence_end(bare, end), []).append((words, one))
        inserts: dict[int, list[str]] = {}
        for at, said_here in said_at.items():
            # "the same on the two test machines" where it is the sentence's only attribution; beside a
            # machine named for another value, the value is said of its own machine, so that the two merge
            alone = len({words for words, _ in said_here}) == 1
            for words, one in said_here:
                shown = words if alone else one
                if shown not in inserts.setdefault(at, []):
                    inserts[at].append(shown)
        said = None
        for at in sorted(inserts):  # a paragraph names a machine and a day once, not in each sentence
            if inserts[at] == said:
                del inserts[at]
            else:
                said = inserts[at]
        for at in sorted(inserts, reverse=True):
            words = inserts[at][0] if len(inserts[at]) == 1 else _joined(inserts[at])
            if bare[:at].endswith(")"):  # the sentence ends with the author's parenthesis: one parenthesis, not two
                at, words = at - 1, "; " + words.strip()[1:-1]
            bare = f'{bare[:at]}<span class="ruota-value-at">{words}</span>{bare[at:]}'
        return bare
    return _PARAGRAPH.sub(paragraph, page_html) if "ruota-value-at" in page_html else page_html


def _joined(attributions: list[str]) -> str:
    """Several machines in one sentence: " (A, date; B, date)"."""
    inner = [a.strip()[1:-1] if a.strip().startswith("(") and a.strip().endswith(")") else a.strip()
             for a in attributions]
    return f" ({'; '.join(inner)})"


def _inside_quotation(block: str, start: int, end: int) -> int:
    """``end``, or before the closing quotation mark just before it where the value at ``start`` is inside that
    quotation: “… took 11.41 ms (x86-64 CPU, 6 December 2026)”. keeps the attribution with the quoted words."""
    before = end
    while before > start and block[before - 1] in "\u00a0\u202f ":
        before -= 1
    if before <= start or block[before - 1] not in "”»":
        return end
    opening = max(block.rfind("“", 0, before - 1), block.rfind("«", 0, before - 1))
    if not 0 <= opening < start:  # the quotation opens after the value: its words are not the value's
        return end
    before -= 1
    while before > start and block[before - 1] in "\u00a0\u202f ":
        before -= 1
    return before


def _sentence_end(block: str, start: int) -> int:
    """Where the sentence that holds ``start`` ends in ``block`` (HTML): before its full stop
    (or ``!``, ``?``, and the no-break space French puts before them), else before the
    closing tag of the paragraph, and before a colon that ends it; a full stop that a closing quotation
    mark follows ends the sentence too. Tags, decimals (``7.5``) and abbreviations end nothing."""
    position = start
    closing = block.rindex("</")
    while position < closing:
        tag = _TAG.match(block, position)
        if tag:
            position = tag.end()
            continue
        char = block[position]
        after = block[position + 1:position + 2]
        if after in _CLOSING_QUOTES:  # “… took 10.88 ms.” : the full stop inside the quotation ends the sentence
            after = block[position + 2:position + 3]
        if char in ".!?" and (after in ("", "<") or after in _SPACES):
            word = re.search(r"([\w.]+)$", _TAG.sub("", block[start:position]))
            if char != "." or not word or word.group(1).lower() not in ABBREVIATIONS:
                while position > start and block[position - 1] in "\u00a0\u202f":
                    position -= 1
                return _inside_quotation(block, start, position)
        position += 1
    while closing > start and block[closing - 1] in _SPACES:
        closing -= 1
    if closing > start and block[closing - 1] == ":":  # a paragraph that announces a list or a block
        closing -= 1
        while closing > start and block[closing - 1] in "\u00a0\u202f ":
            closing -= 1
    return closing


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
        found = verdict(block.page, block.index, block.sha256, indexed)
        for metric in value.metrics:
            if not measured(replace(value, metric=metric), found):
                problems.append((line, f"value {value.block}/{metric}: not measured yet on any machine"))
    return problems
