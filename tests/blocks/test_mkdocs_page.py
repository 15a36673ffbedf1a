"""blocks.mkdocs_page: MkDocs' own page processors registered on the engine's Markdown instance."""

from __future__ import annotations

import markdown

from ruota_docs.blocks import mkdocs_page


def test_the_processors_mkdocs_adds_are_there_and_links_stay_as_written(tmp_path):
    docs = tmp_path / "docs"
    (docs / "es").mkdir(parents=True)
    (docs / "es" / "p.md").write_text("# P\n", encoding="utf-8")
    (docs / "es" / "other.md").write_text("# O\n", encoding="utf-8")
    md = markdown.Markdown()
    mkdocs_page.register(md, {}, docs, docs / "es" / "p.md")
    assert {"mkdocs_extract_anchors", "relpath", "mkdocs_extract_title"} <= set(md.treeprocessors._data)
    assert "mkdocs_raw_html" in md.preprocessors._data
    assert 'href="other.md"' in md.convert("# P\n\n[o](other.md)\n")  # relpath rewrites nothing


def test_hidden_files_are_not_the_sites(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.md").write_text("x", encoding="utf-8")
    (tmp_path / "a.md").write_text("a", encoding="utf-8")
    files = mkdocs_page._files(str(tmp_path), str(tmp_path / "site"), True)
    assert [f.src_uri for f in files] == ["a.md"]
