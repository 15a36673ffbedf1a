"""blocks.fact_directive: <!-- fact: checked=DATE source=URL -->, read, refused, found in pages and aged."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from ruota_docs.blocks import fact_directive
from ruota_docs.blocks.fact_directive import Fact, FactDirectiveError, parse

URL = "https://github.com/ROCm/TheRock/pull/7644"


def test_parse_reads_the_date_and_the_source():
    fact = parse(f"checked=2026-12-06 source={URL} ")
    assert fact == Fact(dt.date(2026, 12, 6), (URL,))
    assert fact.key == f"fact:2026-12-06:{URL}"
    several = parse(f"checked=2026-12-06 source={URL} source=https://pypi.org/project/torch/")
    assert several.sources == (URL, "https://pypi.org/project/torch/") and several.source == URL


@pytest.mark.parametrize("args, message", [
    (f"source={URL}", "fact: needs checked="),
    ("checked=2026-12-06", "fact: needs source="),
    ("", "fact: needs checked= and source="),
    (f"checked=6/12/2026 source={URL}", "checked= must be a date written YYYY-MM-DD (got '6/12/2026')"),
    (f"checked=2026-02-30 source={URL}", "checked= must be a date written YYYY-MM-DD"),
    ("checked=2026-12-06 source=TheRock#7644", "source= must be an http(s) URL (got 'TheRock#7644')"),
    (f"checked=2026-12-06 source={URL} by=me", "fact: takes checked=YYYY-MM-DD and source=URL (got 'by=me')"),
    (f"checked=2026-12-06 source={URL} source={URL}", f"source={URL} is given twice"),
    (f"checked=2026-12-06 checked=2026-12-05 source={URL}", "checked= is given twice"),
    (f"checked=2026-12-06 source={URL} source=ftp://x.org", "source= must be an http(s) URL (got 'ftp://x.org')"),
    (f"checked=2026-12-06 source={URL} note=\"open", "malformed fact: directive"),
])
def test_parse_refuses_what_it_cannot_read(args, message):
    with pytest.raises(FactDirectiveError, match=re.escape(message)):
        parse(args)


def test_age_and_expiry_count_whole_days_from_the_check():
    fact = Fact(dt.date(2026, 8, 8), (URL,))
    assert fact.age(dt.date(2026, 12, 6)) == 120
    assert not fact.expired(dt.date(2026, 12, 6), 120)  # exactly the limit: still current
    assert fact.expired(dt.date(2026, 12, 7), 120)
    assert fact.expired(dt.date(2026, 9, 8), 30) and not fact.expired(dt.date(2026, 9, 7), 30)


def test_a_check_in_the_future_is_an_error():
    fact = Fact(dt.date(2027, 1, 1), (URL,))
    assert "is in the future (today is 2026-12-06)" in fact_directive.check_date(fact, dt.date(2026, 12, 6))
    assert fact_directive.check_date(fact, dt.date(2027, 1, 1)) is None


def test_in_text_skips_code_and_reports_near_misses():
    text = "\n".join([
        f"ROCm 7.14 has a stable index <!-- fact: checked=2026-12-06 source={URL} -->.",
        "Shown only: `<!-- fact: checked=x -->`.",
        "```markdown",
        "<!-- fact: checked=nonsense -->",
        "```",
        "A typo <!-- fact checked=2026-12-06 source=https://a.example -->, <!-- facts: x -->.",
        "An ordinary comment <!-- factor in the cache --> is not one.",
    ])
    found = fact_directive.in_text(text, fact_directive.code_lines(text))
    assert found == [(1, f" checked=2026-12-06 source={URL} "), (6, None), (6, None)]


def test_code_lines_follow_fences_of_any_length_and_indentation():
    text = "a\n    ````python\n    ```\n    ````\nb\n~~~\nc\n~~~\nd"
    assert fact_directive.code_lines(text) == {2, 3, 4, 6, 7, 8}


def test_in_pages_finds_every_fact_with_its_claim_and_problems(tmp_path):
    (tmp_path / "en" / "guides").mkdir(parents=True)
    (tmp_path / "en" / "guides" / "x.md").write_text(
        "# X\n\nTensorFlow for ROCm reached [2.20.0](https://example.org) "
        f"<!-- fact: checked=2026-12-06 source={URL} -->.\n\nBad <!-- fact: checked=2026-13-01 source={URL} -->\n"
        f"Future <!-- fact: checked=2027-01-01 source={URL} -->\n", encoding="utf-8")
    (tmp_path / "en" / "plain.md").write_text("# Nothing dated\n", encoding="utf-8")
    found, problems = fact_directive.in_pages(tmp_path, dt.date(2026, 12, 6))
    assert [(f.page, f.line, f.fact.checked.isoformat()) for f in found] == [
        ("en/guides/x.md", 3, "2026-12-06"), ("en/guides/x.md", 6, "2027-01-01")]
    assert found[0].claim == "TensorFlow for ROCm reached 2.20.0"
    assert [(p, n) for p, n, _ in problems] == [("en/guides/x.md", 5), ("en/guides/x.md", 6)]
    assert "checked= must be a date" in problems[0][2] and "in the future" in problems[1][2]


def test_claim_is_shortened_from_the_left():
    line = "word " * 40 + f"<!-- fact: checked=2026-12-06 source={URL} -->"
    shown = fact_directive.claim(line, f" checked=2026-12-06 source={URL} ")
    assert shown.startswith("…") and len(shown) == 90 and shown.endswith("word")


def test_a_source_dated_twice_on_one_page_is_named_at_the_older_date(tmp_path):
    """The summary cites a source checked on the 6th, the body the same source checked on the 5th: a reader
    sees two dates for one reading. The older directive is reported, with the date to write."""
    (tmp_path / "en").mkdir()
    other = "https://example.org/other"
    (tmp_path / "en" / "x.md").write_text(
        f"In short <!-- fact: checked=2026-12-06 source={URL} source={other} -->.\n\n"
        f"In the body <!-- fact: checked=2026-12-05 source={URL} -->.\n\n"
        f"Elsewhere <!-- fact: checked=2026-12-01 source=https://example.org/alone -->.\n", encoding="utf-8")
    (tmp_path / "en" / "y.md").write_text(f"Another page <!-- fact: checked=2026-11-30 source={URL} -->.\n",
                                          encoding="utf-8")
    found, problems = fact_directive.in_pages(tmp_path, dt.date(2026, 12, 7))
    assert len(found) == 4
    assert [(p, n) for p, n, _ in problems] == [("en/x.md", 3)]  # another page may have read it another day
    assert f"{URL} is dated 2026-12-05 here but 2026-12-06 at line 1" in problems[0][2]
