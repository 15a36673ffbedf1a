"""The ``<!-- fact: checked=DATE source=URL -->`` directive: when an external claim was checked, and where.

A version, a date, a support statement, an index URL or a maintainer's statement is true on the
day someone read it. The author writes the directive right after the claim, in the sentence::

    ROCm 7.14 has a stable index <!-- fact: checked=2026-12-06 source=https://github.com/… -->.

The site shows the date beside the claim in the reader's language, with a link to the source
(`ruota_docs.site.facts`), and marks it "may be out of date" once it is older than the site's
``fact_max_age`` (days); ``ruota-docs facts`` lists every fact by age and, with ``--as-of``, fails
naming those that have expired. The same facts, with the same dates and sources, stand in every
language (the translation check compares them like numbers).
"""

from __future__ import annotations

import datetime as dt
import re
import shlex
from dataclasses import dataclass
from pathlib import Path


#: The directive anywhere in prose; code blocks are left out by the callers.
DIRECTIVE = re.compile(r"<!--[ \t]*fact[ \t]*:(?P<args>.*?)-->", re.S)
#: ``<!-- fact checked=… -->`` (no colon) or ``<!-- facts: … -->``: a fact that would otherwise go unnoticed.
_NEAR_MISS = re.compile(r"<!--[ \t]*(?:fact\b(?![ \t]*:)(?!-)|facts\b|fact-checked\b)", re.I)
_OPTIONS = ("checked", "source")


class FactDirectiveError(ValueError):
    """A fact directive that cannot be understood."""


@dataclass(frozen=True)
class Fact:
    """One ``fact:`` directive: the day its claim was checked and the source it was checked against."""

    checked: dt.date
    sources: tuple[str, ...]  #: the URLs it was checked against, the first the one the date links to

    @property
    def source(self) -> str:
        return self.sources[0]

    @property
    def key(self) -> str:
        """What must be the same in every language."""
        return f"fact:{self.checked.isoformat()}:{' '.join(self.sources)}"

    def age(self, as_of: dt.date) -> int:
        """Days from the check to ``as_of``."""
        return (as_of - self.checked).days

    def expired(self, as_of: dt.date, max_age: int) -> bool:
        """Whether the claim is older than ``max_age`` days on ``as_of``."""
        return self.age(as_of) > max_age


def parse(args: str) -> Fact:
    """``checked=YYYY-MM-DD source=URL [source=URL …]``; raises `FactDirectiveError` naming what is wrong.

    Examples:
        >>> import datetime
        >>> fact = parse("checked=2026-12-06 source=https://pypi.org/project/torch/")
        >>> fact.checked, fact.source
        (datetime.date(2026, 12, 6), 'https://pypi.org/project/torch/')
        >>> fact.expired(as_of=datetime.date(2027, 4, 5), max_age=120), fact.expired(datetime.date(2027, 4, 6), 120)
        (False, True)
        >>> parse("checked=yesterday source=https://pypi.org/")
        Traceback (most recent call last):
        ...
        ruota_docs.blocks.fact_directive.FactDirectiveError: fact: checked= must be a date written YYYY-MM-DD ...
    """
    options, sources = _options(args)
    missing = [k for k in _OPTIONS if not options.get(k)]
    if missing:
        raise FactDirectiveError(f"fact: needs {' and '.join(m + '=' for m in missing)} "
                                 "(the day the claim was checked, YYYY-MM-DD, and the URL it was checked against)")
    try:
        checked = dt.date.fromisoformat(options["checked"])
    except ValueError:
        raise FactDirectiveError(f"fact: checked= must be a date written YYYY-MM-DD (got {options['checked']!r})") \
            from None
    for source in sources:
        if not re.fullmatch(r"https?://[^\s\"'<>]+\.[^\s\"'<>]+", source):
            raise FactDirectiveError(f"fact: source= must be an http(s) URL (got {source!r})")
    return Fact(checked, tuple(sources))


def _options(args: str) -> tuple[dict[str, str], list[str]]:
    """``(options, sources)`` of a fact directive's arguments: each option once, each source once."""
    try:
        tokens = shlex.split(args)
    except ValueError as error:
        raise FactDirectiveError(f"malformed fact: directive ({error})") from None
    options: dict[str, str] = {}
    sources: list[str] = []
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or key not in _OPTIONS:
            raise FactDirectiveError(f"fact: takes checked=YYYY-MM-DD and source=URL (got {token!r})")
        if key == "source":  # a claim drawn from several sources names each
            if value in sources:
                raise FactDirectiveError(f"fact: source={value} is given twice")
            sources.append(value)
        elif key in options:
            raise FactDirectiveError(f"fact: {key}= is given twice")
        options[key] = value
    return options, sources


