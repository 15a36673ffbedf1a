"""The lexer: every fenced block and directive of a page, with exact lines (tests/samples/*.md)."""

from __future__ import annotations

import pytest
from sybil import Document

from _support import SAMPLES
from ruota_docs.sybil.lexers import Directive, FencedBlockLexer, LexError, scan


def sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def summary(fence) -> tuple:
    return (fence.line, fence.indent, fence.marker, fence.language, fence.info, fence.body,
            [(d.name, d.args, d.line) for d in fence.directives])


# -- basic.md ----------------------------------------------------------------------------
def test_basic_fences_exactly():
    found = scan(sample("basic.md"))
    assert [summary(f) for f in found.fences] == [
        (5, "", "```", "python", "python", 'print("plain")\n', []),
        (11, "", "```", "bash", 'bash title="probe.sh" hl_lines="1 2"', "rocminfo | grep gfx\necho done\n",
         [("requires", "rocm os=linux", 9), ("run", "safe timeout=60 id=probe", 10)]),
        (16, "", "~~~", "toml", "toml", "[tool]\nx = 1\n", []),
        (21, "", "```", "python", "{ .python title='braces.py' }", "x = 1\n", []),
        (32, "", "```", "", "", 'print("a fence after a plain comment has no directives")\n', []),
    ]


def test_basic_titles_and_attributes():
    fences = scan(sample("basic.md")).fences
    assert fences[0].title is None and fences[0].attrs == {}
    assert fences[1].title == "probe.sh"
    assert fences[1].attrs == {"title": "probe.sh", "hl_lines": "1 2"}
    assert fences[3].title == "braces.py"
    assert fences[1].directive("run").options() == {"safe": True, "timeout": "60", "id": "probe"}
    assert fences[1].directive("requires").args == "rocm os=linux"
    assert fences[0].directive("run") is None


def test_basic_offsets_cover_the_fence_without_trailing_newline():
    text = sample("basic.md")
    fences = scan(text).fences
    assert text[fences[0].start:fences[0].end] == '```python\nprint("plain")\n```'
    assert text[fences[2].start:fences[2].end] == "~~~toml\n[tool]\nx = 1\n~~~"
    # the directives are not part of the fence's span
    assert text[fences[1].start:].startswith('```bash title="probe.sh"')


def test_basic_page_directives():
    found = scan(sample("basic.md"))
    assert [(d.name, d.args, d.line) for d in found.page_directives] == [
        ("chart", 'block=probe metrics=seconds_per_epoch unit=s title="Seconds per epoch"', 27),
        ("verification-status", "", 29),
    ]
    chart = found.page_directives[0]
    assert chart.options() == {"block": "probe", "metrics": "seconds_per_epoch", "unit": "s", "title": "Seconds per epoch"}
    text = sample("basic.md")
    assert text[chart.start:chart.end] == text.splitlines(keepends=True)[26]


# -- nested.md ------------------------------------------------------------------------------
def test_nested_fences_exactly():
    found = scan(sample("nested.md"))
    assert [summary(f) for f in found.fences] == [
        (6, "    ", "```", "bash", "bash", 'echo "admonition"\n', [("run", "safe", 5)]),
        (12, "    ", "```", "python", 'python title="tab.py"', "import os\nif True:\n    print(os.name)\n", []),
        (21, "    ", "```", "powershell", "powershell", "Get-Item .\n", [("run", 'skip reason="solo Windows"', 20)]),
        (25, "", "````", "markdown", "markdown",
         'Write a block like this:\n\n```python\nprint("not a block of this page")\n```\n', []),
        (33, "", "~~~~", "text", "text", "~~~\nstill text\n~~~\n", []),
        (43, "        ", "```", "py", "py", "y = 2\n", []),
    ]
    assert found.page_directives == []


def test_nested_skip_reason_is_read_with_quotes():
    fence = scan(sample("nested.md")).fences[2]
    assert fence.directive("run").options() == {"skip": True, "reason": "solo Windows"}


def test_indented_fence_span_includes_its_indentation():
    text = sample("nested.md")
    fence = scan(text).fences[0]
    assert text[fence.start:fence.end] == '    ```bash\n    echo "admonition"\n    ```'


