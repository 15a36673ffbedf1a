"""The site's hooks applied to a page before it is collected (``collect_hooks``), lines mapped into the file."""

from __future__ import annotations

from _support import write_tree
from ruota_docs.blocks import page_hooks, renderer

#: Each ``python`` block shown in two tabs: as written, and with ``3`` squared (as pydantic's hook
#: shows an example once per Python version).
TABS_HOOK = '''
import re


def on_page_markdown(markdown, page, config, files):
    def tabs(m):
        code = "\\n".join("    " + line if line else "" for line in m.group(1).splitlines())
        squared = code.replace("x = 3", "x = 3 ** 2")
        return (f'=== "As written"\\n\\n    ```python\\n{code}\\n    ```\\n\\n'
                f'=== "Squared"\\n\\n    ```python\\n{squared}\\n    ```\\n')
    return re.sub(r"^```python\\n(.*?)^```\\n", tabs, markdown, flags=re.M | re.S)
'''

PAGE = "---\ntitle: Tiny\n---\n# Tiny\n\nText.\n\n```python\nx = 3\nprint(x)\n```\n\nMore.\n\n```text\nshown\n```\n"


def _site(tmp_path, collect: bool, hook: str = TABS_HOOK):
    root = write_tree(tmp_path / "site", {"docs/index.md": PAGE, "hooks/tabs.py": hook})
    plugin = "  - ruota_docs:\n      collect_hooks: true\n" if collect else "  - ruota_docs\n"
    config = ("site_name: tiny\nhooks:\n  - hooks/tabs.py\nmarkdown_extensions:\n  - pymdownx.superfences\n"
              "  - pymdownx.tabbed:\n      alternate_style: true\nplugins:\n" + plugin)
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return root


def test_with_collect_hooks_the_blocks_a_hook_writes_are_collected_and_point_into_the_file(tmp_path):
    root = _site(tmp_path, collect=True)
    found = renderer.render(root, root / "docs" / "index.md", fast=True)
    assert found.problems == []
    python = [b for b in found.blocks if b.kind == "python"]
    assert [b.code for b in python] == ["x = 3\nprint(x)", "x = 3 ** 2\nprint(x)"]
    own, made = python
    # the file's own block: its fence and code lines in the file (after the front matter), nothing made
    assert (own.line, own.end_line, own.made_by) == (8, 11, "")
    path = str((root / "docs" / "index.md").resolve())
    assert own.code_origins == ((path, 9), (path, 10))
    # the hook's: at the lines of the block it was made from (or right after them), and by which hook
    assert made.made_by == "hooks/tabs.py" and 8 <= made.line <= 12 and made.end_line is None
    assert made.code_origins == (None, None)  # no line of the file holds its code: nothing to rewrite there
    assert made.where == f"index.md:{made.line} (made there by the hook hooks/tabs.py)"
    text = next(b for b in found.blocks if b.fence_language == "text")
    assert (text.line, text.made_by) == (15, "")  # lines after the rewritten part are the file's again


def test_without_collect_hooks_the_page_is_collected_as_its_file_holds_it(tmp_path):
    root = _site(tmp_path, collect=False)
    found = renderer.render(root, root / "docs" / "index.md", fast=True)
    assert [b.code for b in found.blocks if b.kind == "python"] == ["x = 3\nprint(x)"]
    assert all(not b.made_by for b in found.blocks)


def test_a_hook_that_fails_on_a_page_is_a_problem_of_that_page_naming_the_hook(tmp_path):
    failing = "def on_page_markdown(markdown, page, config, files):\n    raise ConnectionError('offline')\n"
    root = _site(tmp_path, collect=True, hook=failing)
    found = renderer.render(root, root / "docs" / "index.md", fast=True)
    assert found.blocks == []
    assert [(p.line, p.message) for p in found.problems] == [
        (4, "the site's hook hooks/tabs.py failed on this page: ConnectionError: offline")]


def test_the_hook_gets_the_page_as_mkdocs_hands_it(tmp_path):
    seen = ("def on_page_markdown(markdown, page, config, files):\n"
            "    return markdown + f'\\n```text\\n{page.file.src_uri} {config[\"site_name\"]} "
            "{files.get_file_from_path(\"index.md\") is not None} {markdown.startswith(\"# Tiny\")}\\n```\\n'\n")
    root = _site(tmp_path, collect=True, hook=seen)
    found = renderer.render(root, root / "docs" / "index.md", fast=True)
    assert found.blocks[-1].code == "index.md tiny True True" and found.blocks[-1].made_by == "hooks/tabs.py"


def test_the_hook_sees_the_page_title_and_front_matter_as_after_read_source(tmp_path):
    """FastAPI's hook starts with ``page.title.split(…)`` and writes into ``page.meta``."""
    seen = ("def on_page_markdown(markdown, page, config, files):\n"
            "    page.meta.setdefault('social', {})\n"
            "    return markdown + f'\\n```text\\n{page.title.split(\" {\")[0]} {sorted(page.meta)}\\n```\\n'\n")
    root = _site(tmp_path, collect=True, hook=seen)
    found = renderer.render(root, root / "docs" / "index.md", fast=True)
    assert found.problems == []
    assert found.blocks[-1].code == "Tiny ['social', 'title']"
    (root / "docs" / "index.md").write_text("# Heading { #h }\n\nText.\n", encoding="utf-8")
    found = renderer.render(root, root / "docs" / "index.md", fast=True)
    assert found.blocks[-1].code == "Heading ['social']"


def test_line_map_counts_the_rewritten_lines_in_the_file():
    written = "a\n```python\nx\n```\nb"
    rewritten = "a\n=== \"1\"\n\n    ```python\n    x\n    ```\n\n=== \"2\"\n\n    ```python\n    y\n    ```\nb"
    lines = page_hooks.LineMap(written, rewritten, 3)
    assert lines.line(3) == (3, True)  # a
    assert lines.line(6) == (4, True)  # the indented fence is the file's
    assert lines.line(7) == (5, True)
    assert lines.line(13) == (6, False)  # the second tab's code: after the file's closing fence
    assert lines.line(15) == (7, True)  # b


def test_a_block_whose_last_lines_a_hook_moves_out_keeps_its_lines_and_the_new_block_is_made(tmp_path):
    """pydantic's JSON outputs: the hook moves a trailing string out of the block into a block of its own."""
    moves = ("def on_page_markdown(markdown, page, config, files):\n"
             "    return markdown.replace('print(x)\\n\"\"\"3\"\"\"\\n```', 'print(x)\\n```\\n\\n```json\\n3\\n```')\n")
    page = "# Tiny\n\n```python\nx = 3\nprint(x)\n\"\"\"3\"\"\"\n```\n"
    root = _site(tmp_path, collect=True, hook=moves)
    (root / "docs" / "index.md").write_text(page, encoding="utf-8")
    found = renderer.render(root, root / "docs" / "index.md", fast=True)
    python, data = found.blocks
    assert (python.code, python.line, python.made_by) == ("x = 3\nprint(x)", 3, "")
    assert python.end_line is None  # its closing fence is not under its last line in the file any more
    assert (data.code, data.made_by, data.code_origins) == ("3", "hooks/tabs.py", (None,))
    assert 3 <= data.line <= 7
