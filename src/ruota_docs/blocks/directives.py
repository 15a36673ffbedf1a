"""The directives authors write in HTML comments, and nothing else.

| directive | where | meaning |
| --- | --- | --- |
| ``<!-- requires: … -->`` | the line right before a code block | where the block can run |
| ``<!-- run: … -->`` | the line right before a code block | ``safe``, ``skip reason="…"``, ``timeout=S``, ``id=NAME`` |
| ``<!-- evidence: … -->`` | the line right before a code block | its evidence tier (`ruota_docs.blocks.tiers`) |
| ``<!-- chart: … -->`` | a line of its own | a chart of a block's metrics |
| ``<!-- verification-status -->`` | a line of its own | the status of every page |
| ``<!-- card-matrix -->`` | a line of its own | the level of evidence of each guide on each machine |
| ``<!-- value: … -->`` | inline, in prose | a number a block printed |
| ``<!-- fact: … -->`` | inline, after the claim | when an external claim was checked, and its source |
| ``<!-- skip: next -->``, ``skip: start`` / ``end`` | a line of its own | Sybil's: skip the next block, or a span |

``run:`` also takes ``env=A,B``: variables of the invoking environment the page's process
gets, beyond the sandbox's allow-list (`ruota_docs.run.sandbox`).

Any other comment is an ordinary comment (``<!-- md:version 9.0 -->``, ``<!-- todo: … -->``).
A comment whose name is close to one of ours (``<!-- requirs: rocm -->``) is an error:
a typo must not silently turn a requirement off.
"""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass

#: Where a directive is written: before a code block (and applies to it), on a line of its own
#: (expanded when the site is built), or inside a sentence; Sybil's skip, honoured as "not run".
BLOCK, PAGE, INLINE, SYBIL = "block", "page", "inline", "sybil"


@dataclass(frozen=True)
class Kind:
    """One directive the engine knows: where it is written and what the build does with it.

    A page directive is expanded by the renderer the site registers under its name
    (`ruota_docs.site.plugin.PAGE_DIRECTIVE_EXPANDERS`).
    """

    name: str
    where: str  #: BLOCK, PAGE, INLINE or SYBIL
    names_block: bool = False  #: its ``block=ID`` must be the id of a block of the same page
    lists_pages: bool = False  #: drawn from every page of its language: expanded once all are rendered


#: Every directive, in the order error messages list them.
KINDS: dict[str, Kind] = {kind.name: kind for kind in (
    Kind("requires", BLOCK),
    Kind("run", BLOCK),
    Kind("evidence", BLOCK),
    Kind("chart", PAGE, names_block=True),
    Kind("verification-status", PAGE, lists_pages=True),
    Kind("card-matrix", PAGE, lists_pages=True),
    Kind("value", INLINE),
    Kind("fact", INLINE),
    Kind("skip", SYBIL),
)}
BLOCK_DIRECTIVES = tuple(name for name, kind in KINDS.items() if kind.where == BLOCK)
PAGE_DIRECTIVES = tuple(name for name, kind in KINDS.items() if kind.where == PAGE)
INLINE_DIRECTIVES = tuple(name for name, kind in KINDS.items() if kind.where == INLINE)
#: Sybil's own skip directive, honoured as "not run".
SKIP = next(name for name, kind in KINDS.items() if kind.where == SYBIL)
DIRECTIVES = tuple(KINDS)

#: A comment on a line of its own, after any indentation and blockquote markers.
LINE = re.compile(r"^(?P<prefix>[ \t>]*)<!--[ \t]*(?P<name>[A-Za-z][\w-]*)"
                  r"(?:[ \t]*:(?P<args>.*?)|[ \t][^:]*?|)[ \t]*-->[ \t]*$")


class DirectiveError(ValueError):
    """A directive that cannot be understood; ``line`` is 1-based."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Directive:
    """``<!-- name: args -->`` as written, with where it was written."""

    name: str
    args: str
    line: int  #: line in the page (for a directive from an included file: the include's line)
    #: ``file:line`` where it is written, when that is not the page (relative to the project where it is inside it)
    source: str = ""

    def options(self) -> dict[str, str | bool]:
        """``safe timeout=60 reason="a b"`` → ``{"safe": True, "timeout": "60", "reason": "a b"}``."""
        try:
            tokens = shlex.split(self.args)
        except ValueError as error:
            raise DirectiveError(f"malformed {self.name}: directive ({error})", self.line) from None
        parsed: dict[str, str | bool] = {}
        for token in tokens:
            key, sep, value = token.partition("=")
            parsed[key] = value if sep else True
        return parsed


def match_line(line: str) -> re.Match | None:
    """The comment on ``line`` if the line holds nothing else."""
    return LINE.match(line) if "<!--" in line else None


def classify(name: str, has_colon: bool) -> str:
    """``"ours"``, ``"typo"`` (close to one of ours) or ``"comment"`` (anything else)."""
    if name in DIRECTIVES and (has_colon or name in PAGE_DIRECTIVES):
        return "ours"
    if name in DIRECTIVES:
        return "typo"  # ``<!-- requires rocm -->``: the colon is missing
    return "typo" if suggestion(name) else "comment"


def suggestion(name: str) -> str | None:
    """The directive ``name`` is probably a misspelling of, if any."""
    lowered = name.lower()
    if lowered in DIRECTIVES and lowered != name:
        return lowered
    close = difflib.get_close_matches(lowered, DIRECTIVES, n=1, cutoff=0.8)
    return close[0] if close else None


def typo_message(name: str, has_colon: bool) -> str:
    if name in DIRECTIVES and not has_colon and name not in PAGE_DIRECTIVES:
        return f"<!-- {name} … --> needs a colon: <!-- {name}: … -->"
    return f"unknown directive {name!r}: did you mean {suggestion(name)!r}? (known: {', '.join(DIRECTIVES)})"
