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
from collections import Counter
from collections.abc import Callable

from ruota_docs.blocks.fact_directive import DIRECTIVE, Fact
from ruota_docs.site import formatting
from ruota_docs.site.locales import text


def render(fact: Fact, lang: str, as_of: dt.date, max_age: int, days: tuple[dt.date, ...] = ()) -> str:
    """The mark that stands beside the claim, or after the last of several claims that share it: ``days``
    are the days they were checked where there are several ("checked 5 and 6 December 2026"); ``fact``
    carries the oldest, by which the mark ages, and every source."""
    when = formatting.date(dt.datetime.combine(fact.checked, dt.time()), lang)
    tip = text(lang, "fact_source_tip", source=" · ".join(fact.sources), count=len(fact.sources))
    several = len(set(days))
    if several > 2:  # "checked between 1 and 6 December 2026": a list of three days reads as a ledger
        first, last = formatting.day_range(days, lang)
        words = text(lang, "fact_checked_range", first=first, last=last)
    else:
        words = (text(lang, "fact_checked_days", dates=formatting.days(days, lang)) if several == 2
                 else text(lang, "fact_checked", date=when))
    link = f'<a href="{html.escape(fact.source)}" title="{html.escape(tip)}">{html.escape(words)}</a>'
    if not fact.expired(as_of, max_age):
        return f'<span class="ruota-fact" data-checked="{fact.checked.isoformat()}">({link})</span>'
    tip = html.escape(text(lang, "fact_expired_tip", days=max_age))
    warning = f'<strong class="ruota-fact-warning" title="{tip}">{html.escape(text(lang, "fact_expired"))}</strong>'
    return (f'<span class="ruota-fact ruota-fact-expired" data-checked="{fact.checked.isoformat()}">'
            f'({link}; {warning})</span>')


def render_page(page_html: str, parse: Callable[[str], Fact], lang: str, as_of: dt.date, max_age: int) -> str:
    """Every ``fact:`` directive of a page's HTML as its mark, as a writer would set the dates.

    The claims of one paragraph, list item or table cell get one mark, after the last of them: the day
    they were checked ("checked 5 December 2026", or "checked 5 and 6 December 2026" for several days),
    its tooltip naming every source; never a date after each claim of a sentence, or the same date
    twice in a paragraph. The items of a list whose claims were checked the same day get one mark, in
    the sentence that introduces the list (`_one_per_list`). A mark beside an author's parenthesis
    shares it (`join_parentheses`). ``parse`` reads a directive's arguments (raising on bad ones)."""
    page_html = _one_per_list(page_html, parse, lang, as_of, max_age)
    found = [(match, parse(match["args"])) for match in DIRECTIVE.finditer(page_html)]
    out, cursor, group = [], 0, []
    for i, (match, fact) in enumerate(found):
        group.append(fact)
        before = page_html[cursor:match.start()]
        following = found[i + 1] if i + 1 < len(found) else None
        if following is not None and not _BLOCK_TAG.search(page_html[match.end():following[0].start()]):
            out.append(before.rstrip(" \t"))  # the paragraph's last mark says it: this one goes, with its space
        else:
            out += [before, _shared(group, lang, as_of, max_age)]
            group = []
        cursor = match.end()
    out.append(page_html[cursor:])
    return join_parentheses("".join(out), lang)


def _shared(facts: list[Fact], lang: str, as_of: dt.date, max_age: int) -> str:
    """The one mark of ``facts`` (a paragraph's, in order): aged by the oldest, the last one's sources first."""
    sources = tuple(dict.fromkeys(source for fact in reversed(facts) for source in fact.sources))
    oldest = min(fact.checked for fact in facts)
    return render(Fact(oldest, sources), lang, as_of, max_age, tuple(sorted({fact.checked for fact in facts})))


#: A list without a list inside it, and the end of the paragraph before it: a lead-in that ends in a colon.
_LIST = re.compile(r"(?P<lead>(?:[ \t\u00a0\u202f]*:)?)(?P<gap>[ \t]*</p>\s*)"
                   r"<(?P<tag>ul|ol)\b[^>]*>(?P<items>(?:(?!</?(?:ul|ol)\b).)*?)</(?P=tag)>", re.S)
_ITEM = re.compile(r"<li\b[^>]*>(?P<body>.*?)</li>", re.S)
#: What may follow an item's mark: the item's last punctuation, and the end of its paragraph.
_ITEM_END = re.compile(r"[\s.;,\u00a0\u202f]*(?:</p>\s*)?$")


