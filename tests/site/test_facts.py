"""site.facts: the day a claim was checked, beside it, in the reader's language; marked once it has aged."""

from __future__ import annotations

import datetime as dt
import html
import re

import pytest

from _support import words
from ruota_docs.blocks.fact_directive import Fact
from ruota_docs.site import facts

FACT = Fact(dt.date(2026, 12, 6), ("https://github.com/ROCm/TheRock/pull/7644?a=1&b=2", "https://pypi.org/project/torch/"))


@pytest.mark.parametrize("lang, shown, tip", [
    ("es", "(fecha de consulta: 6 de diciembre de 2026)", "Fuente: https://github.com/ROCm/TheRock/pull/7644?a=1&amp;b=2 · https://pypi.org/project/torch/"),
    ("en", "(checked 6 December 2026)", "Source: https://github.com/ROCm/TheRock/pull/7644?a=1&amp;b=2"),
    ("fr", "(vérifié le 6 décembre 2026)", "Source : https://github.com/ROCm/TheRock/pull/7644?a=1&amp;b=2"),
])
def test_a_current_fact_shows_its_date_linked_to_its_source(lang, shown, tip):
    mark = facts.render(FACT, lang, dt.date(2026, 12, 20), 120)
    assert " ".join(html.unescape(re.sub(r"<[^>]+>", "", mark)).split()) == shown
    assert 'href="https://github.com/ROCm/TheRock/pull/7644?a=1&amp;b=2"' in mark and tip in mark
    assert 'data-checked="2026-12-06"' in mark and "expired" not in mark


@pytest.mark.parametrize("lang, warning", [
    ("es", "puede estar desactualizado"), ("en", "may be out of date"), ("fr", "peut ne plus être à jour")])
def test_an_expired_fact_says_it_may_be_out_of_date(lang, warning):
    assert warning not in facts.render(FACT, lang, dt.date(2027, 4, 5), 120)  # 120 days: the last current day
    mark = facts.render(FACT, lang, dt.date(2027, 4, 6), 120)
    assert "ruota-fact-expired" in mark and warning in words(mark) and "120" in mark  # the tooltip says the limit


@pytest.mark.parametrize("as_of, shown", [
    (dt.date(2026, 12, 20), "on Windows (ROCm/TheRock#1719, checked 6 December 2026). And (a claim) in prose"),
    (dt.date(2027, 4, 6), "on Windows (ROCm/TheRock#1719, checked 6 December 2026; may be out of date). And (a claim) in prose"),
])
def test_a_mark_after_a_citation_in_parentheses_shares_its_parenthesis(as_of, shown):
    mark = facts.render(FACT, "en", as_of, 120)
    page = f'on Windows (<a href="x">ROCm/TheRock#1719</a>) {mark}. And (a claim) in prose'
    joined = facts.join_parentheses(page)
    assert " ".join(html.unescape(re.sub(r"<[^>]+>", "", joined)).split()) == shown
    assert 'href="https://github.com/ROCm/TheRock/pull/7644?a=1&amp;b=2"' in joined  # the date still links its source
    alone = f"a claim {mark}."  # no parenthesis before it: the mark keeps its own
    assert facts.join_parentheses(alone) == alone
