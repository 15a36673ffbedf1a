"""run.sybil.parsers: a page's regions are the blocks the site renders, at their page lines; a page
that is not UTF-8 is one failing region, not a collection error."""

from __future__ import annotations

from _support import write_tree
from ruota_docs.run.sybil import make_sybil
from ruota_docs.run.sybil.parsers import PageLayout, PageProblem, identify


def test_the_layout_knows_each_pages_key_and_language(tmp_path):
    root = write_tree(tmp_path, {"docs/fr/g/x.md": "# X\n"}, conftest=False)
    layout = PageLayout(root)
    assert layout.docs_dir == (root / "docs").resolve()
    assert layout.page_of(root / "docs/fr/g/x.md") == ("fr/g/x.md", "fr")


def test_regions_sit_at_their_blocks_and_ids_name_index_and_line(tmp_path):
    root = write_tree(tmp_path, {"docs/es/p.md": "# P\n\n```python\npass\n```\n\nText.\n\n```python\npass\n```\n"},
                      conftest=False)
    examples = list(make_sybil(root).parse(root / "docs/es/p.md").examples())
    assert [(e.line, e.parsed.index) for e in examples] == [(3, 0), (9, 1)]
    assert identify("p.md", examples[1]) == "sybil:p.md,block:1,line:9"


def test_a_block_written_in_an_included_markdown_file_is_named_by_that_file_and_its_line(tmp_path):
    """Its region stands at the include's line (where the page holds it); its id names where it is written."""
    root = write_tree(tmp_path, {"docs/es/p.md": '# P\n\n--8<-- "part.md"\n',
                                 "snippets/part.md": "Text.\n\n```python\npass\n```\n\n```python\npass\n```\n"},
                      conftest=False)
    examples = list(make_sybil(root).parse(root / "docs/es/p.md").examples())
    assert [(e.line, e.parsed.index) for e in examples] == [(3, 0), (3, 1)]
    assert [identify("p.md", e) for e in examples] == ["sybil:p.md,block:0,file:snippets/part.md,line:3",
                                                       "sybil:p.md,block:1,file:snippets/part.md,line:7"]


def test_a_block_with_an_id_carries_it_in_its_test_id(tmp_path):
    root = write_tree(tmp_path, {"docs/es/p.md": "# P\n\n<!-- run: id=latest-releases -->\n```python\npass\n```\n"},
                      conftest=False)
    (example,) = make_sybil(root).parse(root / "docs/es/p.md").examples()
    assert identify("p.md", example) == "sybil:p.md,block:0,line:4,id:latest-releases"


def test_a_page_that_is_not_utf8_is_one_failing_region(tmp_path):
    root = write_tree(tmp_path, {"docs/es/p.md": "# P\n"}, conftest=False)
    (root / "docs/es/p.md").write_bytes(b"# P\n\nbad \xff\n")
    (example,) = make_sybil(root).parse(root / "docs/es/p.md").examples()
    assert isinstance(example.parsed, PageProblem)
    assert "not UTF-8" in example.parsed.error and example.parsed.line == 3
    assert identify("p.md", example).startswith("sybil:p.md,problem:")


def test_sybil_reads_a_page_as_the_renderer_does_byte_order_mark_and_line_endings_alike(tmp_path):
    from ruota_docs.blocks.pages import read_page

    root = write_tree(tmp_path, {"docs/es/p.md": "# P\n"}, conftest=False)
    path = root / "docs/es/p.md"
    path.write_bytes(b"\xef\xbb\xbf# P\r\n\r\n```python\r\npass\r\n```\r\n\rText.\r\r```python\npass\n```\n")
    document = make_sybil(root).parse(path)
    assert document.text == read_page(path) and not document.text.startswith("\ufeff")
    assert [(e.line, e.parsed.index) for e in document.examples()] == [(3, 0), (9, 1)]
