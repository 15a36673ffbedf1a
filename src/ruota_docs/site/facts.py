"""External claims with the day they were checked: ``<!-- fact: checked=DATE source=URL -->``.

The directive becomes, beside the claim, the date it was checked in the reader's language, linked
to its source ("checked 6 December 2026"). Once the claim is older than the site's
``fact_max_age`` on the day the site is built, the mark adds "may be out of date", so that an
aged claim is never shown as current; ``ruota-docs facts --as-of`` finds the same ones before a
build does.
"""

from __future__ import annotations

import datetime as dt
import html
import re

from ruota_docs.blocks.fact_directive import Fact
from ruota_docs.site import formatting
from ruota_docs.site.locales import text


def render(fact: Fact, lang: str, as_of: dt.date, max_age: int) -> str:
    """The mark that stands beside the claim."""
    when = formatting.date(dt.datetime.combine(fact.checked, dt.time()), lang)
    tip = text(lang, "fact_source_tip", source=" · ".join(fact.sources))
    link = (f'<a href="{html.escape(fact.source)}" title="{html.escape(tip)}">'
            f'{html.escape(text(lang, "fact_checked", date=when))}</a>')
    if not fact.expired(as_of, max_age):
        return f'<span class="ruota-fact" data-checked="{fact.checked.isoformat()}">({link})</span>'
    tip = html.escape(text(lang, "fact_expired_tip", days=max_age))
    warning = f'<strong class="ruota-fact-warning" title="{tip}">{html.escape(text(lang, "fact_expired"))}</strong>'
    return (f'<span class="ruota-fact ruota-fact-expired" data-checked="{fact.checked.isoformat()}">'
            f'({link}; {warning})</span>')


# A mark right after a closing parenthesis, "(ROCm/MIOpen#940) (checked …)", joins it: "(ROCm/MIOpen#940, checked …)"
_AFTER_PARENTHESIS = re.compile(r'\)[ \t]*(<span class="ruota-fact[^"]*" data-checked="[^"]*">)\(')


def join_parentheses(html_text: str) -> str:
    """One parenthesis for a citation and the date it was checked, not two side by side."""
    return _AFTER_PARENTHESIS.sub(lambda m: f"{m[1]}, ", html_text)