def check_date(fact: Fact, today: dt.date) -> str | None:
    """Why ``fact`` cannot be right on ``today``, if it cannot: a check cannot happen in the future."""
    if fact.checked > today:
        return f"fact: checked={fact.checked.isoformat()} is in the future (today is {today.isoformat()})"
    return None


def in_text(text: str, skip_lines=frozenset()) -> list[tuple[int, str]]:
    """``(line, args)`` of every fact directive in a page's prose, outside the lines given (code
    blocks) and outside inline code. A near miss (``<!-- fact checked=… -->``, ``<!-- facts: …
    -->``) comes back with ``args`` None, so that the caller reports it."""
    found: list[tuple[int, str | None]] = []
    for number, line in enumerate(text.split("\n"), 1):
        if number in skip_lines or "fact" not in line.lower():
            continue
        prose = re.sub(r"`[^`\n]+`", " ", line)
        found.extend((number, m["args"]) for m in DIRECTIVE.finditer(prose))
        found.extend((number, None) for _ in _NEAR_MISS.finditer(prose))
    return found


def near_miss_message() -> str:
    return "a fact directive is written <!-- fact: checked=YYYY-MM-DD source=URL --> (name 'fact', then a colon)"


def code_lines(text: str) -> set[int]:
    """Lines inside fenced code blocks (``` or ~~~, at any indentation), fences included: where a
    directive is only shown. For listing facts without rendering the page."""
    inside, fence, lines = False, "", set()
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip(" \t>")
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if not inside and marker:
            inside, fence = True, marker.group(1)
            lines.add(number)
        elif inside:
            lines.add(number)
            if stripped.startswith(fence) and not stripped[len(fence):].strip(fence[0]).strip():
                inside = False
    return lines


@dataclass(frozen=True)
class Found:
    """A fact where it is written: the page (relative to the docs directory), its line, and the claim's text."""

    page: str
    line: int
    fact: Fact
    claim: str


def in_pages(docs_dir: Path, today: dt.date) -> tuple[list[Found], list[tuple[str, int, str]]]:
    """Every fact of every page under ``docs_dir``, and the problems (page, line, message) of
    those that cannot be read."""
    found, problems = [], []
    for path in sorted(Path(docs_dir).rglob("*.md")):
        page = path.relative_to(docs_dir).as_posix()
        text = path.read_text(encoding="utf-8")
        if "fact" not in text.lower():
            continue
        lines = text.split("\n")
        for number, args in in_text(text, code_lines(text)):
            if args is None:
                problems.append((page, number, near_miss_message()))
                continue
            try:
                fact = parse(args)
            except FactDirectiveError as error:
                problems.append((page, number, str(error)))
                continue
            future = check_date(fact, today)
            if future:
                problems.append((page, number, future))
            found.append(Found(page, number, fact, claim(lines[number - 1], args)))
        # a date in the future is reported above: it is no reading for the others to follow
        problems.extend(_dated_twice([f for f in found if f.page == page and f.fact.checked <= today]))
    return found, problems


def _dated_twice(facts: list[Found]) -> list[tuple[str, int, str]]:
    """A source the page shows as checked on two days: the reader who meets it in the summary and again in
    the body sees two dates for one source, and cannot tell which reading holds."""
    latest: dict[str, Found] = {}
    for found in facts:
        for source in found.fact.sources:
            if source not in latest or found.fact.checked > latest[source].fact.checked:
                latest[source] = found
    return [(found.page, found.line, f"{source} is dated {found.fact.checked} here but {newer.fact.checked} at line "
             f"{newer.line}: one source shows one date on a page; write {newer.fact.checked} here if that reading "
             "covers this claim too, or check the claim again")
            for found in facts for source in found.fact.sources
            if (newer := latest[source]).fact.checked > found.fact.checked]


def claim(line: str, args: str) -> str:
    """The prose the directive dates: the line up to it, without markup, shortened from the left."""
    before = line.split(f"{args}-->", 1)[0]
    before = DIRECTIVE.sub("", before.rsplit("<!--", 1)[0])
    before = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", before)
    before = re.sub(r"[*_`]|<[^>]+>", "", before).strip(" -|>")
    return before if len(before) <= 90 else "…" + before[-89:]
