"""blocks.shown: the code readers see in HTML, and MkDocs' own build of a project."""

from __future__ import annotations

from _support import write_tree
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
