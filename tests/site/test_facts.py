"""site.facts: the day a claim was checked, beside it, in the reader's language; marked once it has aged."""

from __future__ import annotations

import datetime as dt
import html
import re

import pytest

from _support import words
from ruota_docs.blocks.fact_directive import Fact
from ruota_docs.site import facts, formatting

FACT = Fact(dt.date(2026, 12, 6), ("https://github.com/ROCm/TheRock/pull/7644?a=1&b=2", "https://pypi.org/project/torch/"))


@pytest.mark.parametrize("lang, shown, tip", [
    ("es", "(fecha de consulta: 6 de diciembre de 2026)", "Fuentes: https://github.com/ROCm/TheRock/pull/7644?a=1&amp;b=2 · https://pypi.org/project/torch/"),
    ("en", "(checked 6 December 2026)", "Sources: https://github.com/ROCm/TheRock/pull/7644?a=1&amp;b=2"),
    ("fr", "(consulté le 6 décembre 2026)", "Sources : https://github.com/ROCm/TheRock/pull/7644?a=1&amp;b=2"),
])
def test_a_current_fact_shows_its_date_linked_to_its_source(lang, shown, tip):
    mark = facts.render(FACT, lang, dt.date(2026, 12, 20), 120)
    assert " ".join(html.unescape(re.sub(r"<[^>]+>", "", mark)).split()) == shown
    assert 'href="https://github.com/ROCm/TheRock/pull/7644?a=1&amp;b=2"' in mark and tip in mark
    assert 'data-checked="2026-12-06"' in mark and "expired" not in mark


@pytest.mark.parametrize("lang, warning", [
    ("es", "puede haber cambiado"), ("en", "may be out of date"), ("fr", "peut ne plus être à jour")])
def test_an_expired_fact_says_it_may_be_out_of_date(lang, warning):
    assert warning not in facts.render(FACT, lang, dt.date(2027, 4, 5), 120)  # 120 days: the last current day
    mark = facts.render(FACT, lang, dt.date(2027, 4, 6), 120)
    assert "ruota-fact-expired" in mark and warning in words(mark) and "120" in mark  # the tooltip says the limit


@pytest.mark.parametrize("as_of, shown", [
    (dt.date(2026, 12, 20), "on Windows (ROCm/TheRock#1719; checked 6 December 2026). And (a claim) in prose"),
    (dt.date(2027, 4, 6), "on Windows (ROCm/TheRock#1719; checked 6 December 2026; may be out of date). And (a claim) in prose"),
])
def test_a_mark_after_a_citation_in_parentheses_shares_its_parenthesis(as_of, shown):
    mark = facts.render(FACT, "en", as_of, 120)
    page = f'on Windows (<a href="x">ROCm/TheRock#1719</a>) {mark}. And (a claim) in prose'
    joined = facts.join_parentheses(page)
    assert " ".join(html.unescape(re.sub(r"<[^>]+>", "", joined)).split()) == shown
    assert 'href="https://github.com/ROCm/TheRock/pull/7644?a=1&amp;b=2"' in joined  # the date still links its source
    alone = f"a claim {mark}."  # no parenthesis before it: the mark keeps its own
    assert facts.join_parentheses(alone) == alone


def test_a_mark_at_the_end_of_an_authors_parenthesis_is_not_nested_in_it():
    mark = facts.render(FACT, "en", dt.date(2026, 12, 20), 120)
    page = f"<p>the nightlies (which went on until 22 August 2026 {mark}) stopped.</p>"
    assert " ".join(re.sub(r"<[^>]+>", "", facts.join_parentheses(page)).split()) == (
        "the nightlies (which went on until 22 August 2026; checked 6 December 2026) stopped.")


def _page(source: str, lang: str = "en") -> str:
    """``source`` with its ``fact:`` directives as the site renders them, as plain text."""
    from ruota_docs.blocks import fact_directive

    shown = facts.render_page(source, fact_directive.parse, lang, dt.date(2026, 12, 20), 120)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", shown)).split()), shown


def fact(day: int, url: str) -> str:
    return f"<!-- fact: checked=2026-12-{day:02d} source={url} -->"


def test_claims_of_one_sentence_checked_the_same_day_share_one_mark():
    """Three citations of one sentence, one date: one mark after the last, its tooltip naming every source."""
    said, shown = _page(f"<p>It is documented in <a>#1300</a> (August 2025) {fact(5, 'https://x.org/a')}, <a>#1904</a> "
                        f"{fact(5, 'https://x.org/b')} and <a>#6421</a> {fact(5, 'https://x.org/c')}, where it still failed.</p>")
    assert said == "It is documented in #1300 (August 2025), #1904 and #6421 (checked 5 December 2026), where it still failed."
    assert shown.count('class="ruota-fact"') == 1 and 'href="https://x.org/c"' in shown
    assert "Sources: https://x.org/c · https://x.org/b · https://x.org/a" in shown
    said, _ = _page(f"<p>Débil {fact(5, 'https://x.org/a')}, y luego fuerte {fact(5, 'https://x.org/b')}.</p>", "es")
    assert said == "Débil, y luego fuerte (fecha de consulta: 5 de diciembre de 2026)."


