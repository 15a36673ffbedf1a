"""The site's configuration, read as MkDocs reads it.

Two views of ``mkdocs.yml``:

- :func:`load_mkdocs_config` — the plain mapping, for cheap lookups (folders, plugin
  options). YAML tags (``!ENV``, ``!relative``, ``!!python/name:``) become ``None``;
  nothing is imported.
- :func:`markdown_setup` — the ``markdown_extensions`` and their configs exactly as
  MkDocs passes them to Python-Markdown: loaded with MkDocs' own YAML loader (so
  ``!ENV``, ``!relative`` and ``!!python/name:`` resolve as in a build) and validated
  by MkDocs' own option (which adds its built-in ``toc``, ``tables`` and
  ``fenced_code``). Plugins are neither loaded nor run: blocks that a plugin generates
  (mkdocstrings' API pages, for one) are not the page's own. A folder without a
  mkdocs.yml renders with MkDocs' built-in extensions and SuperFences.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import yaml


class ConfigError(ValueError):
    """A mkdocs.yml that cannot be used to render pages."""


class TagTolerantLoader(yaml.SafeLoader):
    """YAML with any tag (``!ENV``, ``!relative``, ``!!python/name:``) read as ``None``: how
    mkdocs.yml reads without MkDocs, and what makes a mkdocs.yml excerpt valid YAML."""


TagTolerantLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
TagTolerantLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def config_path(root: Path) -> Path:
    """``mkdocs.yml`` (or ``mkdocs.yaml``) at ``root``."""
    root = Path(root)
    for name in ("mkdocs.yml", "mkdocs.yaml"):
        if (root / name).exists():
            return root / name
    return root / "mkdocs.yml"


def load_mkdocs_config(root: Path) -> dict:
    """The parsed ``mkdocs.yml`` at ``root`` (empty if absent), tags left unresolved."""
    path = config_path(root)
    if not path.exists():
        return {}
    return yaml.load(path.read_text(encoding="utf-8"), Loader=TagTolerantLoader) or {}


def plugin_options(config: dict, name: str) -> dict | None:
    """The options of plugin ``name`` in a parsed mkdocs.yml; ``None`` where it is not listed."""
    for plugin in config.get("plugins") or []:
        if plugin == name:
            return {}
        if isinstance(plugin, dict) and name in plugin:
            return dict(plugin[name] or {})
    return None


@dataclass(frozen=True)
class MarkdownSetup:
    """What Python-Markdown needs to render a page the way the site does."""

    config_file: Path
    docs_dir: Path
    extensions: list
    extension_configs: dict
    config: object  #: the MkDocs config the ``!relative`` placeholders point into


#: Without a mkdocs.yml, pages render with MkDocs' built-in extensions and SuperFences.
DEFAULT_EXTENSIONS = ["toc", "tables", "fenced_code", "pymdownx.superfences"]


def markdown_setup(root: Path) -> MarkdownSetup:
    """The site's Markdown extensions, resolved by MkDocs (cached per file and change)."""
    path = config_path(root).resolve()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return MarkdownSetup(path, Path(root).resolve() / "docs", list(DEFAULT_EXTENSIONS), {},
                             SimpleNamespace(docs_dir=str(Path(root).resolve() / "docs")))
    return _markdown_setup(str(path), stamp)


@functools.lru_cache(maxsize=8)
def _markdown_setup(path: str, _stamp: int) -> MarkdownSetup:
    from mkdocs.config.defaults import MkDocsConfig  # noqa: PLC0415 — MkDocs' config module is slow to import

    config = MkDocsConfig(config_file_path=path)
    try:
        with open(path, "rb") as handle:
            config.load_file(handle)
    except Exception as error:  # noqa: BLE001 — MkDocs raises several kinds for a bad file
        raise ConfigError(f"{path}: {error}") from None
    option = dict(config._schema)["markdown_extensions"]
    try:
        config["markdown_extensions"] = option.validate(config.get("markdown_extensions"))
        option.post_validation(config, "markdown_extensions")
    except Exception as error:  # noqa: BLE001 — ValidationError, ImportError of an extension…
        raise ConfigError(f"{path}: markdown_extensions: {error}") from None
    docs = config.get("docs_dir") or "docs"
    docs_dir = Path(path).parent / docs
    config["docs_dir"] = str(docs_dir)
    configs = {name: _anchored(name, options, Path(path).parent) for name, options in (config["mdx_configs"] or {}).items()}
    if "pymdownx.snippets" in config["markdown_extensions"] and "pymdownx.snippets" not in configs:
        configs["pymdownx.snippets"] = _anchored("pymdownx.snippets", {}, Path(path).parent)
    return MarkdownSetup(Path(path), docs_dir, list(config["markdown_extensions"]), configs, config)


def _anchored(name: str, options: dict, base: Path) -> dict:
    """pymdownx.snippets resolves a relative ``base_path`` against the current directory (its
    default, ``"."``, too); builds run from the project folder, so relative paths mean that
    folder here too, wherever the engine runs from."""
    if name != "pymdownx.snippets":
        return options
    paths = options.get("base_path", ["."])
    paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    anchored = [p if not isinstance(p, str) or os.path.isabs(p) else str(base / p) for p in paths]
    return {**options, "base_path": anchored}
