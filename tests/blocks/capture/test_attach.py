"""blocks.capture.attach: directives attached to the fence right after them, and blanked."""

from __future__ import annotations

import markdown

from ruota_docs.blocks.capture import BlockCapture, Context


def render(text: str):
    md = markdown.Markdown(extensions=["pymdownx.superfences", BlockCapture(Context("/p.md"))])
    return md.convert(text), md.ruota


def test_a_block_directive_belongs_to_the_fence_on_the_next_line_and_is_blanked():
    html, state = render("<!-- requires: rocm -->\n<!-- run: timeout=5 -->\n```python\npass\n```\n")
    (block,) = state.captured
    assert [(d.name, d.args, d.line) for d in block.directives] == [("requires", "rocm", 1), ("run", "timeout=5", 2)]
    assert "requires" not in html and not state.problems


def test_a_directive_with_no_block_after_it_is_a_problem_of_the_page():
    _, state = render("<!-- requires: rocm -->\nText.\n\n```python\npass\n```\n\n<!-- run: safe -->\n")
    assert [(p.line, p.message) for p in state.problems] == [
        (1, "requires: directive at line 1 is not directly followed by a code block"),
        (8, "run: directive at line 8 is not directly followed by a code block")]
    assert state.captured[0].directives == []


def test_a_typo_fails_the_block_it_stands_before_and_ordinary_comments_stay():
    html, state = render("<!-- requirs: rocm -->\n```python\npass\n```\n\n<!-- todo: later -->\n")
    assert state.captured[0].error.startswith("1: unknown directive 'requirs': did you mean 'requires'?")
    assert "<!-- todo: later -->" in html


def test_page_directives_and_sybil_skips_are_kept_for_later():
    _, state = render("<!-- verification-status -->\n\n<!-- skip: next -->\n```python\npass\n```\n")
    assert [(d.name, d.line) for d in state.page_directives] == [("verification-status", 1)]
    assert [(d.name, d.args) for _, d in state.skips] == [("skip", "next")]