def test_the_claims_of_a_paragraph_share_one_mark_after_the_last():
    """Sentences each citing a source: one date, at the paragraph's last claim, naming every source in its
    tooltip, in one wording whatever the number of claims or sources."""
    said, shown = _page(f"<p>One claim {fact(5, 'https://x.org/a')}. Another claim {fact(5, 'https://x.org/b')}.</p>")
    assert said == "One claim. Another claim (checked 5 December 2026)."
    assert "Sources: https://x.org/b · https://x.org/a" in shown
    said, _ = _page(f"<p>Una {fact(5, 'https://x.org/a')}. Otra {fact(5, 'https://x.org/b')}.</p>", "es")
    assert said == "Una. Otra (fecha de consulta: 5 de diciembre de 2026)."
    said, _ = _page(f"<p>One claim {fact(5, 'https://x.org/a')}; another claim {fact(5, 'https://x.org/b')}.</p>")
    assert said == "One claim; another claim (checked 5 December 2026)."


def test_claims_checked_on_several_days_share_one_mark_that_names_the_days_and_ages_by_the_oldest():
    said, shown = _page(f"<p>One claim {fact(5, 'https://x.org/a')}, another claim {fact(6, 'https://x.org/b')}. "
                        f"A third {fact(5, 'https://x.org/c')}.</p>")
    assert said == "One claim, another claim. A third (checked 5 and 6 December 2026)."
    assert 'data-checked="2026-12-05"' in shown and "Sources: https://x.org/c · https://x.org/b · https://x.org/a" in shown
    assert _page(f"<p>Una {fact(1, 'https://x.org/a')} y otra {fact(6, 'https://x.org/b')}.</p>", "es")[0] == (
        "Una y otra (fechas de consulta: 1 y 6 de diciembre de 2026).")
    assert _page(f"<p>Une {fact(1, 'https://x.org/a')} et une autre {fact(6, 'https://x.org/b')}.</p>", "fr")[0] == (
        "Une et une autre (consulté les 1er et 6 décembre 2026).")
    from ruota_docs.blocks import fact_directive
    aged = facts.render_page(f"<p>Old {fact(5, 'https://x.org/a')}, new <!-- fact: checked=2027-04-01 "
                             f"source=https://x.org/b -->.</p>", fact_directive.parse, "en", dt.date(2027, 4, 6), 120)
    assert "ruota-fact-expired" in aged  # the 5 December claim has aged: the shared mark says so


@pytest.mark.parametrize("lang, said", [
    ("en", "One, two and three (checked between 1 and 6 December 2026)."),
    ("es", "One, two and three (fechas de consulta: entre el 1 y el 6 de diciembre de 2026)."),
    ("fr", "One, two and three (consulté entre le 1er et le 6 décembre 2026)."),
])
def test_claims_checked_on_three_days_or_more_give_the_first_and_the_last(lang, said):
    """"checked 1, 5 and 6 December 2026" reads as a ledger: three days or more are a span, which stays true
    of every claim it covers; a span across months writes both days in full."""
    page = f"<p>One {fact(1, 'https://x.org/a')}, two {fact(5, 'https://x.org/b')} and three {fact(6, 'https://x.org/c')}.</p>"
    assert _page(page, lang)[0] == said
    assert formatting.day_range([dt.date(2026, 11, 30), dt.date(2026, 12, 3), dt.date(2026, 12, 6)], "en") == (
        "30 November 2026", "6 December 2026")


def test_marks_in_different_paragraphs_or_items_stay_apart():
    said, _ = _page(f"<p>One claim {fact(5, 'https://x.org/a')}</p>\n<p>another {fact(5, 'https://x.org/b')}</p>")
    assert said.count("checked") == 2
    # a list no sentence introduces: a date after its last item would read as that item's alone
    said, _ = _page(f"<ul><li>One claim {fact(5, 'https://x.org/a')}</li><li>another {fact(5, 'https://x.org/b')}</li></ul>")
    assert said.count("checked") == 2
    # e.g. ends no sentence
    said, _ = _page(f"<p>One claim {fact(5, 'https://x.org/a')}, e.g. another {fact(5, 'https://x.org/b')}.</p>")
    assert said == "One claim, e.g. another (checked 5 December 2026)."


