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


def test_page_key_and_language(tmp_path):
    docs = tmp_path / "docs"
    assert pages.page_key(docs, docs / "fr/g/x.md") == ("fr/g/x.md", "fr")
    assert pages.page_key(docs, tmp_path / "elsewhere.md") == ("elsewhere.md", "")
    one = SiteLanguages(("en",), "en", folders=False)
    assert pages.page_key(docs, docs / "fr/g/x.md", one) == ("fr/g/x.md", "en")
