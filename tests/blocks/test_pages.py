"""blocks.pages: a page file read as MkDocs reads it, and its key and language."""

from __future__ import annotations

import pytest

from ruota_docs.blocks import pages
from ruota_docs.blocks.site_config import SiteLanguages


def test_text_is_utf8_with_newlines_normalised_and_no_bom():
    assert pages.decode_page("\ufeffa\r\nb\rc\n".encode()) == "a\nb\nc\n"


def test_bytes_that_are_not_utf8_name_their_line_and_column():
    with pytest.raises(pages.PageError) as raised:
        pages.decode_page(b"ok\nab\xff\n")
    assert raised.value.line == 2
    assert "byte 0xff at line 2, column 3" in str(raised.value)


def test_front_matter_is_set_apart_and_the_markdown_knows_its_first_line():
    assert pages.split_meta("---\ntitle: x\n---\n# T\n") == ("# T\n", 4)
    assert pages.split_meta("# T\n") == ("# T\n", 1)


@pytest.mark.parametrize("text", [
    "# T\n", "---\ntitle: x\n---\n# T\n", "---\n- a list\n---\n# T\n", "---\nnot closed\n# T\n",
    "title: x\nauthor: y\n\n# T\n", "   key: value\n    more\n\nbody\n", "    key: indented four\n\nbody\n",
    "\n\n# T after blank lines\n", " \t \n# T\n", "\tkey: tab\n", "key:value\n", "-- two dashes\n", "", "text",
    "Title: x", "\ufeffkey: y\n\nz\n", "https://example.org: no\n",
])
def test_front_matter_is_read_as_mkdocs_reads_it(text):
    from mkdocs.utils.meta import get_data

    markdown, _ = get_data(text)
    assert pages.split_meta(text) == (markdown, text.count("\n", 0, len(text) - len(markdown)) + 1)


@pytest.mark.parametrize("text", [
    "---\ntitle: x\ntranslation_of: 012345670123\n---\n# T\n", "---\ntitle: 'a: b'\ntags: [x, y]\n...\n# T\n",
    "---\n- a list\n---\n# T\n", "---\nnot closed\n# T\n", "# T\n", "---\nkey: [unclosed\n---\n",
])
def test_front_matter_fields_are_yaml_as_mkdocs_finds_it_each_scalar_as_written(text):
    from mkdocs.utils.meta import get_data

    fields, end = pages.front_matter(text)
    mkdocs_markdown, mkdocs_fields = get_data(text)
    assert set(fields) == set(mkdocs_fields)  # the same front matter, or none
    assert text[end:].lstrip("\n") == mkdocs_markdown
    if "translation_of" in fields:
        assert fields["translation_of"] == "012345670123"  # YAML 1.1 reads it as an octal number
    if "tags" in fields:
        assert fields == {"title": "a: b", "tags": ["x", "y"]}


def test_page_key_and_language(tmp_path):
    docs = tmp_path / "docs"
    assert pages.page_key(docs, docs / "fr/g/x.md") == ("fr/g/x.md", "fr")
    assert pages.page_key(docs, tmp_path / "elsewhere.md") == ("elsewhere.md", "")
    one = SiteLanguages(("en",), "en", folders=False)
    assert pages.page_key(docs, docs / "fr/g/x.md", one) == ("fr/g/x.md", "en")
