"""Numbers, quantities, dates and lists in the reader's locale (Babel, CLDR data).

Everything the site prints next to a number goes through here, so that a number and
its unit never break across lines (``12 s``, ``8 GiB``: a no-break space) and French
readers get French units (``Gio``, ``Mio``, ``Kio``, ``o``).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from functools import lru_cache

from babel import Locale
from babel.dates import format_date as _babel_date
from babel.lists import format_list
from babel.numbers import format_decimal

NBSP = "\u00a0"
#: CLDR's minimumGroupingDigits, which Babel does not apply: Spanish groups thousands
#: only from five digits on (``1081``, but ``10 814``), as the RAE's Ortografía asks.
_MIN_GROUPING = {"es": 2}
#: The Ortografía (2010) separates those groups with a thin space, never CLDR's full stop:
#: a narrow no-break space, so that a number never breaks across lines.
_GROUP_SEPARATOR = {"es": "\u202f"}
#: Binary units in French: gibioctet, mébioctet, kibioctet, octet.
_UNITS = {"fr": {"TiB": "Tio", "GiB": "Gio", "MiB": "Mio", "KiB": "Kio", "B": "o"}}


def parse_time(stamp: str | None) -> dt.datetime | None:
    if not stamp:
        return None
    try:
        return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None


def date(stamp: str | dt.datetime | None, lang: str, style: str = "long") -> str:
    """A date as the reader's language writes it.

    ``long`` (in sentences): ``1 de diciembre de 2026``, ``1er décembre 2026``,
    ``December 1, 2026``; ``medium`` (tables, compact lines): ``1 dic. 2026``,
    ``1 déc. 2026``, ``Dec 1, 2026``. ``—`` where there is no date.
    """
    when = stamp if isinstance(stamp, dt.datetime) else parse_time(stamp)
    if when is None:
        return "—"
    day = when.date()
    written = _babel_date(day, format=style, locale=_dates_locale(lang))
    if lang == "fr" and day.day == 1 and written.startswith("1 "):
        written = "1er" + written[1:]  # French writes the first of the month as an ordinal
    if lang == "es" and style == "medium":  # CLDR's "6 dic 2026": Spanish abbreviations end in a full stop
        written = re.sub(r"^(\d+ )([^\W\d]+)( \d+)$", r"\1\2.\3", written)
    return written


def days(when: tuple[dt.date, ...] | list[dt.date], lang: str) -> str:
    """Several days as a sentence writes them: ``5 and 6 December 2026``, ``5 y 6 de diciembre de 2026``,
    ``1er et 6 décembre 2026``; days of different months each in full (``30 November and 6 December 2026``
    is written ``30 November 2026 and 6 December 2026``, as the language's list of dates would)."""
    ordered = sorted(set(when))
    written = [date(dt.datetime.combine(day, dt.time()), lang) for day in ordered]
    if len({(day.year, day.month) for day in ordered}) == 1:
        written = [text.split(" ", 1)[0] for text in written[:-1]] + written[-1:]
    return join(written, lang)


def day_range(when: tuple[dt.date, ...] | list[dt.date], lang: str) -> tuple[str, str]:
    """The first and the last of several days, as "between … and …" writes them: ``1`` and
    ``6 December 2026`` (the first in full where the month or the year differs)."""
    first, last = (date(dt.datetime.combine(day, dt.time()), lang) for day in (min(when), max(when)))
    if (min(when).year, min(when).month) == (max(when).year, max(when).month):
        first = first.split(" ", 1)[0]
    return first, last


def _dates_locale(lang: str) -> str:
    """The English pages are written in British English: 1 December 2026, "a, b and c"."""
    return "en_GB" if lang == "en" else lang


@lru_cache(maxsize=4096)  # a page of a thousand machines' counts formats the same few numbers again and again
def number(value: float, lang: str, digits: int = 2) -> str:
    """A number with the locale's separators and at most ``digits`` decimals."""
    if not math.isfinite(value):
        return "—"
    return _decimal(value, "#,##0" + ("." + "#" * digits if digits else ""), lang)


def _decimal(value: float, pattern: str, lang: str) -> str:
    grouping = abs(value) >= 10 ** (2 + _MIN_GROUPING.get(lang, 1))
    written = format_decimal(value, format=pattern, locale=lang, group_separator=grouping)
    if grouping and lang in _GROUP_SEPARATOR:  # Spanish: "." is only ever the group separator here
        written = written.replace(".", _GROUP_SEPARATOR[lang])
    return written


def unit(name: str, lang: str) -> str:
    """A unit symbol in the reader's language (``MiB`` → ``Mio`` in French)."""
    return _UNITS.get(lang, {}).get(name, name)


def quantity(value: float | str, unit_name: str, lang: str, digits: int = 2) -> str:
    """``12,5 s``, ``8 Gio``: a number (or an already formatted one) and its unit,
    joined by a no-break space; just the number where there is no unit."""
    shown = value if isinstance(value, str) else number(value, lang, digits)
    return f"{shown}{NBSP}{unit(unit_name, lang)}" if unit_name else shown


def size(text: str, lang: str) -> str:
    """A size as the requirement vocabulary writes it (``8GiB``) for readers: ``8 GiB``, ``8 Gio``."""
    for name in _UNITS["fr"]:
        if text.endswith(name) and text[: -len(name)].replace(".", "", 1).isdigit():
            return quantity(float(text[: -len(name)]), name, lang)
    return text


def fixed(value: float, lang: str, digits: int) -> str:
    """A number with the locale's separators and exactly ``digits`` decimals (``66,0``)."""
    return _decimal(value, "#,##0" + ("." + "0" * digits if digits else ""), lang)


#: The shortest duration a page shows as a number; anything shorter reads "under" it (`seconds_under`).
SHORTEST_SECONDS = 0.01


def seconds_under(value: float) -> bool:
    """Whether ``value`` is shown as less than `SHORTEST_SECONDS` rather than as its own number."""
    return math.isfinite(value) and value < SHORTEST_SECONDS


def seconds(value: float, lang: str) -> str:
    """A duration in hundredths under a second, tenths under ten seconds, whole seconds under a minute
    (``0,05 s``, ``0,10 s``, ``1,2 s``, ``2,0 s``, ``14 s``), then ``2 min 5 s``: the steps of the shortest
    shown, zeros kept, so that neighbouring durations read alike (``2,0 s`` beside ``2,7 s``); under
    `SHORTEST_SECONDS`, that bound (the caller words it as "less than", see `seconds_under`)."""
    if not math.isfinite(value):
        return "—"  # `record check` refuses it; a reader is shown no number rather than a crash
    if seconds_under(value):
        return quantity(SHORTEST_SECONDS, "s", lang)
    for digits, below in ((2, 1), (1, 10), (0, 60)):
        if round(value, digits) < below:
            return quantity(fixed(round(value, digits), lang, digits), "s", lang)
    minutes, rest = divmod(round(value), 60)
    if not rest:
        return quantity(minutes, "min", lang, 0)
    return f"{quantity(minutes, 'min', lang, 0)} {quantity(rest, 's', lang, 0)}"


@lru_cache(maxsize=4096)
def plural_form(count: float, lang: str) -> str:
    """CLDR's plural category of ``count``: ``one``, ``many`` or ``other`` (French: 0 and 1 are ``one``)."""
    return Locale.parse(lang).plural_form(abs(count))


def join(items: list[str], lang: str, style: str = "standard") -> str:
    """``a, b y c`` / ``a, b et c`` / ``a, b, and c``; ``style="or"`` for alternatives; ``style="nor"``
    for alternatives after a negation, which Spanish and French join with «ni» (``ninguna GPU a ni b``,
    « pas encore pour a ni b »);
    ``style="neither"`` for places a negated participle lists, which French joins with « ni » (« non exécuté
    sur A ni sur B »), and Spanish and English with "and"."""
    if not items:
        return ""
    if style == "neither":
        if lang == "fr" and len(items) > 1:
            return " ni ".join(items)
        style = "standard"
    if style == "nor":
        if lang in ("es", "fr") and len(items) > 1:
            return f"{', '.join(items[:-1])} ni {items[-1]}"
        style = "or"
    return format_list(list(items), style=style, locale=_dates_locale(lang))
