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
from dataclasses import replace

from ruota_docs.blocks.fact_directive import DIRECTIVE, Fact
from ruota_docs.site import formatting
from ruota_docs.site.locales import text
from ruota_docs.site.values import ABBREVIATIONS


def render(fact: Fact, lang: str, as_of: dt.date, max_age: int, paragraph: bool = False) -> str:
    """The mark that stands beside the claim; with ``paragraph``, the one mark of several sentences'
    (or list items') claims, which says it dates their source or sources ("sources checked 5 December 2026")."""
    when = formatting.date(dt.datetime.combine(fact.checked, dt.time()), lang)
    tip = text(lang, "fact_source_tip", source=" · ".join(fact.sources), count=len(fact.sources))
    words = (text(lang, "fact_checked_all", date=when, count=len(fact.sources)) if paragraph
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

    Claims of one paragraph checked the same day get one mark, after the last of them, whose
    tooltip names every source ("#1300 (August 2025), #1904 and #6421 (checked 5 December 2026)"),
    never three identical dates in a row; where those claims span several sentences, the mark
    says it dates their sources ("sources checked 5 December 2026"). The items of a list whose claims
    were all checked the same day get one mark, in the sentence that introduces the list (`_one_per_list`).
    A mark beside an author's parenthesis shares it (`join_parentheses`). ``parse`` reads a directive's
    arguments (raising on bad ones)."""
    page_html = _one_per_list(page_html, parse, lang, as_of, max_age)
    found = [(match, parse(match["args"])) for match in DIRECTIVE.finditer(page_html)]
    out, cursor, carried, across = [], 0, (), False
    for i, (match, fact) in enumerate(found):
        sources = fact.sources + tuple(s for s in carried if s not in fact.sources)
        before = page_html[cursor:match.start()]
        following = found[i + 1] if i + 1 < len(found) else None
        said = following and _said_by_next(page_html[match.end():following[0].start()], fact, following[1],
                                           as_of, max_age)
        if said:
            out.append(before.rstrip(" \t"))  # the next mark says it: this one goes, with the space before it
            carried, across = sources, across or said == "sentences"
        else:
            out += [before, render(replace(fact, sources=sources), lang, as_of, max_age, paragraph=across)]
            carried, across = (), False
        cursor = match.end()
    out.append(page_html[cursor:])
    return join_parentheses("".join(out), lang)


#: A list without a list inside it, and the end of the paragraph before it: a lead-in that ends in a colon.
_LIST = re.compile(r"(?P<lead>(?:[ \t\u00a0\u202f]*:)?)(?P<gap>[ \t]*</p>\s*)"
                   r"<(?P<tag>ul|ol)\b[^>]*>(?P<items>(?:(?!</?(?:ul|ol)\b).)*?)</(?P=tag)>", re.S)
_ITEM = re.compile(r"<li\b[^>]*>(?P<body>.*?)</li>", re.S)
#: What may follow an item's mark: the item's last punctuation, and the end of its paragraph.
_ITEM_END = re.compile(r"[\s.;,\u00a0\u202f]*(?:</p>\s*)?$")


def _one_per_list(page_html: str, parse: Callable[[str], Fact], lang: str, as_of: dt.date, max_age: int) -> str:
    """A list whose every item ends with a claim, most of them (two at least) checked the same day,
    introduced by a sentence that ends in a colon: one mark, before that colon, for those items ("Three
    tickets document it (sources checked 5 December 2026):"), never the same date on each item; an item
    checked another day keeps its own date; any other list is left as it is."""
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
        mark = render(replace(shared[0], sources=sources), lang, as_of, max_age, paragraph=True)
        listed = re.sub(r"[ \t]*" + DIRECTIVE.pattern, lambda m: m[0] if day_of(parse(m["args"])) != day else "",
                        match[0][match.start("tag") - match.start() - 1:], flags=re.S)
        return f" {mark}{match['lead']}{match['gap']}{listed}"  # the colon as its author spaced it ("documentent :")
    return _LIST.sub(one, page_html)


#: Tags that end a paragraph, an item or a cell: two marks with one of these between them are in different sentences.
_BLOCK_TAG = re.compile(r"</?(?:p|li|td|th|tr|div|h[1-6]|br|ul|ol|dl|dt|dd|table|blockquote|pre|figure)\b", re.I)
_TAG = re.compile(r"<[^>]*>")
#: The end of a sentence or of a clause: a full stop (not an abbreviation's), ``!``, ``?`` or ``;`` before a space.
_CLAUSE_END = re.compile(r"([\w.]*)([.!?;])(?=[\s\u00a0\u202f]|$)")


def _said_by_next(between: str, fact: Fact, following: Fact, as_of: dt.date, max_age: int) -> str:
    """Whether ``following``'s mark can say ``fact``'s too: the same day and the same state, in the same
    paragraph, and not inside a parenthesis that closes before it (one that opens right after the first
    mark may hold the second: "June 2026 (the nightlies went on until August 2026)"). ``"clause"`` where
    the two are in one clause, ``"sentences"`` where a sentence or clause ends between them, else ``""``."""
    if fact.checked != following.checked or fact.expired(as_of, max_age) != following.expired(as_of, max_age):
        return ""
    if _BLOCK_TAG.search(between):
        return ""
    text = html.unescape(_TAG.sub("", between))
    ended = any(end[2] != "." or end[1].rstrip(".").lower() not in ABBREVIATIONS for end in _CLAUSE_END.finditer(text))
    depth, lowest = 0, 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        lowest = min(lowest, depth)
    if not (lowest == 0 and (depth == 0 or text.lstrip().startswith("("))):
        return ""
    return "sentences" if ended else "clause"


_MARK = r'(<span class="ruota-fact[^"]*" data-checked="[^"]*">)'
# A mark right after a closing parenthesis, "(ROCm/MIOpen#940) (checked …)", joins it: "(ROCm/MIOpen#940; checked …)"
_AFTER_PARENTHESIS = re.compile(r"\)[ \t]*" + _MARK + r"\((<a [^>]*>[^<]*</a>)")
# A mark at the end of an author's parenthesis, "(until 22 August 2026 (checked …))", joins it the same way
_BEFORE_PARENTHESIS = re.compile(r"[ \t]*" + _MARK + r"\(((?:(?!</span>).)*)\)</span>\)", re.S)


_LINK_WORDS = re.compile(r'(<a href="[^"]*" title="[^"]*">)([^<]*)(</a>)')


def join_parentheses(html_text: str, lang: str = "en") -> str:
    """One parenthesis for a claim's aside or citation and the date it was checked, never two side by
    side or one inside the other: the date follows the author's words as the language sets it there
    ("; checked …" in English, ", état au …" in French, where « vérifié le » would not agree with the source)."""
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
