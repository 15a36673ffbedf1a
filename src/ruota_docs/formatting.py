"""Numbers, dates and durations in the reader's locale (Babel)."""

from __future__ import annotations

import datetime as dt

from babel.dates import format_date as _babel_date
from babel.numbers import format_decimal


def parse_time(stamp: str | None) -> dt.datetime | None:
    if not stamp:
        return None
    try:
        return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None


def date(stamp: str | dt.datetime | None, lang: str) -> str:
    """``2026-11-29T…`` → ``29 nov 2026`` / ``Nov 29, 2026`` / ``29 nov. 2026``."""
    when = stamp if isinstance(stamp, dt.datetime) else parse_time(stamp)
    if when is None:
        return "—"
    return _babel_date(when.date(), format="medium", locale=lang)


def number(value: float, lang: str, digits: int = 2) -> str:
    """A number with the locale's separators and at most ``digits`` decimals."""
    pattern = "#,##0" + ("." + "#" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=lang)


def fixed(value: float, lang: str, digits: int) -> str:
    """A number with the locale's separators and exactly ``digits`` decimals (``66,0``)."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=lang, decimal_quantization=True)


def seconds(value: float, lang: str) -> str:
    return number(value, lang, 2 if value < 10 else 1)
