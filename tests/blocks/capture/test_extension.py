"""blocks.capture.extension: the Python-Markdown extension that records a page's code blocks, changing
nothing readers see."""

from __future__ import annotations

import markdown

from ruota_docs.blocks import markers
from ruota_docs.blocks.capture import BlockCapture, Context

PAGE = "# T\n\n```python\nprint(1)\n```\n\n    indented\n"


def render(text: str, fast: bool = False, extensions=("pymdownx.superfences",)):
    capture = BlockCapture(Context("/p.md"), fast=fast)
    md = markdown.Markdown(extensions=[*extensions, capture])
    return md.convert(text), md.ruota, capture


def test_the_blocks_are_recorded_and_marked_in_the_html():
    html, state, capture = render(PAGE)
    assert capture.page_state is state
    assert [(c.fence_language, c.code, c.indented) for c in state.captured] == [("python", "print(1)", False), ("", "indented", True)]
    assert markers.visible_blocks(html, state.nonce) == [0, 1]
    plain = markdown.Markdown(extensions=["pymdownx.superfences"]).convert(PAGE)
    assert markers.fill(html, state.nonce, {}, {}, {}).split() == plain.split()  # what readers see is unchanged


def test_fast_leaves_code_unhighlighted_and_finds_the_same_blocks():
    html, state, _ = render(PAGE + "\n*emphasis* `code`\n", fast=True)
    assert [c.code for c in state.captured] == ["print(1)", "indented"]
    assert "<pre><code>print(1)</code></pre>" in html and "*emphasis*" in html and "<code>code</code>" in html


def test_without_superfences_python_markdowns_fenced_code_is_captured():
    _, state, _ = render("```python\nx = 1\n```\n", extensions=("fenced_code",))
    assert [(c.fence_language, c.code, c.collapsed) for c in state.captured] == [("python", "x = 1", 3)]
