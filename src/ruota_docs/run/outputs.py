"""Expected output written in the code: ``#>`` comment lines, checked and rewritten.

In a Python block, comment lines that start with ``#>`` state what the block prints:

```python
print("gfx906" in targets)
#> True
print(f"device: {name}")
#> device: ...
```

The block's printed output (what it writes to ``sys.stdout``; stderr and warnings do not
count) must equal its ``#>`` lines in order, the ``#> `` prefix removed and trailing
whitespace ignored; ``...`` inside a line matches any text. With ``pytest
--update-outputs`` the ``#>`` lines are rewritten from this machine's output in the file
the code came from — the page, or the snippet file behind an include — each group of
``#>`` lines under the statement whose output it shows, and ``...`` kept wherever the old
line still matches.

pytest-examples' forms are read too: a multi-line output written as a triple-quoted string right after
the ``print(…)`` that prints it states that output, in the layout black gives it (so it is
compared without regard to spaces, line breaks and trailing commas, and a memory address
``0x…>`` matches ``0x0123456789ab>``). ``--update-outputs`` leaves such strings to
pytest-examples, and never moves an output away from the statement that printed it, nor writes
the time of the run into a ``#>`` line (the next run would fail on it): such a block fails with
the reason instead.
"""

from __future__ import annotations

import ast
import datetime as dt
import difflib
import fcntl
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

# what the code states (read by `record check` too); re-exported: the run's callers name them here
from ruota_docs.blocks.expected_output import Expected, expected, is_print, line_matches  # noqa: F401

#: A line of output longer than this is never kept as expected text whole (nor shown in diffs).
_SHOWN = 240


def _loosely(text: str) -> str:
    """Text as a print's expected output is compared: no spaces, no trailing commas, one memory address (looser
    than pytest-examples, which asks for black's exact layout)."""
    text = re.sub(r"0x[a-f0-9]{8,12}>", "0x0123456789ab>", text)
    text = re.sub(r",(\s*[)\]}])", r"\1", text)
    return re.sub(r"\s+", "", text)


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _matches(lines: list[Expected], got: list[str]) -> bool:
    want = [e.text for e in lines]
    while want and not want[-1]:
        want.pop()
    if len(want) == len(got) and all(line_matches(w, g) for w, g in zip(want, got)):
        return True
    return any(e.loose for e in lines) and line_matches(_loosely("\n".join(want)), _loosely("\n".join(got)))


def mismatch(lines: list[Expected], printed: str) -> str | None:
    """``None`` where the printed output is what the ``#>`` lines state, else a short diff."""
    got = _lines(printed)
    if _matches(lines, got) or (any(e.repl for e in lines) and _matches([e for e in lines if not e.repl], got)):
        return None
    want = [e.text for e in lines]
    while want and not want[-1]:
        want.pop()
    shown = [g if len(g) <= _SHOWN else g[:_SHOWN] + "…" for g in got]
    # a "..." line that matches the printed line in its place is shown as that line: context, not a difference
    stated = [shown[i] if "..." in w and i < len(got) and line_matches(w, got[i]) else w for i, w in enumerate(want)]
    diff = difflib.unified_diff(stated, shown, "#> lines", "printed", lineterm="", n=2)
    return "\n".join(list(diff)[:60])


def under_each_print(lines: list[Expected], printed: list, code: str) -> bool:
    """Whether the output of each ``print(…)`` of the block's code is what the lines right under that
    statement state, as pytest-examples places it (a print in a function called later writes under
    the print, not where the call is); every group of lines stands under a print that ran."""
    try:
        prints = [node for node in ast.walk(ast.parse(code)) if is_print(node)]
    except SyntaxError:
        return False
    said: dict[int, list[Expected]] = {}
    for group in _groups([e for e in lines if not e.repl]):
        # keyed by the print's last line (1-based): the 0-based index of the line under it, or of the
        # opening quotes of a triple-quoted output, whose first line is the group's first
        said.setdefault(group[0].index - (1 if group[0].loose else 0), group)
    wrote: dict[int, str] = {}
    for chunk in printed:
        at = chunk[2] if len(chunk) > 2 else None
        if at is None:
            continue  # a library's writing (pprint): pytest-examples checks print's output only
        node = next((n for n in prints if n.lineno <= at <= n.end_lineno), None)
        if node is None:
            return False  # the block's own code wrote it otherwise (sys.stdout.write)
        wrote[node.end_lineno] = wrote.get(node.end_lineno, "") + chunk[1]
    return set(said) == set(wrote) and all(_matches(said[end], _lines(text)) for end, text in wrote.items())


