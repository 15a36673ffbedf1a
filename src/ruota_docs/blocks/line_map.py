"""Carrying each line's origin across a Markdown preprocessor the engine does not know.

The capture tags the page's lines with the file and line they were written at before any
preprocessor runs, and pymdownx.snippets keeps those tags on what it includes. Another
extension's preprocessor (an include syntax of its own, a generator of reference text such
as mkdocs-click) returns plain strings: its lines have lost their tags, and counting lines
after it would point past the end of the page. :func:`carry` matches the lines after it
against the lines before it: a line found unchanged, or changed in place, keeps its origin;
lines that replace others (what an include expanded to) or appear from nothing (generated)
take the origin of the line they replace — the include or the generator's directive, the
line the author edits — and are marked as brought in by an extension.
"""

from __future__ import annotations

from difflib import SequenceMatcher

Origin = tuple  #: ``(file, line, via)``, as the capture keeps them


def carry(before: list[str], origins: list[Origin | None], after: list[str],
          brought_before: set[int] = frozenset()) -> tuple[list[Origin | None], set[int]]:
    """``(origin of each line of after, indices of the lines an extension brought in)``;
    ``brought_before`` are the lines of ``before`` that an extension brought in already."""
    result: list[Origin | None] = [None] * len(after)
    brought: set[int] = set()
    matcher = SequenceMatcher(None, [str(line) for line in before], [str(line) for line in after], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for k in range(j2 - j1):  # unchanged, or each line rewritten in place
                result[j1 + k] = origins[i1 + k] if i1 + k < len(origins) else None
                if i1 + k in brought_before:
                    brought.add(j1 + k)
        elif tag in ("replace", "insert"):
            # lines of the region found unchanged among the lines it replaces keep theirs (in order);
            # the others were brought in: by the directive that expanded (the first line replaced),
            # or, for an insertion, by the written line above (not a blank one: a directive on the
            # file's last line is followed only by the blank lines Python-Markdown appends)
            above = i1 - 1
            while tag == "insert" and above > 0 and not str(before[above]).strip():
                above -= 1
            anchor = _known(origins, i1 if tag == "replace" else above)
            cursor = i1
            for j in range(j1, j2):
                text = str(after[j])
                found = next((i for i in range(cursor, i2) if str(before[i]) == text), None) if text.strip() else None
                if found is not None:
                    result[j], cursor = origins[found] if found < len(origins) else None, found + 1
                    if found in brought_before:
                        brought.add(j)
                    continue
                result[j] = anchor
                brought.add(j)
    return result, brought


def _known(origins: list[Origin | None], index: int) -> Origin | None:
    """The origin of line ``index``, or of the nearest tagged line above it."""
    for back in range(min(index, len(origins) - 1), -1, -1):
        if origins[back] is not None:
            found = origins[back]
            return (found[0], found[1] + (index - back), found[2]) if back != index else found
    return None
