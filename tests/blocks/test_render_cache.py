"""blocks.render_cache: a page's fast rendering kept on disk, and every way it is not used."""

from __future__ import annotations

import os

import pytest

from ruota_docs.blocks import render_cache, renderer

CONFIG = """\
site_name: t
markdown_extensions:
  - pymdownx.snippets:
      base_path: [snippets]
  - pymdownx.superfences
"""
PAGE = '# T\n\n<!-- requires: cpu -->\n```python\nx = 1\n```\n\n```python\n--8<-- "part.py"\n```\n'


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RUOTA_DOCS_NO_SPEEDUPS", raising=False)
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    for name, text in {"docs/index.md": PAGE, "snippets/part.py": "y = 2\nprint(y)\n"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def _render(site):
    return renderer.render(site, site / "docs" / "index.md", fast=True)


def _shape(rendered) -> list[tuple]:
    return [(b.page, b.index, b.line, b.end_line, b.kind, b.code, b.source, b.includes, b.code_origins,
             [str(r) for r in b.requirements], b.signature) for b in rendered.blocks]


def _no_rendering(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("rendered again")
    monkeypatch.setattr(renderer, "_convert", refuse)


def test_the_second_rendering_is_read_back_and_is_the_first(site, monkeypatch):
    first = _render(site)
    assert len(first.blocks) == 2 and first.blocks[1].includes == ("snippets/part.py",)
    _no_rendering(monkeypatch)
    again = _render(site)
    assert _shape(again) == _shape(first) and again.problems == first.problems == []


def test_switched_off_every_page_renders_and_nothing_is_kept(site, monkeypatch):
    monkeypatch.setenv("RUOTA_DOCS_NO_SPEEDUPS", "render_cache")
    first = _render(site)
    assert not (site / "cache" / "ruota-docs" / "rendered").exists()
    monkeypatch.delenv("RUOTA_DOCS_NO_SPEEDUPS")
    assert _shape(_render(site)) == _shape(first)


def test_a_changed_include_page_or_config_renders_again(site, monkeypatch):
    _render(site)
    part = site / "snippets" / "part.py"
    part.write_text("y = 3\nprint(y)\n", encoding="utf-8")
    os.utime(part, ns=(1, 1))  # another time, whatever the clock's resolution
    assert _render(site).blocks[1].code == "y = 3\nprint(y)\n"
    page = site / "docs" / "index.md"
    page.write_text(PAGE.replace("x = 1", "x = 10"), encoding="utf-8")
    assert _render(site).blocks[0].code == "x = 10"
    (site / "mkdocs.yml").write_text(CONFIG.replace("  - pymdownx.superfences\n", "  - pymdownx.superfences\n"
                                                    "  - admonition\n"), encoding="utf-8")
    seen = []
    monkeypatch.setattr(renderer, "_convert", lambda *a, _real=renderer._convert: seen.append(1) or _real(*a))
    _render(site)
    assert seen == [1]


def test_a_page_whose_include_is_missing_is_not_kept(site, monkeypatch):
    page = site / "docs" / "index.md"
    page.write_text(PAGE.replace("part.py", "later.py"), encoding="utf-8")
    _render(site)
    assert not list((site / "cache" / "ruota-docs" / "rendered").glob("*.pickle"))
    (site / "snippets" / "later.py").write_text("z = 1\n", encoding="utf-8")
    assert _render(site).blocks[1].code == "z = 1\n"


def test_a_page_rendered_with_highlighting_is_not_kept(site):
    renderer.render(site, site / "docs" / "index.md")
    assert not (site / "cache" / "ruota-docs" / "rendered").exists()
    assert render_cache.key(site, site / "docs" / "index.md", site / "docs", PAGE,
                            renderer.site_config.markdown_setup(site)) is not None


def test_a_page_the_sites_hooks_rewrite_is_never_kept(tmp_path, monkeypatch):
    """With ``collect_hooks``, a page goes through the site's hooks, whose code and reads no key holds:
    an edit of the hook shows in the next rendering."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RUOTA_DOCS_NO_SPEEDUPS", raising=False)
    hook = 'def on_page_markdown(markdown, page, config, files):\n    return markdown.replace("x = 1", "x = 2")\n'
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks" / "edit.py").write_text(hook, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# T\n\n```python\nx = 1\n```\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nhooks:\n  - hooks/edit.py\nmarkdown_extensions:\n"
                                         "  - pymdownx.superfences\nplugins:\n  - ruota_docs:\n"
                                         "      collect_hooks: true\n", encoding="utf-8")
    assert [b.code for b in renderer.render(tmp_path, tmp_path / "docs" / "index.md", fast=True).blocks] == ["x = 2"]
    assert not (tmp_path / "cache" / "ruota-docs" / "rendered").exists()
    # a longer edit: Python's bytecode cache (which MkDocs' own loading of hooks uses too) tells a source
    # from its cached bytecode by size and whole-second mtime, and this edit comes within the same second
    (tmp_path / "hooks" / "edit.py").write_text(hook.replace("x = 2", "x = 33"), encoding="utf-8")
    assert [b.code for b in renderer.render(tmp_path, tmp_path / "docs" / "index.md", fast=True).blocks] == ["x = 33"]


def test_a_site_that_inherits_its_settings_is_kept_and_its_parent_is_part_of_the_key(site, monkeypatch):
    (site / "base.yml").write_text(CONFIG, encoding="utf-8")
    (site / "mkdocs.yml").write_text("INHERIT: base.yml\nsite_name: child\n", encoding="utf-8")
    first = _render(site)
    assert len(first.blocks) == 2
    _no_rendering(monkeypatch)
    assert _shape(_render(site)) == _shape(first)  # kept
    (site / "base.yml").write_text(CONFIG.replace("  - pymdownx.superfences\n", ""), encoding="utf-8")
    again = _render(site)  # the parent changed: rendered again (here refused), not the kept rendering
    assert [p.message for p in again.problems] == ["the renderer failed on this page: AssertionError: rendered again"]