def test_a_mark_inside_an_aside_goes_to_the_paragraphs_last_claim_and_one_before_the_aside_joins_it():
    # the second claim sits in a parenthesis that closes before the first: each keeps its date
    said, _ = _page(f"<p>(a claim {fact(5, 'https://x.org/a')}) and another {fact(5, 'https://x.org/b')}.</p>")
    assert said == "(a claim) and another (checked 5 December 2026)."
    # an aside that opens right after the first mark and holds the second: one date, inside the aside
    said, _ = _page(f"<p>It stopped in June 2026 {fact(6, 'https://x.org/a')} (the nightlies went on until "
                    f"22 August 2026 {fact(6, 'https://x.org/b')}).</p>")
    assert said == "It stopped in June 2026 (the nightlies went on until 22 August 2026; checked 6 December 2026)."


def test_the_tooltip_says_source_for_one_and_sources_for_several():
    one = facts.render(Fact(dt.date(2026, 12, 6), ("https://x.org/a",)), "en", dt.date(2026, 12, 20), 120)
    assert 'title="Source: https://x.org/a"' in one
    assert 'title="Sources : https://x.org/a · https://x.org/b"' in facts.render(
        Fact(dt.date(2026, 12, 6), ("https://x.org/a", "https://x.org/b")), "fr", dt.date(2026, 12, 20), 120)


def test_the_items_of_a_list_checked_the_same_day_share_one_mark_in_its_lead_in():
    """A list whose every item ends with a claim checked the same day: one mark, before the colon of the
    sentence that introduces it, naming every item's source; never the same date on each item."""
    items = "".join(f"<li>#{n} in {month} {fact(5, f'https://x.org/{n}')};</li>\n"
                    for n, month in ((1300, "August 2025"), (1904, "October 2025"), (6421, "September 2026")))
    said, shown = _page(f"<p>Three issues document it:</p>\n<ul>\n{items}</ul>")
    assert said == ("Three issues document it (checked 5 December 2026): #1300 in August 2025; "
                    "#1904 in October 2025; #6421 in September 2026;")
    assert shown.count('class="ruota-fact"') == 1
    assert "Sources: https://x.org/1300 · https://x.org/1904 · https://x.org/6421" in shown
    said, _ = _page(f"<p>Trois tickets le documentent :</p>\n<ul>\n{items}</ul>", "fr")
    assert said.startswith("Trois tickets le documentent (consulté le 5 décembre 2026) : #1300")
    # an item checked another day keeps its date; the others share the lead-in's
    mixed = items.replace(fact(5, "https://x.org/6421"), fact(6, "https://x.org/6421"))
    assert _page(f"<p>Three issues document it:</p>\n<ul>\n{mixed}</ul>")[0] == (
        "Three issues document it (checked 5 December 2026): #1300 in August 2025; "
        "#1904 in October 2025; #6421 in September 2026 (checked 6 December 2026);")
    # no day shared by most items, an item with no date, or no lead-in to carry it: each item keeps its own
    split = mixed.replace(fact(5, "https://x.org/1904"), fact(7, "https://x.org/1904"))
    assert _page(f"<p>Three issues document it:</p>\n<ul>\n{split}</ul>")[0].count("checked") == 3
    bare = items.replace(f" {fact(5, 'https://x.org/1904')}", "")
    assert _page(f"<p>Three issues document it:</p>\n<ul>\n{bare}</ul>")[0].count("checked") == 2
    assert _page(f"<p>Three issues document it.</p>\n<ul>\n{items}</ul>")[0].count("checked") == 3
    # the lead-in's own claim and the list's share one mark, never two dates side by side
    said = _page(f"<p>Since #145294 (2025) {fact(6, 'https://x.org/p')}, it works this way:</p>\n<ul>\n"
                 + items.replace("fact: checked=2026-12-05", "fact: checked=2026-12-06") + "</ul>")[0]
    assert said.startswith("Since #145294 (2025), it works this way (checked 6 December 2026): #1300")
    assert said.count("checked") == 1


def test_a_french_date_joins_an_authors_parenthesis_after_a_comma_without_an_agreement_to_get_wrong():
    """« (matrice de compatibilité de ROCm 7.14, consulté le 5 décembre 2026) », never « ; vérifié le » inside a
    parenthesis: French bibliographies' invariable formula, the same as the marks outside one, which no reader
    takes for a participle agreeing with a source whose gender the engine cannot know."""
    said, shown = _page(f'<p>Son tableau (<a href="x">matrice de ROCm 7.14</a>) {fact(5, "https://x.org/a")} :</p>', "fr")
    assert said == "Son tableau (matrice de ROCm 7.14, consulté le 5 décembre 2026) :"
    assert 'href="https://x.org/a"' in shown
    said, _ = _page(f"<p>la version CUDA (sous Linux x86_64 {fact(1, 'https://x.org/a')}).</p>", "fr")
    assert said == "la version CUDA (sous Linux x86_64, consulté le 1er décembre 2026)."
    said, _ = _page(f'<p>Its table (<a href="x">ROCm 7.14 matrix</a>) {fact(5, "https://x.org/a")}.</p>')
    assert said == "Its table (ROCm 7.14 matrix; checked 5 December 2026)."
