"""Where the renderer's blocks come from: page:line and file:line at any include depth,
directives inside containers and included files, and problems that belong to no block."""

from __future__ import annotations

import sys
import textwrap

import pytest

from _support import write_tree
from ruota_docs.blocks import renderer

CONFIG = """\
site_name: t
markdown_extensions:
  - admonition
  - pymdownx.details
  - pymdownx.snippets:
      base_path: [snippets]
      check_paths: true
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
        - name: diagram
          class: diagram
          format: !!python/name:pymdownx.superfences.fence_div_format
  - pymdownx.tabbed:
      alternate_style: true
"""


@pytest.fixture
def project(tmp_path):
    def make(page: str, **files: str):
        (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
        for name, text in {"docs/index.md": page, **files}.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return renderer.render(tmp_path, tmp_path / "docs/index.md")
    make.root = tmp_path
    return make


def test_code_from_nested_includes_knows_every_line(project):
    rendered = project("""
        # T

        Text.

        --8<-- "outer.md"
        """, **{"snippets/outer.md": 'Outer.\n\n```python\n--8<-- "inner.py"\n```\n',
                "snippets/inner.py": 'a = 1\n--8<-- "deep.py"\n', "snippets/deep.py": "b = 2\nc = 3\n"})
    block, = rendered.blocks
    root = project.root / "snippets"
    # the fence is written in outer.md, brought in at page line 5
    assert (block.line, block.source, block.end_line) == (5, "snippets/outer.md:3", None)
    assert block.code == "a = 1\nb = 2\nc = 3\n\n"
    assert block.code_origins == ((str(root / "inner.py"), 1), (str(root / "deep.py"), 1), (str(root / "deep.py"), 2),
                                  (str(root / "deep.py"), 3), (str(root / "inner.py"), 3))
    assert block.includes == ("snippets/deep.py", "snippets/inner.py")


@pytest.mark.parametrize(("target", "lines"), [
    ("lines.py", [1, 2, 3, 4, 5, 6, 7]),  # 7: the empty line after the file's last newline
    ("lines.py:2:3", [2, 3]),
    ("lines.py:-2", [6, 7]),
    ("lines.py:1:2,5:", [1, 2, 5, 6, 7]),
    ("lines.py:4:-2", [4, 5, 6]),
    ("sections.py:part", [4, 5]),
])
def test_included_lines_know_their_file_line_for_ranges_and_sections(project, target, lines):
    """Every release of pymdownx.snippets the capture supports: before 13.1 the file is read
    inline, and the lines are tagged by selecting them again (capture._select_ranges)."""
    files = {"snippets/lines.py": "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\n",
             "snippets/sections.py": "a = 1\nb = 2\n# --8<-- [start:part]\nc = 3\nd = 4\n# --8<-- [end:part]\n"}
    block, = project(f'```python\n--8<-- "{target}"\n```\n', **files).blocks
    name = target.split(":")[0]
    assert block.code_origins == tuple((str(project.root / "snippets" / name), n) for n in lines)
    assert block.includes == (f"snippets/{name}",)


def test_code_origins_skip_the_blank_lines_the_highlighter_drops(project):
    block, = project("```python\n\n\nx = 1\ny = 2\n```\n").blocks
    page = str(project.root / "docs/index.md")
    assert (block.code, block.code_origins) == ("x = 1\ny = 2", ((page, 4), (page, 5)))


@pytest.mark.parametrize("page", [
    '!!! note\n\n    <!-- run: timeout=5 -->\n    ```python\n    x = 1\n    ```\n',
    '??? note\n\n    <!-- run: timeout=5 -->\n    ```python\n    x = 1\n    ```\n',
    '=== "A"\n\n    <!-- run: timeout=5 -->\n    ```python\n    x = 1\n    ```\n',
    '> <!-- run: timeout=5 -->\n> ```python\n> x = 1\n> ```\n',
    '1. Step:\n\n    <!-- run: timeout=5 -->\n    ```python\n    x = 1\n    ```\n',
])
def test_directives_attach_inside_containers(project, page):
    block, = project(page).blocks
    assert (block.options, block.error, block.line) == ({"timeout": "5"}, None, page.count("\n", 0, page.index("```")) + 1)


def test_a_directive_in_an_included_file_attaches_to_its_fence(project):
    rendered = project('# T\n\n--8<-- "part.md"\n', **{"snippets/part.md": '<!-- requires: cpu -->\n```python\nx = 1\n```\n'})
    block, = rendered.blocks
    assert ([str(r) for r in block.requirements], block.line, block.source) == (["cpu"], 3, "snippets/part.md:2")


def test_a_directive_in_an_included_file_that_cannot_be_read_is_reported_at_that_file(project):
    part = 'Text.\n\n<!-- requires: gpu=nonsense -->\n```python\nx = 1\n```\n\n<!-- run: colour=red -->\n```python\ny = 2\n```\n'
    rendered = project('# T\n\n--8<-- "part.md"\n', **{"snippets/part.md": part})
    assert [b.error.split(": ", 1)[0] for b in rendered.blocks] == ["snippets/part.md:3", "snippets/part.md:8"]
    assert [b.where for b in rendered.blocks] == ["snippets/part.md:4", "snippets/part.md:9"]


def test_a_directive_in_an_included_file_with_no_block_after_it_names_that_file(project):
    rendered = project('# T\n\n--8<-- "part.md"\n', **{"snippets/part.md": "Text.\n\nMore.\n\n<!-- run: safe -->\nMore text.\n"})
    assert [(p.line, p.message) for p in rendered.problems] == [
        (3, "run: directive at line 3 is not directly followed by a code block (written at snippets/part.md:5)")]


def test_a_typo_of_a_directive_fails_its_block_only(project):
    rendered = project('=== "A"\n\n    <!-- requirs: rocm -->\n    ```python\n    x = 1\n    ```\n\n```python\ny = 2\n```\n')
    assert [b.error for b in rendered.blocks] == [
        "index.md:3: unknown directive 'requirs': did you mean 'requires'? (known: requires, run, evidence, chart, "
        "verification-status, card-matrix, value, fact, skip)", None]


def test_a_typo_in_an_included_file_names_the_include_and_the_file(project):
    rendered = project('# T\n\n--8<-- "part.md"\n', **{"snippets/part.md": 'Text.\n\n<!-- requirs: rocm -->\n```python\nx = 1\n```\n'})
    assert [b.error for b in rendered.blocks] == [
        "index.md:3: unknown directive 'requirs': did you mean 'requires'? (known: requires, run, evidence, chart, "
        "verification-status, card-matrix, value, fact, skip) (written at snippets/part.md:3)"]


def test_a_fact_that_cannot_be_read_is_a_page_problem_but_one_shown_in_code_is_not(project):
    rendered = project('# T\n\nROCm 7.14 <!-- fact: checked=2026-12-06 source=https://example.org -->.\n\n'
                       'Bad <!-- fact: checked=yesterday source=https://example.org -->.\n\n'
                       'Typo <!-- fact checked=2026-12-06 -->.\n\nLater <!-- fact: checked=2999-01-01 '
                       'source=https://example.org -->.\n\n```markdown\n<!-- fact: checked=nonsense -->\n```\n')
    assert [(p.line, p.message.split(" (")[0]) for p in rendered.problems] == [
        (5, "fact: checked= must be a date written YYYY-MM-DD"),
        (7, "a fact directive is written <!-- fact: checked=YYYY-MM-DD source=URL -->"),
        (9, "fact: checked=2999-01-01 is in the future")]


def test_problems_that_belong_to_no_block_name_their_line(project):
    rendered = project('# T\n\n<!-- run: safe -->\n\nText.\n\n<!-- requires rocm -->\n\n```python\nx = 1\n```\n\n<!-- skip: end -->\n')
    assert [(p.line, p.message) for p in rendered.problems] == [
        (3, "run: directive at line 3 is not directly followed by a code block"),
        (7, "<!-- requires … --> needs a colon: <!-- requires: … -->"),
        (13, "skip: end without an earlier skip: start")]
    assert [b.error for b in rendered.blocks] == [None]


def test_a_missing_include_outside_any_block_is_a_page_problem(project):
    rendered = project('# T\n\n--8<-- "nope.md"\n\n```python\nx = 1\n```\n')
    assert [(p.line, p.message) for p in rendered.problems] == [(3, "Snippet at path 'nope.md' could not be found")]
    assert [b.error for b in rendered.blocks] == [None]


def test_custom_fences_are_blocks_only_where_readers_see_code(project):
    rendered = project("```mermaid\ngraph LR\n```\n\n```diagram\ngraph TD\n```\n\n```python\nx = 1\n```\n")
    # fence_code_format shows <pre><code>; fence_div_format shows a diagram, no code
    assert [(b.code, b.kind) for b in rendered.blocks] == [("graph LR", "text"), ("x = 1", "python")]


def test_an_unclosed_fence_is_a_page_problem_and_stray_fences_are_not(tmp_path):
    """Nothing closes ```` ```python ````: readers see text, and the author is told where.
    A bare stray fence, or a fence SuperFences refused whose closer opens another block, is
    the renderer's business: no problem is made up for it."""
    root = write_tree(tmp_path, {}, conftest=False)
    page = root / "docs/es/p.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    cases = {
        "# T\n\n```python\nx = 1\n```\n\n````python\nprint(2)\n```\n": [(7, "code block opened with ```` at line 7 is never closed (readers see it as text)")],
        "# T\n\n```python\nx = 1\n```\n\n```\n": [],
        "# T\n\n```python notest\nx\n```\n\n```python\ny\n```\n": [],
        "# T\n\n<!--\n```python\n-->\n": [],
    }
    for text, expected in cases.items():
        page.write_text(text, encoding="utf-8")
        assert [(p.line, p.message) for p in renderer.render(root, page).problems] == expected, text


