"""Small SVG bar charts generated at build time (no JavaScript, no CDN).

Bars are drawn with CSS custom properties so they follow Material's light and
dark schemes; every chart also ships the same numbers as a table.
"""

from __future__ import annotations

import html
import re

from ruota_docs.records import bounds

from ruota_docs.site.formatting import NBSP

_METRIC_LINE = r"^\s*{name}\s*[:=]\s*(?P<value>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)"


def metric_text(output: str | None, name: str) -> str | None:
    """The last value a block printed as ``name: value``, as printed (``67.20``)."""
    if not output:
        return None
    found = re.findall(_METRIC_LINE.format(name=re.escape(name)), output, flags=re.MULTILINE)
    # a number no reader can be shown (1e999, 19,000 digits) is no measurement: `record check` refuses it
    return found[-1] if found and bounds.usable_number(found[-1]) else None


#: The most decimals the site shows of a measurement (its charts and sentences alike).
MAX_DECIMALS = 2


def decimals(printed: str) -> int | None:
    """How many decimals to show of a number as a block printed it (``0.60`` → 2, ``116.0`` → 1,
    ``0.258`` → 2: at most `MAX_DECIMALS`), so that a chart and a sentence round it alike and
    keep the zeros the block printed; ``None`` for a number in exponent notation."""
    if "e" in printed.lower():
        return None
    _, _, fraction = printed.partition(".")
    return min(len(fraction), MAX_DECIMALS)


def metric(output: str | None, name: str) -> float | None:
    """The last value a block printed as ``name: value``."""
    printed = metric_text(output, name)
    return float(printed) if printed is not None else None


def bar_chart(title: str, groups: list[tuple[str, list[tuple[str, float | None, str]]]], unit: str, fmt) -> str:
    """A horizontal bar chart.

    Args:
        title: Accessible title of the chart.
        groups: ``[(group label, [(series label, value, kind), …]), …]``; ``kind`` is
            ``measured`` or ``reported`` (drawn hatched).
        unit: Unit printed after each value (already in the reader's language), joined to
            it by a no-break space so the two never part at the end of a line.
        fmt: Formats a number for the reader's locale.
    """
    values = [v for _, series in groups for _, v, _ in series if v is not None]
    top = max(values) if values else 1.0
    top = top or 1.0
    label_w, bar_w, row_h, gap = 230, 360, 20, 8
    # a group of several named series gets its own heading line, so each series label has the
    # whole column ("NVIDIA H200 (CUDA) · HiRes Fix, denoising 0.35" would be cut at 38 characters)
    headed = [bool(group) and any(label for label, _, _ in series) for group, series in groups]
    rows = sum(len(series) for _, series in groups) + sum(headed)
    height = rows * (row_h + 4) + len(groups) * gap + 10
    width = label_w + bar_w + 110
    parts = [
        f'<svg class="ruota-chart" role="img" viewBox="0 0 {width} {height}" width="100%" '
        f'preserveAspectRatio="xMinYMin meet" aria-label="{html.escape(title)}">',
        f"<title>{html.escape(title)}</title>",
        '<defs><pattern id="ruota-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="3" height="6" class="ruota-chart-hatch"/></pattern></defs>',
    ]
    y = 4
    for (group, series), heading in zip(groups, headed):
        if heading:
            parts.append(f'<text x="{label_w - 8}" y="{y + row_h * 0.72:.1f}" text-anchor="end" '
                         f'class="ruota-chart-group">{html.escape(_short(group))}</text>')
            y += row_h + 4
        for label, value, kind in series:
            text_label = (label or group) if heading else (group or label)
            parts.append(f'<text x="{label_w - 8}" y="{y + row_h * 0.72:.1f}" text-anchor="end" '
                         f'class="ruota-chart-label">{html.escape(_short(text_label))}</text>')
            if value is None:
                parts.append(f'<text x="{label_w + 4}" y="{y + row_h * 0.72:.1f}" class="ruota-chart-value">—</text>')
            else:
                length = max(2.0, bar_w * value / top)
                fill = 'url(#ruota-hatch)' if kind == "reported" else ""
                style = f' fill="{fill}"' if fill else ""
                parts.append(f'<rect x="{label_w}" y="{y}" width="{length:.1f}" height="{row_h}" rx="3" '
                             f'class="ruota-chart-bar ruota-chart-{kind}"{style}/>')
                parts.append(f'<text x="{label_w + length + 6:.1f}" y="{y + row_h * 0.72:.1f}" '
                             f'class="ruota-chart-value">{html.escape(_with_unit(fmt(value), unit))}</text>')
            y += row_h + 4
        y += gap
    parts.append("</svg>")
    return "".join(parts)


def _with_unit(value: str, unit: str) -> str:
    return f"{value}{NBSP}{unit}" if unit else value


def _short(text: str, limit: int = 38) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