def _one_per_list(page_html: str, parse: Callable[[str], Fact], lang: str, as_of: dt.date, max_age: int) -> str:
    """A list whose every item ends with a claim, most of them (two at least) checked the same day,
    introduced by a sentence that ends in a colon: one mark, before that colon, for those items and the
    sentence's own claims ("Three tickets document it (checked 5 December 2026):"), never the same date
    on each item; an item checked another day keeps its own date; any other list is left as it is (a date
    after a list's last item would read as that item's alone)."""
    def day_of(fact: Fact) -> tuple[dt.date, bool]:
        return fact.checked, fact.expired(as_of, max_age)

    def one(match: re.Match[str]) -> str:
        if not match["lead"]:
            return match[0]
        items = [m["body"] for m in _ITEM.finditer(match["items"])]
        stamps = [list(DIRECTIVE.finditer(body)) for body in items]
        if len(items) < 2 or any(len(found) != 1 or not _ITEM_END.match(body[found[0].end():])
                                 for body, found in zip(items, stamps)):
            return match[0]
        said = [parse(found[0]["args"]) for found in stamps]
        days = Counter(day_of(f) for f in said)
        day, count = days.most_common(1)[0]
        if count < 2 or count * 2 <= len(said):  # most items, at least two: the others keep their own date
            return match[0]
        shared = [f for f in said if day_of(f) == day]
        sources = tuple(dict.fromkeys(source for f in shared for source in f.sources))
        # as a directive of the sentence: its own claims' directives and this one make one mark (`render_page`)
        mark = f"<!-- fact: checked={day[0].isoformat()} " + " ".join(f"source={s}" for s in sources) + " -->"
        listed = re.sub(r"[ \t]*" + DIRECTIVE.pattern, lambda m: m[0] if day_of(parse(m["args"])) != day else "",
                        match[0][match.start("tag") - match.start() - 1:], flags=re.S)
        return f" {mark}{match['lead']}{match['gap']}{listed}"  # the colon as its author spaced it ("documentent :")
    return _LIST.sub(one, page_html)


#: Tags that end a paragraph, an item or a cell: two marks with one of these between them are in different sentences.
_BLOCK_TAG = re.compile(r"</?(?:p|li|td|th|tr|div|h[1-6]|br|ul|ol|dl|dt|dd|table|blockquote|pre|figure)\b", re.I)


_MARK = r'(<span class="ruota-fact[^"]*" data-checked="[^"]*">)'
# A mark right after a closing parenthesis, "(ROCm/MIOpen#940) (checked …)", joins it: "(ROCm/MIOpen#940; checked …)"
_AFTER_PARENTHESIS = re.compile(r"\)[ \t]*" + _MARK + r"\((<a [^>]*>[^<]*</a>)")
# A mark at the end of an author's parenthesis, "(until 22 August 2026 (checked …))", joins it the same way
_BEFORE_PARENTHESIS = re.compile(r"[ \t]*" + _MARK + r"\(((?:(?!</span>).)*)\)</span>\)", re.S)


_LINK_WORDS = re.compile(r'(<a href="[^"]*" title="[^"]*">)([^<]*)(</a>)')


def join_parentheses(html_text: str, lang: str = "en") -> str:
    """One parenthesis for a claim's aside or citation and the date it was checked, never two side by
    side or one inside the other: the date follows the author's words as the language sets it there
    ("; checked …" in English, ", consulté le …" in French, "; fecha de consulta: …" in Spanish: the
    citation formulas of each language, which agree with any source)."""
    separator = text(lang, "fact_joined_separator")

    def reworded(mark: str, rest: str) -> str:
        """The mark's link as it reads after the author's words (its date, said the joined way)."""
        checked = re.search(r'data-checked="([^"]*)"', mark)
        if checked is None:
            return rest
        when = formatting.date(dt.datetime.combine(dt.date.fromisoformat(checked[1]), dt.time()), lang)
        alone, joined = (html.escape(text(lang, key, date=when)) for key in ("fact_checked", "fact_checked_joined"))
        return _LINK_WORDS.sub(lambda m: m[1] + (joined if m[2] == alone else m[2]) + m[3], rest, count=1)

    after = _AFTER_PARENTHESIS.sub(lambda m: f"{m[1]}{separator}{reworded(m[1], m[2])}", html_text)
    return _BEFORE_PARENTHESIS.sub(lambda m: f"{m[1]}{separator}{reworded(m[1], m[2])}</span>)", after)
