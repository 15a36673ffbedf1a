"""Placeholders the plugin injects into pages and fills after rendering.

The plugin writes a ``ruota-slot`` fence (a pymdownx.superfences custom fence) next
to each code block and in place of page directives. Superfences renders it at the
right place — inside admonitions and tabs too — as an empty ``div``; the plugin then
replaces that ``div`` with the badges, marks, output tabs or charts.
"""

from __future__ import annotations

import html
import re

SLOT_RE = re.compile(r'<div class="ruota-slot" data-slot="(?P<key>[A-Za-z0-9_-]+)"></div>')


def format_slot(source: str, language: str, css_class: str, options: dict, md, **kwargs) -> str:
    """The superfences formatter for ``ruota-slot`` fences (see mkdocs.yml)."""
    return f'<div class="ruota-slot" data-slot="{html.escape(source.strip())}"></div>'


def fence(key: str, indent: str = "") -> str:
    """The Markdown of a slot, indented like the block it belongs to."""
    return f"{indent}```ruota-slot\n{indent}{key}\n{indent}```\n"


def fill(html_text: str, contents: dict[str, str]) -> tuple[str, list[str]]:
    """Replace every slot by its content; also returns the keys that had none."""
    missing: list[str] = []

    def replace(match: re.Match) -> str:
        key = match["key"]
        if key not in contents:
            missing.append(key)
            return ""
        return contents[key]

    return SLOT_RE.sub(replace, html_text), missing
