"""blocks.plugin_extensions: mkdocstrings' Markdown extension, added where the site lists the plugin."""

from __future__ import annotations

import pytest

from ruota_docs.blocks import site_config

pytest.importorskip("mkdocstrings")

BASE = "site_name: t\ntheme:\n  name: material\nmarkdown_extensions:\n  - pymdownx.superfences\n"


def names(setup) -> list[str]:
    return [type(e).__name__ if not isinstance(e, str) else e for e in setup.extensions]


def test_a_site_that_lists_mkdocstrings_renders_with_its_extension(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(BASE + "plugins:\n  - mkdocstrings\n", encoding="utf-8")
    assert site_config.lists_plugin(tmp_path, "mkdocstrings")
    with_plugins = names(site_config.markdown_setup(tmp_path, plugins=True))
    assert "MkdocstringsExtension" in with_plugins
    assert "MkdocstringsExtension" not in names(site_config.markdown_setup(tmp_path))


def test_a_site_without_it_gets_nothing_added(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(BASE, encoding="utf-8")
    assert not site_config.lists_plugin(tmp_path, "mkdocstrings")
    assert names(site_config.markdown_setup(tmp_path, plugins=True)) == names(site_config.markdown_setup(tmp_path))


def test_options_mkdocstrings_refuses_are_a_config_error(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(BASE + "plugins:\n  - mkdocstrings:\n      handlers: 3\n", encoding="utf-8")
    with pytest.raises(site_config.ConfigError, match="plugins: mkdocstrings: handlers: Expected type"):
        site_config.markdown_setup(tmp_path, plugins=True)
