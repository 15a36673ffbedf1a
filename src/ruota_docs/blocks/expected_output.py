"""The output a block's code states it prints: its ``#>`` lines (and pytest-examples' triple-quoted
strings after a ``print(…)``), read from the code alone.

The run compares them with what the block printed (`ruota_docs.run.outputs`: the format, the diff,
``--update-outputs``); ``record check`` holds a recorded passed result to them
(`printed_in`: a result that says it passed while its output lacks what the code states is one
the engine never writes).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace

_EXPECTED = re.compile(r"^(?P<indent>[ \t]*)#>(?:[ ](?P<text>.*))?$")

@dataclass(frozen=True)
class Expected:
    """One ``#>`` line: where it is in the block's code (0-based) and what it states."""

    index: int
    indent: str
    text: str
    loose: bool = False  #: a line of a pytest-examples triple-quoted string: black's layout, compared loosely
    #: right under no ``print(…)`` (a bare expression, as in a REPL, or a comment): pytest-examples never
    #: checks such a line, so it is left out where the output matches without it
    repl: bool = False


def expected(code: str) -> list[Expected]:
    """The ``#>`` lines of a block's code, and the lines of triple-quoted strings that follow a print, in order."""
    found = []
    for index, line in enumerate(code.split("\n")):
        match = _EXPECTED.match(line)
        if match:
            found.append(Expected(index, match["indent"], (match["text"] or "").rstrip()))
    if "print(" in code and ('"""' in code or "'''" in code):
        found = sorted(found + _quoted(code), key=lambda e: e.index)
    return _mark_repl(code, found) if found else found


def _mark_repl(code: str, found: list[Expected]) -> list[Expected]:
    """``found`` with the ``#>`` lines that stand right under no ``print(…)`` statement marked ``repl``
    (under a bare expression, as in a REPL, or under a comment): pytest-examples never checks those."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return found
    ends = {node.end_lineno for node in ast.walk(tree) if is_print(node)}
    lines = code.split("\n")
    marked = []
    for e in found:
        above = e.index - 1  # the code line above the group of #> lines this one belongs to
        while above >= 0 and _EXPECTED.match(lines[above]):
            above -= 1
        marked.append(replace(e, repl=True) if not e.loose and above + 1 not in ends else e)
    return marked


def _quoted(code: str) -> list[Expected]:
    """pytest-examples' multi-line outputs: a string statement right after a ``print(…)`` statement."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            statements = getattr(node, field, None)
            if not isinstance(statements, list):
                continue
            for before, statement in zip(statements, statements[1:]):
                if is_print(before) and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) \
                        and isinstance(statement.value.value, str) and statement.end_lineno > statement.lineno:
                    indent = " " * statement.col_offset
                    lines = statement.value.value.strip("\n").split("\n")
                    found += [Expected(statement.lineno + k, indent, _dedent(line, indent).rstrip(), loose=True)
                              for k, line in enumerate(lines)]
    return found


def is_print(statement) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
        and isinstance(statement.value.func, ast.Name) and statement.value.func.id == "print"


def _dedent(line: str, indent: str) -> str:
    return line[len(indent):] if line.startswith(indent) else line.lstrip()


def _pattern(text: str) -> re.Pattern:
    return re.compile(".*".join(re.escape(part) for part in text.split("...")) + r"\Z", re.S)


#: A memory address as pytest-examples writes it in place of any (``<object at 0x0123456789ab>``).
_ADDRESS = "0x0123456789ab>"


def line_matches(expected_text: str, actual: str) -> bool:
    """``actual`` as ``expected_text`` states it (``...`` matching any text; pytest-examples'
    ``0x0123456789ab>`` matching any memory address, and a set matching whatever the order of its items)."""
    if _ADDRESS in expected_text:
        actual = re.sub(r"0x[a-f0-9]{8,12}>", _ADDRESS, actual)
    if "..." not in expected_text:
        return expected_text == actual or _same_set(expected_text, actual)
    return _pattern(expected_text).match(actual) is not None


def _same_set(expected_text: str, actual: str) -> bool:
    """Both lines a set (or frozenset) of the same items: the order a set prints in depends on the hash seed."""
    if not (expected_text.startswith(("{", "frozenset(")) and actual.startswith(("{", "frozenset("))):
        return False
    try:
        want, got = (ast.literal_eval(t.removeprefix("frozenset(").removesuffix(")") if t.startswith("frozenset(")
                                      else t) for t in (expected_text, actual))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return False
    return isinstance(want, set) and want == got


def missing_from(lines: list[Expected], output: str) -> Expected | None:
    """The first stated line that ``output`` does not hold, in order, among its lines; None where it
    holds them all. ``output`` is what the record keeps: stdout and stderr together, so other lines
    may stand between the stated ones; loose (triple-quoted) lines, and lines under no ``print(…)``
    (which the run may leave out), are not compared. A line stated inside an indented body (a
    function's, a method's) may stand anywhere in the output: a function prints when it is called,
    which may be after lines stated below it (as the run allows, `ruota_docs.run.outputs`)."""
    got = [line.rstrip() for line in output.split("\n")]
    position = 0
    stated = [e for e in lines if not e.loose and not e.repl]
    while stated and not stated[-1].text:
        stated.pop()
    for line in stated:
        if line.indent:
            if not any(line_matches(line.text, text) for text in got):
                return line
            continue
        while position < len(got) and not line_matches(line.text, got[position]):
            position += 1
        if position == len(got):
            return line
        position += 1
    return None
