"""blocks.shown: the code readers see in HTML, and MkDocs' own build of a project."""

from __future__ import annotations

import pytest

from _support import parsed_blocks, write_tree
from ruota_docs.blocks import shown


def test_code_blocks_leave_out_line_numbers_and_titles():
    page = ('<div class="highlight"><span class="filename">x.py</span><table><tr><td class="linenos">'
            '<pre>1\n2</pre></td><td><pre><code><span>a = 1</span>\nb&lt;2\n</code></pre></td></tr></table></div>'
            '<p>text</p><pre><code>second<br>\n</code></pre><code>inline</code>')
    assert shown.code_blocks(page) == ["a = 1\nb<2", "second"]


def test_build_keeps_each_pages_content_html(tmp_path):
    root = write_tree(tmp_path, {"docs/index.md": "# Home\n\n```python\nprint('hi')\n```\n"}, conftest=False)
    (root / "mkdocs.yml").write_text("site_name: t\nmarkdown_extensions:\n  - pymdownx.superfences\n", encoding="utf-8")
    pages = shown.build(root / "mkdocs.yml", tmp_path / "out")
    (page, html), = pages.items()
    assert page.name == "index.md"
    assert shown.code_blocks(html) == ["print('hi')"]
    assert (tmp_path / "out" / "index.html").exists()


_HIGHLIGHTED = ('<div class="language-python highlight"><pre><span></span><code><span class="k">def</span>'
                '<span class="w"> </span><a href="#f" class="autorefs">f</a><span class="p">():</span>\n'
                '    <span class="k">return</span> <span class="s2">&quot;a&lt;b&quot;</span>\n</code></pre></div>')


@pytest.mark.parametrize("page", [
    _HIGHLIGHTED,
    "<p>text</p>" + _HIGHLIGHTED * 3 + "<table><tr><td><code>inline</code></td></tr></table>",
    # line numbers in a table and inline; a title: left out by the parser, and by the fast reading
    '<div class="highlight"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>'
    '<span class="normal">1</span>\n<span class="normal">2</span></pre></div></td><td class="code"><div><pre>'
    '<span></span><code><span class="n">a</span>\n<span class="n">b</span>\n</code></pre></div></td></tr></table></div>',
    '<div class="highlight"><pre><span></span><code><span class="linenos">1</span><span class="n">x</span>\n</code></pre></div>',
    '<div class="highlight"><span class="filename">a.py</span><pre><span></span><code>x = 1\n</code></pre></div>',
    # a reference a tag cuts, read piece by piece as the parser does
    '<pre><code>&amp<span class="x">;</span>&lt;&#62;x</code></pre>',
    # what the fast reading leaves to the parser: an end tag with no start inside, a comment, a <br>, a nested <pre>,
    # an attribute with ">" in it, a raw-text element, text with a bare "<"
    '<span class="o"><pre><code>a</span>b</code></pre></span><p>after</p>',
    '<!-- a comment --><pre><code><span>x</span>\n</code></pre>',
    '<pre><code>a<br>b</code></pre>',
    '<pre><code>a<pre>b</pre>c</code></pre>',
    '<div class="highlight" title="a > b"><pre><code>x\n</code></pre></div>',
    '<script>var a = "<pre><code>not code</code></pre>";</script><pre><code>y</code></pre>',
    '<p>1 < 2</p><pre><code>z</code></pre>',
    '<PRE><CODE>upper <SPAN CLASS="k">case</SPAN></CODE></PRE><pre/><code>not in a pre</code>',
    "<pre>no code</pre><pre><code></code></pre><pre><code>\n\n</code></pre><pre><code>x",
])
def test_the_fast_reading_of_blocks_is_the_parsers(page):
    assert shown.code_block_spans(page) == parsed_blocks(page)


def test_a_highlighted_block_is_read_without_walking_its_tokens():
    marked, texts = shown._set_aside(_HIGHLIGHTED)
    assert len(marked) == len(_HIGHLIGHTED) and texts == ['def f():\n    return "a<b"\n']
    assert marked.count("<span") == 0 and shown._Tags.can_read(marked)
