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
    files = mkdocs_page.files_of(str(tmp_path), str(tmp_path / "site"), True)
    assert [f.src_uri for f in files] == ["a.md"]


def test_they_are_needed_only_where_code_of_another_package_runs_during_conversion():
    assert not mkdocs_page.needed(markdown.Markdown(extensions=["toc", "pymdownx.superfences", "pymdownx.snippets"]))

    class Elsewhere(markdown.treeprocessors.Treeprocessor):
        def run(self, root):
            return root

    class Registers(markdown.Extension):
        def extendMarkdown(self, md):  # noqa: N802 — Python-Markdown's name
            md.treeprocessors.register(Elsewhere(md), "elsewhere", 1)

    assert mkdocs_page.needed(markdown.Markdown(extensions=["toc", Registers()]))

    def fence(source, language, class_name, options, md, **kwargs):
        return source

    own = {"pymdownx.superfences": {"custom_fences": [{"name": "x", "class": "x", "format": fence}]}}
    assert mkdocs_page.needed(markdown.Markdown(extensions=["pymdownx.superfences"], extension_configs=own))
