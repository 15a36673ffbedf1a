"""Empty ``div`` markers around each rendered code block, and finding them in the HTML.

``<div data-ruota-block="NONCE:N"></div>`` before block N's HTML and
``<div data-ruota-end="NONCE:N"></div>`` after it; ``data-ruota-directive`` where a page
directive stands; ``data-ruota-made`` and ``data-ruota-made-end`` around what an extension
made from elsewhere (mkdocstrings' docstrings). They are block-level, so Python-Markdown places them exactly as it
places the code block (never inside a paragraph), and harmless anywhere they end up. A
marker inside an HTML comment is not part of the page: readers never see that block.
"""

from __future__ import annotations

import bisect
import re
import xml.etree.ElementTree as etree

MARKER = re.compile(r'<div data-ruota-(?P<what>block|end|directive|made|made-end)="(?P<nonce>[0-9a-f]+):(?P<n>\d+)">'
                    r"</div>")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def _tag(what: str, nonce: str, number: int) -> str:
    return f'<div data-ruota-{what}="{nonce}:{number}"></div>'


def wrap(nonce: str, number: int, html: str) -> str:
    """A code block's HTML between its two markers."""
    return _tag("block", nonce, number) + html + _tag("end", nonce, number)


def directive(nonce: str, number: int) -> str:
    return _tag("directive", nonce, number)


def made(nonce: str, number: int) -> str:
    return _tag("made", nonce, number)


def made_end(nonce: str, number: int) -> str:
    return _tag("made-end", nonce, number)


def elements(nonce: str, number: int) -> tuple[etree.Element, etree.Element]:
    """The two markers as elements, for blocks that live in the element tree."""
    return (etree.Element("div", {"data-ruota-block": f"{nonce}:{number}"}),
            etree.Element("div", {"data-ruota-end": f"{nonce}:{number}"}))


class _Comments:
    """The HTML comments of a page, to ask whether a position is inside one (by bisection:
    a page may hold thousands of comments and markers)."""

    def __init__(self, html: str) -> None:
        spans = [m.span() for m in _COMMENT.finditer(html)] if "<!--" in html else []
        self.starts = [start for start, _ in spans]
        self.ends = [end for _, end in spans]

    def __contains__(self, position: int) -> bool:
        at = bisect.bisect_right(self.starts, position) - 1
        return at >= 0 and position < self.ends[at]


def visible_blocks(html: str, nonce: str) -> list[int]:
    """The numbers of the blocks whose opening marker is in the page (not in a comment), in order."""
    comments = _Comments(html)
    found = []
    for match in MARKER.finditer(html):
        if match["what"] == "block" and match["nonce"] == nonce and match.start() not in comments:
            found.append(int(match["n"]))
    return found


#: Material's code annotations: a ``(1)`` in the code's comments, the list of their texts right after it.
_ANNOTATION = re.compile(r"\(\d+\)!?")
_LIST_TAG = re.compile(r"<(/?)ol\b[^>]*>")


def after_annotations(html: str, nonce: str) -> str:
    """Each block's end marker moved past the annotation list that follows its code, where the
    code has annotations: Material takes the list right after a code block as its annotations, so
    what the engine adds below the block goes below that list."""
    if "<ol" not in html:
        return html
    starts = {m["n"]: m.end() for m in MARKER.finditer(html) if m["what"] == "block" and m["nonce"] == nonce}
    for match in reversed(list(MARKER.finditer(html))):
        if match["what"] != "end" or match["nonce"] != nonce or match["n"] not in starts:
            continue
        rest = html[match.end():]
        stripped = rest.lstrip()
        if not stripped.startswith("<ol") or not _ANNOTATION.search(html[starts[match["n"]]:match.start()]):
            continue
        depth, offset = 0, len(rest) - len(stripped)
        for tag in _LIST_TAG.finditer(stripped):
            depth += -1 if tag[1] else 1
            if depth == 0:
                end = match.end() + offset + tag.end()
                html = html[:match.start()] + html[match.end():end] + match.group(0) + html[end:]
                break
    return html


def fill(html: str, nonce: str, before: dict[int, str], after: dict[int, str], directives: dict[int, str]) -> str:
    """Markers replaced by what goes before and after each block and in place of each
    directive; every other marker (another nonce, or a block readers do not see) removed.
    What goes after a block with Material's code annotations goes after their list."""
    html = after_annotations(html, nonce)
    comments = _Comments(html)

    def replace(match: re.Match) -> str:
        if match["nonce"] != nonce or match.start() in comments:
            return ""
        table = {"block": before, "end": after, "directive": directives}.get(match["what"], {})
        return table.get(int(match["n"]), "")

    return MARKER.sub(replace, html)


def outside_blocks(html: str, nonce: str) -> list[tuple[int, str]]:
    """``(position, HTML)`` of each stretch of the page outside its blocks' markers and
    outside comments: where code readers see came from no fence or indented block."""
    comments = _Comments(html)
    stretches, last, depth = [], 0, 0
    for match in MARKER.finditer(html):
        if match["nonce"] != nonce or match["what"] not in ("block", "end") or match.start() in comments:
            continue
        if match["what"] == "block":
            if depth == 0 and match.start() > last:
                stretches.append((last, html[last:match.start()]))
            depth += 1
        elif depth:
            depth -= 1
            last = match.end()
    if depth == 0 and last < len(html):
        stretches.append((last, html[last:]))
    return [(at, _COMMENT.sub("", text)) for at, text in stretches]


def outside_ranges(html: str, nonce: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each stretch of the page outside its blocks' markers (comments included)."""
    ranges, last, depth = [], 0, 0
    for match in MARKER.finditer(html):
        if match["nonce"] != nonce or match["what"] not in ("block", "end"):
            continue
        if match["what"] == "block":
            if depth == 0:
                ranges.append((last, match.start()))
            depth += 1
        elif depth:
            depth -= 1
            last = match.end()
    if depth == 0:
        ranges.append((last, len(html)))
    return ranges


def made_regions(html: str, nonce: str) -> list[tuple[int, int, int]]:
    """``(start, end, N)`` of what an extension made, between ``made`` marker N and its end."""
    opened, found = {}, []
    for match in MARKER.finditer(html):
        if match["nonce"] != nonce:
            continue
        if match["what"] == "made":
            opened[int(match["n"])] = match.end()
        elif match["what"] == "made-end" and int(match["n"]) in opened:
            found.append((opened.pop(int(match["n"])), match.start(), int(match["n"])))
    return found
