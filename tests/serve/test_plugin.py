"""serve.plugin: the preview as a MkDocs plugin, named in mkdocs.yml."""

from __future__ import annotations

from _support import stale_install


def test_mkdocs_yml_names_the_plugin_with_the_preview():
    """The plugin mkdocs.yml's ``ruota_docs`` loads is the one with ``on_serve``."""
    from mkdocs.plugins import get_plugins

    from ruota_docs.serve.plugin import LivePreviewPlugin

    stale_install()
    assert get_plugins()["ruota_docs"].load() is LivePreviewPlugin
