"""Markdown extensions a site's plugins add: mkdocstrings' ``::: identifier``.

The engine renders pages without running the site's plugins, but mkdocstrings adds a
Markdown extension (in its ``on_config``) whose docstrings readers see as part of the page:
left out, a ``::: identifier`` line would render as a paragraph and its code blocks would go
unaccounted for. Only that plugin is loaded, with its options from mkdocs.yml; its docstring
blocks are then listed, not run (`ruota_docs.blocks.generated`).
"""

from __future__ import annotations

import copy


def options_of(raw_plugins, name: str) -> dict | None:
    """The options of plugin ``name`` in mkdocs.yml's ``plugins:``, a list (``- name``,
    ``- name: {…}``) or a mapping (``name: {…}``, ``name: null``); ``None`` where it is not listed."""
    if isinstance(raw_plugins, dict):
        return dict(raw_plugins[name] or {}) if name in raw_plugins else None
    for plugin in raw_plugins or []:
        if plugin == name:
            return {}
        if isinstance(plugin, dict) and name in plugin:
            return dict(plugin[name] or {})
    return None


def add_mkdocstrings(config, path: str) -> None:
    """Append mkdocstrings' extension to ``config.markdown_extensions`` where the site lists
    the plugin (``config``: a `MkDocsConfig` whose markdown_extensions are validated)."""
    options = options_of(config.get("plugins"), "mkdocstrings")
    if options is None:
        return
    from mkdocs.plugins import PluginCollection, get_plugins  # noqa: PLC0415 — only for sites that use it

    entry = get_plugins().get("mkdocstrings")
    if entry is None:
        return  # not installed: MkDocs itself would refuse to build
    plugin = entry.load()()
    errors, _ = plugin.load_config(options, path)
    if errors:
        raise ValueError(f"plugins: mkdocstrings: {errors[0][0]}: {errors[0][1]}")
    theme = copy.copy(dict(config._schema)["theme"])  # its templates: the handler's depend on the theme
    theme.config_file_path = path
    config["theme"] = theme.validate(config.get("theme"))
    config["extra_css"] = list(config.get("extra_css") or [])
    config["plugins"] = PluginCollection()  # mkdocstrings adds a limited autorefs of its own
    plugin.on_config(config)
