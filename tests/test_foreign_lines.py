"""Lines another extension's preprocessor expands or generates: each block still points at
the line the author edits (the include or the generator's directive), not at a line
counted after the expansion, and never past the end of the page."""

from __future__ import annotations

import sys
import textwrap

import pytest

from ruota_docs.blocks import renderer

#: Two extensions of the kind real sites use: an include syntax of its own that runs before
#: every other preprocessor (``{* file *}``, as typer's docs have), and a generator of
#: reference text that runs after includes (``::: gen``, as mkdocs-click does).
EXTENSIONS = '''
import re
from pathlib import Path
from markdown import Extension
from markdown.preprocessors import Preprocessor

BASE = Path(__file__).parent


class Include(Preprocessor):
    def run(self, lines):
        out = []
        for line in lines:
            found = re.fullmatch(r"\\{\\* (\\S+) \\*\\}", line.strip())
            out.extend((BASE / found[1]).read_text().splitlines() if found else [line.strip("\\x00") + ""])
        return out


class Generate(Preprocessor):
    def run(self, lines):
        out = []
        for line in lines:
            if line.strip() == "::: gen":
                out += ["Usage:", "", "```python", "print('generated')", "```", ""]
            else:
                out.append(line)
        return out


class Both(Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(Include(md), "own_include", 100)
        md.preprocessors.register(Generate(md), "own_generate", 28)


def makeExtension(**kwargs):
    return Both(**kwargs)
'''

CONFIG = """\
site_name: t
markdown_extensions:
  - foreign_ext
  - pymdownx.snippets:
      base_path: [snippets]
  - pymdownx.superfences
"""

PAGE = """\
# T

{* included.md *}

```python
print('after the include')
```

::: gen

--8<-- "snip.md"

```python
print('last')
```
"""

INCLUDED = "Some text.\n\n" * 5 + "```python\nprint('included')\n```\n"


@pytest.fixture
def site(tmp_path, monkeypatch):
    (tmp_path / "foreign_ext.py").write_text(textwrap.dedent(EXTENSIONS), encoding="utf-8")
    (tmp_path / "included.md").write_text(INCLUDED, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets/snip.md").write_text("\n```python\nprint('snippet')\n```\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/index.md").write_text(PAGE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("foreign_ext", None)


def test_blocks_point_at_the_lines_the_author_edits(site):
    rendered = renderer.render(site, site / "docs/index.md")
    assert not rendered.problems
    found = [(b.code, b.line, b.source) for b in rendered.blocks]
    assert found == [
        ("print('included')", 3, ""),  # the {* … *} line: the included file is the extension's business
        ("print('after the include')", 5, ""),
        ("print('generated')", 9, ""),  # the generator's directive
        ("print('snippet')", 11, "snippets/snip.md:2"),  # pymdownx.snippets: the file and its own line
        ("print('last')", 13, ""),
    ]
    assert max(b.line for b in rendered.blocks) <= PAGE.count("\n")
    assert [b.injected for b in rendered.blocks] == [True, False, True, False, False]


def test_pages_render_with_what_mkdocs_adds(tmp_path):
    """material.extensions.preview needs MkDocs' ``relpath`` treeprocessor: a page that builds collects."""
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - material.extensions.preview:\n      targets:\n"
        "        include: ['*.md']\n  - pymdownx.superfences\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/other.md").write_text("# Other\n", encoding="utf-8")
    (tmp_path / "docs/index.md").write_text("# T\n\nSee [other](other.md).\n\n```python\nx = 1\n```\n",
                                            encoding="utf-8")
    rendered = renderer.render(tmp_path, tmp_path / "docs/index.md")
    assert not rendered.problems, rendered.problems
    assert [(b.code, b.line) for b in rendered.blocks] == [("x = 1", 5)]


def test_snippets_default_base_path_is_the_project_folder(tmp_path, monkeypatch):
    """pymdownx.snippets with no base_path reads from ".", the folder mkdocs build runs in: the
    project's, wherever the engine itself runs from; the block names the included file and its line."""
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nmarkdown_extensions:\n  - pymdownx.snippets\n"
                                         "  - pymdownx.superfences\n", encoding="utf-8")
    (tmp_path / "CONTRIBUTING.md").write_text("# Contributing\n\n```python\nprint('hi')\n```\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/contributing.md").write_text('---\ntitle: C\n---\n\n--8<-- "CONTRIBUTING.md"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path / "docs")
    rendered = renderer.render(tmp_path, tmp_path / "docs/contributing.md")
    assert not rendered.problems, rendered.problems
    assert [(b.code, b.line, b.source) for b in rendered.blocks] == [("print('hi')", 5, "CONTRIBUTING.md:3")]


def test_superfences_preserve_tabs_keeps_every_block_at_its_fence(tmp_path):
    """With preserve_tabs, SuperFences sets raw fences aside before whitespace is normalised and
    searches them put back: lines are counted in the lines it searches."""
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nmarkdown_extensions:\n  - pymdownx.superfences:\n"
                                         "      preserve_tabs: true\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    page = "# T\n\n```python\nx = 1\ny = 2\n```\n\nText.\n\n```python\nif x:\n\tprint(y)\n```\n"
    (tmp_path / "docs/index.md").write_text(page, encoding="utf-8")
    rendered = renderer.render(tmp_path, tmp_path / "docs/index.md")
    assert [(b.line, b.end_line) for b in rendered.blocks] == [(3, 6), (10, 13)]


#: An extension that renders code from elsewhere into the page, as mkautodoc does with docstrings.
DOCSTRINGS = '''
import xml.etree.ElementTree as etree
from markdown import Extension
from markdown.treeprocessors import Treeprocessor


class Docstrings(Treeprocessor):
    def run(self, root):
        for element in list(root.iter("p")):
            if element.text == "::: api":
                element.tag, element.text = "div", None
                pre = etree.SubElement(element, "pre")
                etree.SubElement(pre, "code").text = ">>> answer()\\n42"


class Ext(Extension):
    def extendMarkdown(self, md):
        md.treeprocessors.register(Docstrings(md), "docstrings", 5)


def makeExtension(**kwargs):
    return Ext(**kwargs)
'''


def test_code_an_extension_shows_from_elsewhere_is_accounted_for(tmp_path, monkeypatch):
    (tmp_path / "docstrings_ext.py").write_text(DOCSTRINGS, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nmarkdown_extensions:\n  - docstrings_ext\n"
                                         "  - pymdownx.superfences\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/index.md").write_text("# T\n\n```python\nx = 1\n```\n\n::: api\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        rendered = renderer.render(tmp_path, tmp_path / "docs/index.md")
    finally:
        sys.modules.pop("docstrings_ext", None)
    assert [(b.index, b.code, b.line, b.kind) for b in rendered.blocks] == [
        (0, "x = 1", 3, "python"), (1, ">>> answer()\n42", 3, "generated")]
    assert rendered.blocks[1].not_run_reason == renderer.FOREIGN_REASON
    assert rendered.blocks[0].page_total == 2
