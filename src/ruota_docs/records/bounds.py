"""Hostile input kept bounded: what any reader of a record (``record check``, the site's build,
``status``) holds a file to before and after parsing it, so that no record can exhaust memory,
crash a tool, or put invisible or misleading characters in front of a reader.

- **size**: checked on the open file before reading, and at most ``limit + 1`` bytes read (a
  link to ``/dev/zero`` or a growing file cannot make a reader read more);
- **nesting**: at most `MAX_DEPTH` levels of objects and arrays (the engine writes 5);
- **numbers**: finite (no ``NaN``, ``Infinity``, ``1e999``), integers of at most `MAX_INT_DIGITS` digits;
- **characters**: no control characters but tab, newline and carriage return (in outputs and
  reasons, where blocks print them), no lone surrogates (``\ud800`` in JSON: no UTF-8 page can hold
  one), no bidirectional overrides or zero-width characters anywhere
  (they make a text read other than it is: "RX 7900" shown for other bytes);
- **names**: machine fields, provenance, keys and other short fields at most `NAME_LIMIT` characters;
- **metrics**: a ``name: value`` line a chart or a sentence reads holds a number a reader can be shown
  (finite, below `ABSURD`, at most `MAX_NUMBER_CHARS` characters as printed).

Each problem is ``(where, message)``, ``where`` a field as `ruota_docs.records.check` names them.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

#: A record larger than this is refused unread (the engine writes a few MiB at most).
MAX_BYTES = 64 * 2**20
#: Levels of objects and arrays a record may nest (the engine's records nest 5 deep).
MAX_DEPTH = 16
#: Characters of a name (a GPU's, a machine id, a key, a version, a provenance field).
NAME_LIMIT = 200
#: Digits of an integer (JSON allows any; Python converts 4,300 at most, a reader needs 20).
MAX_INT_DIGITS = 20
#: A metric a chart or a sentence shows: below this in size, at most this many characters as printed.
ABSURD = 1e15
MAX_NUMBER_CHARS = 32
#: Fields whose text is what a block printed, or a reason written from it: tab, newline and
#: carriage return are allowed there, no other control character.
_TEXT_FIELDS = ("output", "error", "reason", "outputs.", "reasons.")
#: Bidirectional controls and zero-width characters: text that reads other than it is.
_INVISIBLE = frozenset("\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                       "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff\u2028\u2029\u00ad")
_METRIC = re.compile(r"^\s*(?P<name>[A-Za-z_][\w.-]*)\s*[:=]\s*"
                     r"(?P<value>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)", re.MULTILINE)


class TooLarge(ValueError):
    """A file larger than a reader takes."""


class NotRegular(ValueError):
    """A path that is not a regular file (a device, a folder, a FIFO)."""


def read(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of the regular file ``path``, its size checked on the open file
    before reading. Raises `TooLarge`, `NotRegular` or `OSError`."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(f"{path}: not a regular file")
        if info.st_size > limit:
            raise TooLarge(f"{info.st_size:,} bytes")
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        raw = b"".join(chunks)
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise TooLarge(f"more than {limit:,} bytes (the file grew while it was read)")
    return raw


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def depth_problem(raw: bytes) -> str | None:
    """Why ``raw`` nests too deep to parse safely, or None: counted on the bytes (strings left
    out), before a parser recurses."""
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub(b"", raw)):
        depth += 1 if bracket in (b"{", b"[") else -1
        if depth > MAX_DEPTH:
            return f"objects and arrays nest more than {MAX_DEPTH} levels deep (a record nests 5)"
    return None


class BadNumber(ValueError):
    """A number a record may not hold; ``token`` is it as written, to find where (`locate`)."""

    def __init__(self, token: str, message: str) -> None:
        super().__init__(message)
        self.token = token


def _refuse_constant(name: str) -> NoReturn:
    raise BadNumber(name, f"{name} is not a number a record may hold (JSON has no {name}; a reader cannot show it)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadNumber(text, f"{text[:40]} is not a finite number")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BadNumber(text, f"an integer of {len(text.lstrip('-')):,} digits (at most {MAX_INT_DIGITS})")
    return int(text)


_KEY_BEFORE = re.compile(rb'"((?:[^"\\]|\\.){1,200})"\s*:\s*$')


def locate(raw: bytes, token: str) -> str:
    """Where ``token`` first stands as a value in ``raw``: ``line 3, column 18, field "duration"``."""
    found = re.search(rb"(?<![\w.+-])" + re.escape(token.encode()) + rb"(?![\w.])", raw)
    if found is None:
        return "the record"
    start = found.start()
    line = raw.count(b"\n", 0, start) + 1
    column = start - (raw.rfind(b"\n", 0, start) + 1) + 1
    key = _KEY_BEFORE.search(raw[max(0, start - 300):start])
    field = f", field {printable(key[1].decode('utf-8', 'replace'))}" if key else ""
    return f"line {line}, column {column}{field}"


def loads(raw: bytes, **options: Any) -> Any:
    """``json.loads`` that refuses ``NaN``, ``Infinity``, numbers that overflow to infinity, and
    integers too long to use (raises ``ValueError`` saying which); ``raw`` must be within
    `MAX_DEPTH` (`depth_problem`)."""
    return json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant, parse_float=_finite_float,
                      parse_int=_bounded_int, **options)


def _text_field(where: str) -> bool:
    last = where.rsplit(".", 1)[-1]
    return where.startswith(("outputs.", "reasons.")) or last in ("output", "error", "reason")


_CONTROL = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
#: Lone surrogates: JSON's ``\ud800`` escapes decode to them, and no UTF-8 text (a page, a log) can hold one.
_SURROGATES = "\ud800-\udfff"
_BAD_IN_TEXT = re.compile(f"[{_CONTROL}{_SURROGATES}{''.join(sorted(_INVISIBLE))}]")
_BAD_IN_NAME = re.compile(f"[\t\n\r{_CONTROL}{_SURROGATES}{''.join(sorted(_INVISIBLE))}]")


def _char_problem(text: str, multiline: bool) -> str | None:
    found = (_BAD_IN_TEXT if multiline else _BAD_IN_NAME).search(text)
    if found is None:
        return None
    char, n = found.group(), found.start()
    if "\ud800" <= char <= "\udfff":
        return (f"holds the lone surrogate U+{ord(char):04X} at character {n + 1}: half of a UTF-16 pair, which "
                "no UTF-8 text (a page, a terminal) can hold")
    if char in _INVISIBLE:
        return (f"holds U+{ord(char):04X} ({unicodedata.name(char, 'a format character')}) at character {n + 1}: "
                "bidirectional and zero-width characters make a text read other than it is")
    return (f"holds the control character U+{ord(char):04X} at character {n + 1}"
            + ("" if multiline else ": a name is one line of printable text"))


def _walk(value: Any, where: str) -> Iterator[tuple[str, Any, Any]]:
    """``(where, key_or_None, value)`` for every key and scalar, iteratively (no recursion: the
    depth was checked, but a walk should not depend on it)."""
    stack = [(where, value)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                # a key is named escaped: a report never writes a control character to a terminal or a log
                shown = printable(key, NAME_LIMIT)[1:-1] if _BAD_IN_NAME.search(key) else key
                inner = f"{where}.{shown}" if where else shown
                yield inner, key, None
                stack.append((inner, item))
        elif isinstance(value, list):
            stack.extend((f"{where}[{n}]", item) for n, item in enumerate(value))
        else:
            yield where, None, value


def problems(data: Any) -> list[tuple[str, str]]:
    """Every string, key and number of a parsed record against the bounds above."""
    found = []
    for where, key, value in _walk(data, ""):
        if key is not None:
            shown = printable(key)
            problem = _char_problem(key, False)
            if problem:
                found.append((where, f"the key {shown} {problem}"))
            elif len(key) > NAME_LIMIT:
                found.append((where, f"a key of {len(key):,} characters (at most {NAME_LIMIT:,})"))
            continue
        if isinstance(value, str):
            text = _text_field(where)
            problem = _char_problem(value, text)
            if problem:
                found.append((where, problem))
            elif not text and len(value) > NAME_LIMIT:
                found.append((where, f"{len(value):,} characters: a name or short field holds at most {NAME_LIMIT:,}"))
            elif text:
                found += [(where, message) for message in metric_problems(value)]
        elif isinstance(value, float) and not math.isfinite(value):
            found.append((where, f"{value} is not a finite number"))
    return found


def usable_number(printed: str) -> bool:
    """A number as a block printed it that a chart or a sentence can show."""
    if len(printed) > MAX_NUMBER_CHARS:
        return False
    try:
        value = float(printed)
    except ValueError:
        return False
    return math.isfinite(value) and abs(value) < ABSURD


def metric_problems(text: str) -> list[str]:
    """Metric lines (``name: value``, what charts and sentences read) whose number cannot be shown."""
    return [f"the metric line {printable(m['name'])}: {printable(m['value'])} holds a number no chart or "
            f"sentence can show (at most {MAX_NUMBER_CHARS} characters, finite, below {ABSURD:.0e})"
            for m in _METRIC.finditer(text) if not usable_number(m["value"])]


def printable(text: str, limit: int = 60) -> str:
    """``text`` as a message may quote it: escaped (no control or bidirectional character reaches a
    terminal or a log), cut to ``limit`` characters."""
    cut = text[:limit] + ("…" if len(text) > limit else "")
    return json.dumps(cut, ensure_ascii=True)