# -- small inline cases ----------------------------------------------------------------------
def test_longer_closing_fence_closes_and_info_line_does_not():
    found = scan("```python\n```python\nx\n`````\n")
    assert [(f.line, f.body) for f in found.fences] == [(1, "```python\nx\n")]


def test_backtick_fence_does_not_close_tilde_fence():
    found = scan("~~~python\n```\nx = 1\n~~~\n")
    assert [(f.marker, f.body) for f in found.fences] == [("~~~", "```\nx = 1\n")]


def test_under_indented_lines_lose_their_whitespace_and_blank_lines_survive():
    found = scan("- item\n\n    ```python\n    a = 1\n\n  b = 2\n    ```\n")
    assert found.fences[0].body == "a = 1\n\nb = 2\n"


def test_fence_too_deeply_indented_to_close_is_content():
    found = scan("```python\nx = 1\n        ```\n```\n")
    assert found.fences[0].body == "x = 1\n        ```\n"


def test_several_directives_stack_on_one_block():
    text = "<!-- requires: gpu -->\n<!-- requires: vram>=8GiB -->\n<!-- run: timeout=5 -->\n```python\npass\n```\n"
    fence = scan(text).fences[0]
    assert [(d.name, d.line) for d in fence.directives] == [("requires", 1), ("requires", 2), ("run", 3)]


def test_no_final_newline():
    text = "```python\nx = 1\n```"
    fence = scan(text).fences[0]
    assert (fence.start, fence.end) == (0, len(text))
    assert fence.body == "x = 1\n"


def test_crlf_page():
    fence = scan("# T\r\n\r\n```python\r\nx = 1\r\n```\r\n").fences[0]
    assert (fence.line, fence.language, fence.body) == (3, "python", "x = 1\r\n")


def test_language_is_lower_case():
    assert scan("```Python\nx\n```\n").fences[0].language == "python"


def test_malformed_directive_options():
    directive = Directive("run", 'skip reason="unterminated', 7, 0, 0)
    with pytest.raises(LexError) as caught:
        directive.options()
    assert caught.value.line == 7
    assert str(caught.value) == "malformed run: directive (No closing quotation)"


# -- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "message", "line"), [
    ("error_unclosed.md", "code block opened with ```` at line 5 is never closed", 5),
    ("error_unknown_directive.md", "unknown directive 'colour'; known: requires, run, chart, verification-status, card-matrix", 3),
    ("error_orphan_directive.md", "requires: directive at line 3 is not directly followed by a code block", 3),
    ("error_directive_before_prose.md", "run: directive at line 7 is not directly followed by a code block", 7),
    ("error_directive_at_end.md", "run: directive at line 7 is not directly followed by a code block", 7),
])
def test_errors(name, message, line):
    with pytest.raises(LexError) as caught:
        scan(sample(name))
    assert str(caught.value) == message
    assert caught.value.line == line


def test_unknown_directive_inside_a_fence_is_code():
    found = scan("````markdown\n<!-- colour: red -->\n```python\nx\n```\n````\n")
    assert len(found.fences) == 1 and "colour" in found.fences[0].body


# -- the Sybil lexer ---------------------------------------------------------------------------
def test_fenced_block_lexer_regions():
    text = sample("basic.md")
    regions = list(FencedBlockLexer()(Document(text, str(SAMPLES / "basic.md"))))
    fences = scan(text).fences
    assert [(r.start, r.end) for r in regions] == [(f.start, f.end) for f in fences]
    first = regions[0]
    assert set(first.lexemes) == {"fence", "source"}
    assert first.lexemes["fence"].line == 5
    assert first.lexemes["source"] == 'print("plain")\n'


@pytest.mark.parametrize(("name", "line"), [("error_unclosed.md", 5), ("error_unknown_directive.md", 3)])
def test_fenced_block_lexer_reports_errors_as_one_region(name, line):
    text = sample(name)
    regions = list(FencedBlockLexer()(Document(text, str(SAMPLES / name))))
    assert len(regions) == 1
    region = regions[0]
    error = region.lexemes["error"]
    assert isinstance(error, LexError) and error.line == line
    start = sum(len(ln) for ln in text.splitlines(keepends=True)[: line - 1])
    assert (region.start, region.end) == (start, start + 1)