# -- lines another extension's preprocessor expands or generates: each block still points at the line the
# author edits (the include or the generator's directive), never past the end of the page -----------------
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


FOREIGN_CONFIG = """\
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
    (tmp_path / "mkdocs.yml").write_text(FOREIGN_CONFIG, encoding="utf-8")
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


def test_blocks_one_directive_brings_in_are_variants(site):
    """Two blocks from one ``{* … *}`` line (tabs of variants) are variants; one alone is not."""
    (site / "included.md").write_text("=== \"A\"\n\n    ```python\n    x = 1\n    ```\n\n=== \"B\"\n\n"
                                      "    ```python\n    x = 2\n    ```\n", encoding="utf-8")
    (site / "mkdocs.yml").write_text(FOREIGN_CONFIG + "  - pymdownx.tabbed\n", encoding="utf-8")
    rendered = renderer.render(site, site / "docs/index.md")
    assert [(b.code, b.line, b.variant) for b in rendered.blocks][:3] == [
        ("x = 1", 3, True), ("x = 2", 3, True), ("print('after the include')", 5, False)]
    assert not any(b.variant for b in rendered.blocks[2:])  # the generated one stands alone at its line


def test_an_excerpt_among_variants_is_not_run_since_its_whole_runs(site):
    (site / "included.md").write_text("=== \"Excerpt\"\n\n    ```python\n    # Code above omitted\n\n    y = x + 1\n"
                                      "    ```\n\n=== \"Whole\"\n\n    ```python\n    x = 1\n    y = x + 1\n    ```\n",
                                      encoding="utf-8")
    (site / "mkdocs.yml").write_text(FOREIGN_CONFIG + "  - pymdownx.tabbed\n", encoding="utf-8")
    excerpt, whole = renderer.render(site, site / "docs/index.md").blocks[:2]
    assert excerpt.not_run_reason == "an excerpt of the code shown whole beside it (block 2 of the page), which runs"
    assert whole.not_run_reason is None
