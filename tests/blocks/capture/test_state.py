"""blocks.capture.state: where each line of a rendered page came from."""

from __future__ import annotations

from ruota_docs.blocks.capture import CaptureState, Context


def state() -> CaptureState:
    s = CaptureState(Context("/docs/p.md", first_line=4))
    # page lines 4-5, then two lines included at page line 5 from inc.md, then the page's line 6
    s.origins = [("/docs/p.md", 4, None), ("/docs/p.md", 5, None), ("/snippets/inc.md", 1, 5), None,
                 ("/docs/p.md", 6, None)]
    return s


def test_an_untagged_line_follows_the_one_above():
    assert state().origin(3) == ("/snippets/inc.md", 2, 5)
    assert state().origin(9) is None


def test_an_included_line_is_at_the_line_of_its_include():
    s = state()
    assert [s.page_line(i) for i in range(5)] == [4, 5, 5, 5, 6]
    assert s.where(3) == (5, "/snippets/inc.md:2")
    assert s.where(0) == (4, "")


def test_lines_appended_after_the_page_are_at_its_last_line_and_no_origin_is_the_first_line():
    s = state()
    s.origins.append(("/snippets/abbr.md", 1, None))  # auto_append: no include line
    assert s.page_line(5) == 6
    empty = CaptureState(Context("/docs/p.md", first_line=4))
    assert empty.page_line(0) == 4


def test_each_page_has_its_own_nonce():
    assert CaptureState(Context("a")).nonce != CaptureState(Context("a")).nonce
