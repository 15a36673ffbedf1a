"""The site's resolved Markdown set-up, kept on disk between runs (ruota_docs.blocks.setup_cache)."""

from __future__ import annotations

import pickle

import pytest

from _support import mkdocs_yml
from ruota_docs.blocks import renderer, setup_cache, site_config

PAGE = "# T\n\n```python\nx = 1\n```\n\nText.\n\n```bash\necho hi\n```\n"


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "site"
    (root / "docs" / "es").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(mkdocs_yml(), encoding="utf-8")
    (root / "docs" / "es" / "p.md").write_text(PAGE, encoding="utf-8")
    site_config._markdown_setup.cache_clear()
    yield root
    site_config._markdown_setup.cache_clear()


def _kept(tmp_path):
    """The Markdown set-ups kept (the folder also keeps mkdocs.yml's parsed mapping, whenever an earlier
    test of the session has not already parsed the same file: not what these tests are about)."""
    found = sorted((tmp_path / "cache" / "ruota-docs" / "markdown-setup").glob("*.pickle"))
    return [path for path in found if "mapping" not in pickle.loads(path.read_bytes())]


def test_a_second_run_reads_the_kept_setup_instead_of_resolving_it(site, tmp_path, monkeypatch):
    first = site_config.markdown_setup(site)
    assert len(_kept(tmp_path)) == 1
    site_config._markdown_setup.cache_clear()  # a new run
    monkeypatch.setattr(site_config, "_resolved", lambda *a, **k: pytest.fail("resolved again"))
    second = site_config.markdown_setup(site)
    assert second.extensions == first.extensions
    assert second.extension_configs == first.extension_configs
    assert second.docs_dir == first.docs_dir
    assert second.config.get("use_directory_urls") == first.config.get("use_directory_urls")
    assert second.config.site_dir == first.config.get("site_dir")  # MkDocs' attribute access too


def test_pages_render_the_same_blocks_from_the_kept_setup(site):
    page = site / "docs" / "es" / "p.md"
    fresh = renderer.render(site, page)
    site_config._markdown_setup.cache_clear()
    kept = renderer.render(site, page)
    assert [(b.kind, b.line, b.code) for b in kept.blocks] == [(b.kind, b.line, b.code) for b in fresh.blocks]
    assert [b.kind for b in kept.blocks] == ["python", "shell"]


def test_the_key_follows_the_file_and_the_variables_it_names(site, monkeypatch):
    path = site / "mkdocs.yml"
    text = b"site_name: x\nsite_url: !ENV [SITE_URL, 'https://x.org/']\nextra:\n  a: !ENV PLAIN\n"
    base = setup_cache.key(path, text)
    assert setup_cache.key(path, text + b"\n# edited\n") != base
    monkeypatch.setenv("SITE_URL", "https://elsewhere.org/")
    assert setup_cache.key(path, text) != base
    monkeypatch.setenv("PLAIN", "1")
    with_plain = setup_cache.key(path, text)
    monkeypatch.setenv("UNRELATED_VARIABLE", "2")
    assert setup_cache.key(path, text) == with_plain  # a variable the file does not name changes nothing


def test_live_placeholders_are_never_kept_and_a_file_with_a_parent_is_kept_with_its_parent(site, tmp_path):
    assert setup_cache.cacheable("site_name: x\n")
    assert not setup_cache.cacheable("markdown_extensions:\n  - pymdownx.snippets:\n      base_path: !relative\n")
    text = (site / "mkdocs.yml").read_text(encoding="utf-8")
    (site / "mkdocs.yml").write_text("INHERIT: base.yml\n" + text, encoding="utf-8")
    (site / "base.yml").write_text("site_name: base\n", encoding="utf-8")
    assert setup_cache.config_bytes(site / "mkdocs.yml").endswith(b"\n\x00\nsite_name: base\n")
    site_config.markdown_setup(site)
    assert len(_kept(tmp_path)) == 1
    (site / "base.yml").write_text("site_name: base\nmarkdown_extensions:\n  - admonition\n", encoding="utf-8")
    site_config._markdown_setup.cache_clear()
    assert "admonition" in site_config.markdown_setup(site).extensions  # the parent changed: resolved again
    assert len(_kept(tmp_path)) == 2
    assert setup_cache.config_bytes(site / "missing.yml") == b""
    (site / "mkdocs.yml").write_text("INHERIT: gone.yml\n", encoding="utf-8")
    assert setup_cache.config_bytes(site / "mkdocs.yml") is None


def test_an_unreadable_kept_file_is_resolved_again(site, tmp_path):
    first = site_config.markdown_setup(site)
    (kept,) = _kept(tmp_path)
    kept.write_bytes(b"not a pickle")
    site_config._markdown_setup.cache_clear()
    again = site_config.markdown_setup(site)
    assert again.extensions == first.extensions
    assert kept.read_bytes() != b"not a pickle"  # written anew


def test_a_broken_config_is_never_kept(site, tmp_path):
    (site / "mkdocs.yml").write_text("site_name: x\nmarkdown_extensions:\n  - no_such_extension_here\n",
                                     encoding="utf-8")
    with pytest.raises(site_config.ConfigError, match="no_such_extension_here"):
        site_config.markdown_setup(site)
    assert _kept(tmp_path) == []


def test_only_the_newest_setups_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for n in range(setup_cache.KEEP + 3):
        setup_cache.store(f"{n:032x}", {"n": n})
    assert len(_kept(tmp_path)) == setup_cache.KEEP
    assert setup_cache.load(f"{setup_cache.KEEP + 2:032x}")["n"] == setup_cache.KEEP + 2


def test_switched_off_nothing_is_kept_and_pages_render_the_same_blocks(site, tmp_path, monkeypatch):
    page = site / "docs" / "es" / "p.md"
    kept = renderer.render(site, page)
    site_config._markdown_setup.cache_clear()
    site_config._parsed.cache_clear()
    monkeypatch.setenv("RUOTA_DOCS_NO_SPEEDUPS", "setup_cache")
    for found in _kept(tmp_path):
        found.unlink()
    resolved = []
    real = site_config._resolved
    monkeypatch.setattr(site_config, "_resolved", lambda *a, **k: resolved.append(a) or real(*a, **k))
    plain = renderer.render(site, page)
    assert resolved and _kept(tmp_path) == []  # resolved in this run, and nothing written
    assert setup_cache.load(setup_cache.key(site / "mkdocs.yml", b"")) is None
    assert [(b.kind, b.line, b.code, b.sha256) for b in plain.blocks] == [
        (b.kind, b.line, b.code, b.sha256) for b in kept.blocks]
