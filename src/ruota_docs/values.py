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
import re
import shlex
from dataclasses import dataclass

from . import charts, formatting
from .locales import text
from .marks import Verdict

#: The directive anywhere in text; code blocks are left out by the callers.
DIRECTIVE = re.compile(r"<!--[ \t]*value[ \t]*:(?P<args>.*?)-->", re.S)
_OPTIONS = ("block", "metric", "unit", "digits")


class ValueDirectiveError(ValueError):
    """A value directive that cannot be understood."""


@dataclass(frozen=True)
class Value:
    """One ``value:`` directive."""

    block: str
    metric: str
    unit: str = ""
    digits: int | None = None

    @property
    def key(self) -> str:
        """What must be the same in every language: ``value:block/metric``."""
        return f"value:{self.block}/{self.metric}"


def parse(args: str) -> Value:
    """``block=ID metric=NAME [unit=U] [digits=N]``; raises `ValueDirectiveError` naming what is wrong."""
    try:
        tokens = shlex.split(args)
    except ValueError as error:
        raise ValueDirectiveError(f"malformed value: directive ({error})") from None
    options = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or key not in _OPTIONS:
            raise ValueDirectiveError(f"value: takes {', '.join(o + '=' for o in _OPTIONS)} (got {token!r})")
        options[key] = value
    missing = [k for k in ("block", "metric") if not options.get(k)]
    if missing:
        raise ValueDirectiveError(f"value: needs {' and '.join(m + '=' for m in missing)} (the id= of a run: directive, "
                          "and the name of a metric line it prints)")
    digits = options.get("digits")
    if digits is not None and not digits.isdigit():
        raise ValueDirectiveError(f"value: digits= must be a whole number (got {digits!r})")
    return Value(options["block"], options["metric"], options.get("unit", ""), int(digits) if digits else None)


def in_text(text: str, skip_lines=frozenset()) -> list[tuple[int, str]]:
    """``(line, args)`` of every value directive in a page's prose: outside the lines given
    (code blocks) and outside inline code, where the directive is only shown."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        if number not in skip_lines and "value" in line:
            found.extend((number, m["args"]) for m in DIRECTIVE.finditer(re.sub(r"`[^`\n]+`", " ", line)))
    return found


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
    from .marks import verdict  # noqa: PLC0415 — marks imports nothing of ours back

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
