"""The ``<!-- value: block=ID metric=NAME -->`` directive as authors write it in prose.

Reading it is part of a page's blocks (the renderer checks that ``block=`` names a block
of the page); what it shows is drawn from the records by `ruota_docs.site.values`.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass


#: The directive anywhere in text; code blocks are left out by the callers.
DIRECTIVE = re.compile(r"<!--[ \t]*value[ \t]*:(?P<args>.*?)-->", re.S)
_OPTIONS = ("block", "metric", "unit", "digits", "machine", "alike")
#: Which machine's value a sentence gives first: ``gpu`` where the figure is about the GPU even
#: though the block also runs on a CPU (a numerical check), ``cpu`` the other way round.
MACHINES = ("gpu", "cpu")
#: How several metrics that read the same are written: the value and "in both cases" (``cases``),
#: or the value alone (``once``) where the sentence already says they are the same.
ALIKE = ("cases", "once")


class ValueDirectiveError(ValueError):
    """A value directive that cannot be understood."""


@dataclass(frozen=True)
class Value:
    """One ``value:`` directive."""

    block: str
    metric: str
    unit: str = ""
    digits: int | None = None
    machine: str = ""  #: ``gpu``, ``cpu``, or empty: the GPU's unless the block needs none
    alike: str = "cases"  #: one of `ALIKE`

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metrics it names: one, or several (``metric=a,b``) that a sentence gives together."""
        return tuple(self.metric.split(","))

    @property
    def key(self) -> str:
        """What must be the same in every language: ``value:block/metric``."""
        return f"value:{self.block}/{self.metric}"


def parse(args: str) -> Value:
    """Read ``block=ID metric=NAME[,NAME…] [unit=U] [digits=N] [machine=gpu|cpu] [alike=cases|once]``.

    Raises `ValueDirectiveError`, naming what is wrong, for anything else.
    """
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
        raise ValueDirectiveError(f"value: needs {' and '.join(m + '=' for m in missing)} "
                                  "(the id= of a run: directive, and the name of a metric line it prints)")
    if any(not m for m in options["metric"].split(",")):
        raise ValueDirectiveError(f"value: metric= names one metric, or several separated by commas "
                                  f"(got {options['metric']!r})")
    digits = options.get("digits")
    if digits is not None and not digits.isdigit():
        raise ValueDirectiveError(f"value: digits= must be a whole number (got {digits!r})")
    machine = options.get("machine", "")
    if machine and machine not in MACHINES:
        raise ValueDirectiveError(f"value: machine= is gpu or cpu (got {machine!r})")
    alike = options.get("alike", "cases")
    if alike not in ALIKE:
        raise ValueDirectiveError(f"value: alike= is cases or once (got {alike!r})")
    if alike == "once" and "," not in options["metric"]:
        raise ValueDirectiveError("value: alike= applies to several metrics (metric=a,b)")
    return Value(options["block"], options["metric"], options.get("unit", ""), int(digits) if digits else None,
                 machine, alike)


def in_text(text: str, skip_lines=frozenset()) -> list[tuple[int, str]]:
    """``(line, args)`` of every value directive in a page's prose: outside the lines given
    (code blocks) and outside inline code, where the directive is only shown."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        if number not in skip_lines and "value" in line:
            found.extend((number, m["args"]) for m in DIRECTIVE.finditer(re.sub(r"`[^`\n]+`", " ", line)))
    return found