def first_difference(lines: list[Expected], printed: str) -> Expected | None:
    """The first ``#>`` line the output does not match (or the last one, if output runs on)."""
    got = _lines(printed)
    for position, line in enumerate(lines):
        if position >= len(got) or not line_matches(line.text, got[position]):
            return line
    return lines[-1] if lines else None


# -- rewriting ---------------------------------------------------------------------------
@dataclass
class Change:
    """``#>`` lines rewritten in one file."""

    path: str
    first: int  #: first file line replaced (1-based)
    removed: int
    added: int

    def __str__(self) -> str:
        return f"{self.path}:{self.first}: {self.removed} #> line(s) replaced by {self.added}"


class UpdateError(ValueError):
    """The ``#>`` lines cannot be rewritten where they are written (the reason says why;
    ``line``: the block line, 1-based, it is about, where there is one)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def _groups(lines: list[Expected]) -> list[list[Expected]]:
    groups: list[list[Expected]] = []
    for line in lines:
        if groups and groups[-1][-1].index + 1 == line.index:
            groups[-1].append(line)
        else:
            groups.append([line])
    return groups


def _attributed(printed: list[tuple[int | None, str]]) -> list[tuple[int | None, str]]:
    """Output lines, each with the block line of the statement that printed its first character."""
    result: list[tuple[int | None, str]] = []
    current, owner = "", None
    for line, chunk, *_ in printed:
        for piece in re.split(r"(\n)", chunk):
            if piece == "\n":
                result.append((owner, current))
                current, owner = "", None
            elif piece:
                if not current:
                    owner = line
                current += piece
    if current:
        result.append((owner, current))
    while result and not result[-1][1].strip():
        result.pop()
    return result


def plan(lines: list[Expected], printed: list[tuple[int | None, str]], code: str | None = None,
         today: dt.date | None = None) -> list[tuple[list[Expected], list[str]]]:
    """For each group of ``#>`` lines, the lines it should state now.

    ``printed`` is what the block wrote, chunk by chunk, each with the block line (1-based)
    of the top-level statement that wrote it. Output goes to the first group below its
    statement, inside it or before the next statement of ``code`` (where given). Raises
    `UpdateError` for output with no group there (putting it in a group further down would show
    it under code that does not print it), for a pytest-examples triple-quoted string (left to
    pytest-examples), and for a line that holds the time of the run (``today``'s date)."""
    if any(e.loose for e in lines):
        raise UpdateError("this block writes its output as a triple-quoted string after print (pytest-examples' "
                          "form), which --update-outputs does not rewrite: update it by hand or with pytest-examples",
                          next(e.index + 1 for e in lines if e.loose))
    groups = _groups(lines)
    compound = _compound_statements(code)
    new: list[list[str]] = [[] for _ in groups]
    for owner, text in _attributed(printed):
        target = len(groups) - 1
        if owner is not None:
            ends = compound.get(owner)  # a try, with, for, if…: its output stays inside it or right under it
            target = next((i for i, g in enumerate(groups)
                           if g[0].index + 1 > owner and (ends is None or g[0].index + 1 < ends)), None)
            if target is None:
                where = "below the last #> lines" if not any(g[0].index + 1 > owner for g in groups) else \
                    "and no #> lines stand inside or right under it"
                raise UpdateError(f"this statement prints {text.strip()[:60]!r} {where}; "
                                  "write a #> line under it, and pytest --update-outputs fills it in", owner)
        new[target].append(text.rstrip())
    _no_clock(new, groups, today or dt.date.today())
    result = []
    for group, texts in zip(groups, new):
        kept = []
        for position, text in enumerate(texts):
            old = group[position].text if position < len(group) else ""
            kept.append(old if "..." in old and line_matches(old, text) else text)
        result.append((group, kept))
    return result


def _compound_statements(code: str | None) -> dict[int, int]:
    """First line (1-based) of each top-level compound statement of ``code`` (try, with, for, if…)
    → the first line of the statement after it (or past the end)."""
    if not code:
        return {}
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return {}
    found = {}
    for n, node in enumerate(body):
        if isinstance(node, (ast.Try, ast.With, ast.For, ast.While, ast.If, ast.AsyncWith, ast.AsyncFor)) or \
                type(node).__name__ in ("TryStar", "Match"):
            after = body[n + 1].lineno if n + 1 < len(body) else code.count("\n") + 2
            found[node.lineno] = min([after, *(d.lineno for d in getattr(body[n + 1], "decorator_list", []))]) \
                if n + 1 < len(body) else after
    return found


#: A date and time as outputs print them (``2026-12-06 01:02:03``, ``datetime(2026, 12, 6, 1, 2, …)``).
_DATE_TIME = re.compile(r"(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})[ T]\d{2}:\d{2}"
                        r"|datetime\((?P<y2>\d{4}), (?P<m2>\d{1,2}), (?P<d2>\d{1,2}), \d{1,2}, \d{1,2}")


def _no_clock(new: list[list[str]], groups: list[list[Expected]], today: dt.date) -> None:
    """A new ``#>`` line that holds the time of the run would fail on the next run: refuse to write it."""
    days = {today - dt.timedelta(days=1), today, today + dt.timedelta(days=1)}  # whatever the time zone
    for texts, group in zip(new, groups):
        for position, text in enumerate(texts):
            old = group[position].text if position < len(group) else ""
            if text == old or (old and "..." in old and line_matches(old, text)):
                continue
            for match in _DATE_TIME.finditer(text):
                y, m, d = [match[f"{k}2"] if match["y2"] else match[k] for k in "ymd"]
                try:
                    when = dt.date(int(y), int(m), int(d))
                except ValueError:
                    continue
                if when in days:
                    raise UpdateError(f"the output {text.strip()[:60]!r} holds the time of this run; a #> line "
                                      "stating it would fail on the next run: write ... in its place (or fix the "
                                      "clock in the block)", group[0].index + 1)


def edits(code_origins: tuple, code: str, changes: list[tuple[list[Expected], list[str]]]) -> tuple[str, dict]:
    """Where ``changes`` go in the files the ``#>`` lines came from, without writing: the
    block's new code, and per file ``[(first line, old lines, new lines), …]`` for
    `edit_file`. Raises `UpdateError` where a group is not written in one place of one file."""
    code_lines = code.split("\n")
    found: dict[str, list[tuple[int, list[str], list[str]]]] = {}
    new_code = list(code_lines)
    for group, texts in reversed(changes):
        first, last = group[0].index, group[-1].index
        origins = [code_origins[i] if i < len(code_origins) else None for i in range(first, last + 1)]
        if any(o is None for o in origins) or len({o[0] for o in origins}) != 1 or \
                [o[1] for o in origins] != list(range(origins[0][1], origins[0][1] + len(origins))):
            raise UpdateError(f"the #> lines at block line {first + 1} are not written in one place of one file")
        indent = group[0].indent
        replacement = [f"{indent}#> {t}" if t else f"{indent}#>" for t in texts]
        new_code[first:last + 1] = replacement
        found.setdefault(origins[0][0], []).append((origins[0][1], code_lines[first:last + 1], replacement))
    return "\n".join(new_code), found


def edit_file(path: Path, file_edits: list[tuple[int, list[str], list[str]]]) -> list[Change]:
    """Replace ``#>`` lines of one file under a lock. Each group is found by its text
    nearest the line it was read at (an earlier update in this run may have moved it),
    and keeps its own prefix (the indentation of a container on a page)."""
    with open(path, "r+", encoding="utf-8", newline="") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        lines = handle.read().split("\n")
        made = []
        for first, old, replacement in sorted(file_edits, key=lambda e: e[0], reverse=True):
            if old == replacement:  # this group already says what was printed
                continue
            start = _find(lines, old, first - 1)
            if start is None:
                raise UpdateError(f"{path}:{first}: the #> lines read there are no longer in the file; run again")
            prefix = lines[start][: len(lines[start]) - len(old[0])]
            lines[start:start + len(old)] = [prefix + r for r in replacement]
            made.append(Change(str(path), start + 1, len(old), len(replacement)))
        _replace(path, "\n".join(lines))
        fcntl.flock(handle, fcntl.LOCK_UN)
    return sorted(made, key=lambda c: c.first)


def _find(lines: list[str], old: list[str], near: int) -> int | None:
    """Where the lines ``old`` stand in ``lines`` (each file line ending with one), nearest ``near``."""
    found = [i for i in range(len(lines) - len(old) + 1)
             if all(lines[i + k].endswith(o) and not lines[i + k][: len(lines[i + k]) - len(o)].strip(" \t>")
                    for k, o in enumerate(old))]
    return min(found, key=lambda i: abs(i - near)) if found else None


def _replace(path: Path, text: str) -> None:
    mode = path.stat().st_mode & 0o777
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
