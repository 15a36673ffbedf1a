"""run.discovery: which MkDocs site a pytest run is about, from the paths it was given."""

from __future__ import annotations

from ruota_docs.run import discovery


def site(root, docs_dir=None):
    root.mkdir(parents=True, exist_ok=True)
    (root / "mkdocs.yml").write_text("site_name: t\n" + (f"docs_dir: {docs_dir}\n" if docs_dir else ""), encoding="utf-8")
    (root / (docs_dir or "docs") / "es").mkdir(parents=True)
    return root.resolve()


def test_a_page_belongs_to_the_site_whose_docs_folder_holds_it(tmp_path):
    root = site(tmp_path / "a", docs_dir="pages")
    assert discovery.docs_dir(root) == root / "pages"
    assert discovery.site_of_page(root / "pages/es/x.md") == root
    assert discovery.site_of_page(root / "README.md") is None
    assert discovery.site_of_page(tmp_path / "x.md") is None


def test_a_run_asks_for_a_site_through_its_folder_its_docs_or_inside_them(tmp_path):
    root = site(tmp_path / "a")
    assert discovery.requested(root, root) and discovery.requested(root / "docs", root)
    assert discovery.requested(root / "docs/es/x.md", root)
    assert not discovery.requested(root / "tests", root)


def test_a_site_nested_below_a_path_given_is_not_collected_unless_named(tmp_path):
    outer = site(tmp_path / "outer")
    inner = site(outer / "tests" / "fixture")
    assert discovery.sites_asked(tmp_path, ["outer/docs", "outer/tests/fixture/docs/es/x.md::sybil:0", "outer"]) == [outer, inner]
    assert discovery.sites_asked(tmp_path, ["outer/tests"]) == []
