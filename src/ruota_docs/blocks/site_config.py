"""The site's configuration, read as MkDocs reads it.

The one reader of ``mkdocs.yml`` for the site plugin, the pytest plugin, the repository
guard and the command line. Four views:

- :func:`read` — a :class:`SiteConfig`: the folders, the languages and the ``ruota_docs``
  plugin's options with their defaults, so that ``record_dir`` and ``source_language``
  mean the same thing everywhere.
- :func:`languages` — a :class:`SiteLanguages`: which languages the site is written in and
  which language each page is (:func:`languages_from` decides it, for :func:`read` too).
- :func:`load_mkdocs_config` — the plain mapping, for cheap lookups. YAML tags (``!ENV``,
  ``!relative``, ``!!python/name:``) become ``None``; nothing is imported. ``INHERIT`` is
  merged as MkDocs merges it; a file that is not valid YAML raises `ConfigError` with its
  file, line and column.
- :func:`markdown_setup` — the ``markdown_extensions`` and their configs exactly as
  MkDocs passes them to Python-Markdown: loaded with MkDocs' own YAML loader (so
  ``!ENV``, ``!relative`` and ``!!python/name:`` resolve as in a build) and validated
  by MkDocs' own option (which adds its built-in ``toc``, ``tables`` and
  ``fenced_code``), plus mkdocstrings' extension where the site lists that plugin
  (`ruota_docs.blocks.plugin_extensions`); no other plugin is loaded or run. The blocks
  mkdocstrings generates are not the page's own: they are listed, not run. A folder without a
  mkdocs.yml renders with MkDocs' built-in extensions and SuperFences.
"""

from __future__ import annotations

import copy
import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from ruota_docs.blocks import plugin_extensions


class ConfigError(ValueError):
    """A mkdocs.yml that cannot be used to render pages."""


@functools.cache
def _tag_tolerant_loader() -> type:
    """YAML with any tag (``!ENV``, ``!relative``, ``!!python/name:``) read as ``None``: how
    mkdocs.yml reads without MkDocs, and what makes a mkdocs.yml excerpt valid YAML."""
    import yaml  # noqa: PLC0415 — a run whose mkdocs.yml was read before reads it from the cache

    class TagTolerantLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        pass

    TagTolerantLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    TagTolerantLoader.add_multi_constructor("!", lambda loader, suffix, node: None)
    return TagTolerantLoader


def load_yaml(text: str, documents: bool = False):
    """``text`` as YAML with tags read as ``None`` (``documents``: the list of every document in it)."""
    import yaml  # noqa: PLC0415

    if documents:  # a SafeLoader: no objects are built
        return list(yaml.load_all(text, Loader=_tag_tolerant_loader()))
    return yaml.load(text, Loader=_tag_tolerant_loader())  # noqa: S506


#: The names MkDocs reads its configuration from, in the order it tries them.
CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")


def config_path(root: Path) -> Path:
    """``mkdocs.yml`` (or ``mkdocs.yaml``) at ``root``."""
    root = Path(root)
    for name in CONFIG_NAMES:
        if (root / name).exists():
            return root / name
    return root / "mkdocs.yml"


def site_above(folder: Path) -> Path | None:
    """The folder of the nearest mkdocs.yml (or mkdocs.yaml) at or above ``folder``: the site's root."""
    folder = Path(folder)
    return next((f for f in (folder, *folder.parents) if config_path(f).exists()), None)


def load_mkdocs_config(root: Path) -> dict:
    """The parsed ``mkdocs.yml`` at ``root`` (empty if absent), tags left unresolved."""
    path = config_path(root)
    if not path.exists():
        return {}
    return _load_file(path)


def setting(root: Path, name: str):
    """One top-level setting of the mkdocs.yml at ``root`` (None where it is absent), read from the
    file's mapping as parsed, without copying it: a run asks for ``docs_dir`` and ``plugins`` once per
    page, and needs no copy of the whole mapping for that. The value is shared: read it, never change it."""
    path = config_path(Path(root))
    try:
        path = path.resolve()
        stat = path.stat()
    except OSError:
        return None
    mapping = _parsed(str(path), stat.st_mtime_ns, stat.st_size)
    if mapping.get("INHERIT"):  # merged with its parent, which may change on its own: kept per state of both
        return _merged(_chain(path)).get(name)
    return mapping.get(name)


def _chain(path: Path) -> tuple[tuple[str, int, int], ...]:
    """The file and each file it inherits from, with their modification times and sizes."""
    found: list[tuple[str, int, int]] = []
    while len(found) < 32:
        try:
            stat = path.stat()
        except OSError:
            break  # `_inherit` names the missing file
        found.append((str(path), stat.st_mtime_ns, stat.st_size))
        relative = _parsed(*found[-1]).get("INHERIT")
        if not relative:
            break
        path = (path.parent / str(relative)).resolve()
    return tuple(found)


@functools.lru_cache(maxsize=8)
def _merged(chain: tuple[tuple[str, int, int], ...]) -> dict:
    """The mapping of the first file of ``chain`` merged with those it inherits; shared, never changed:
    a run asks for a setting once per page, and merging a site's files (FastAPI's) each time was most
    of the time its build spent in the engine."""
    return _load_file(Path(chain[0][0]))


def plugin_options(config: dict, name: str) -> dict | None:
    """The options of plugin ``name`` in a parsed mkdocs.yml, ``plugins:`` written as a list or as
    a mapping (``ruota_docs: {…}``, ``ruota_docs: null``); ``None`` where it is not listed."""
    return plugin_extensions.options_of(config.get("plugins"), name)


#: Where the records live unless the ``ruota_docs`` plugin's ``record_dir`` says otherwise.
DEFAULT_RECORD_DIR = "verification"
#: Days a checked external claim stays current unless the plugin's ``fact_max_age`` says otherwise.
DEFAULT_FACT_MAX_AGE = 120
#: The source language where neither ``source_language`` nor i18n's default language says.
DEFAULT_SOURCE_LANGUAGE = "es"


@dataclass(frozen=True)
class SiteConfig:
    """What the engine's parts need from ``mkdocs.yml``, defaults applied once."""

    root: Path  #: the folder of mkdocs.yml
    docs_dir: Path  #: absolute
    site_dir: Path  #: absolute
    record_dir: Path  #: absolute: the ``ruota_docs`` plugin's ``record_dir``, relative to ``root``
    source_language: str  #: ``source_language``, else i18n's default language, else the theme's
    languages: tuple[str, ...]  #: i18n's locales in their order, else the docs directory's language folders
    untranslated: tuple[str, ...]  #: pages deliberately left untranslated (path under the language folder)
    block_isolation: bool  #: the ``ruota_docs`` plugin's ``isolation: block``: every block in a fresh process
    mapping: dict  #: the whole file as :func:`load_mkdocs_config` reads it
    fact_max_age: int = DEFAULT_FACT_MAX_AGE  #: the plugin's ``fact_max_age``: days a checked claim stays current
    #: ``allow_private``: the site's example data a record may show (regular expressions, as written)
    allow_private: tuple | list = ()
    #: ``isolation: variants``: each of several blocks one directive brings in (tabs of variants) in a fresh process
    variant_isolation: bool = False
    #: ``setup``: a Python file each page's process runs before its first block (absolute), or None
    setup: Path | None = None
    #: every option of the ``ruota_docs`` plugin, validated and with its default, as the plugin sees them
    #: (`ruota_docs.blocks.plugin_config.PluginConfig`)
    options: dict = field(default_factory=dict)
    #: what MkDocs would warn of in those options (an unknown one, an old name), each with file and line
    warnings: tuple[str, ...] = ()


def read(root: Path) -> SiteConfig:
    """The site configuration of the project at ``root`` (a folder, or its mkdocs.yml); raises
    `ConfigError` for a plugin option MkDocs would refuse, naming the file, line and option."""
    location = Path(root).resolve()
    path = location if location.is_file() else config_path(location)
    mapping = _load_file(path) if path.exists() else {}
    root = path.parent
    options, warned = _options(path, _written(mapping, path))
    locales, _ = _i18n_locales(plugin_options(mapping, "i18n") or {})
    docs = docs_folder(root, mapping)
    if not locales and docs.is_dir():
        locales = sorted(p.name for p in docs.iterdir() if p.is_dir())
    return SiteConfig(
        root=root,
        docs_dir=docs,
        site_dir=(root / str(mapping.get("site_dir") or "site")).resolve(),
        record_dir=(root / options["record_dir"]).resolve(),
        source_language=languages_from(mapping).default if path.exists() else DEFAULT_SOURCE_LANGUAGE,
        languages=tuple(locales),
        untranslated=tuple(options["untranslated"]),
        block_isolation=options["isolation"] == "block",
        mapping=mapping,
        fact_max_age=options["fact_max_age"],
        allow_private=options["allow_private"],
        variant_isolation=options["isolation"] == "variants",
        setup=Path(options["setup"]) if options["setup"] else None,
        options=options,
        warnings=warned,
    )


def _written(mapping: dict, path: Path) -> dict:
    """The ``ruota_docs`` plugin's options as the file writes them ({} where it lists none)."""
    try:
        return plugin_options(mapping, "ruota_docs") or {}
    except (TypeError, ValueError):  # a list or a word where MkDocs wants option: value
        raise ConfigError(f"{where(path)}: plugins: ruota_docs: its options must be a mapping "
                          "(option: value), as MkDocs reads a plugin's options") from None


def docs_folder(root: Path, mapping: dict) -> Path:
    """The docs directory the mkdocs.yml at ``root`` (its parsed ``mapping``) names: ``docs_dir``, else ``docs``."""
    return (Path(root) / str(mapping.get("docs_dir") or "docs")).resolve()


def _options(path: Path, written: dict) -> tuple[dict, tuple[str, ...]]:
    """The plugin's options as written in the file at ``path``, validated by the plugin's own
    `ruota_docs.blocks.plugin_config.PluginConfig`: every option with its default, and the warnings."""
    setup = written.get("setup")
    # the answer depends on the section as written (any YAML: keys of any type), the file's folder (in the
    # key), whether the setup file is there, and the declaration itself
    declaration = Path(__file__).with_name("plugin_config.py").stat().st_mtime_ns
    text = repr([written, isinstance(setup, str) and (path.parent / setup).is_file(), declaration])
    errors, warnings, options = _validated(path, written, text)
    if errors:
        raise ConfigError("\n".join(f"{where(path, name)}: plugins: ruota_docs: {name}: {message}"
                                     for name, message in errors))
    return dict(options), tuple(f"{where(path, name)}: plugins: ruota_docs: {message}" for name, message in warnings)


def _validated(path: Path, written: dict, text: str) -> tuple[tuple, tuple, dict]:
    """``(errors, warnings, options)`` of the section ``written`` (kept between runs under ``text``, what
    the answer depends on, as the file's mapping is)."""
    from ruota_docs.blocks import setup_cache  # noqa: PLC0415

    digest = setup_cache.key(path, text.encode(), what="options")
    saved = setup_cache.load(digest)
    if saved is not None:
        return saved["errors"], saved["warnings"], saved["options"]
    from ruota_docs.blocks import plugin_config  # noqa: PLC0415 — MkDocs' config machinery: only when it changed

    config, errors, warnings = plugin_config.validate(written, str(path))
    found = (tuple(errors), tuple(warnings), dict(config))
    setup_cache.store(digest, {"errors": found[0], "warnings": found[1], "options": found[2]})
    return found


#: The line that lists the ``ruota_docs`` plugin: ``- ruota_docs``, ``- ruota_docs:``, ``ruota_docs: {…}``.
_PLUGIN_LINE = re.compile(r"^\s*(?:-\s*)?ruota_docs\s*(?::.*)?$")


def where(path: Path, option: str | None = None) -> str:
    """``path:line`` of ``option`` under the ``ruota_docs`` plugin in the file (None: of the plugin itself);
    ``path`` alone where the file does not say it on a line of its own, as when it comes from an INHERIT
    parent."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return str(path)
    start = next((n for n, line in enumerate(lines) if _PLUGIN_LINE.match(line)), None)
    if start is None:
        return str(path)
    line = start + 1 if option is None else next(
        (n for n, text in enumerate(lines[start + 1:], start + 2) if text.strip().startswith(f"{option}:")), 0)
    return f"{path}:{line}" if line else str(path)


def _load_file(path: Path) -> dict:
    """The file's mapping: a copy of the one parsed for this file and modification time, since
    one run asks for it from several parts (collection, the guard, the settings, the policies)."""
    path = Path(path).resolve()
    stat = path.stat()
    return _inherit(path, copy.deepcopy(_parsed(str(path), stat.st_mtime_ns, stat.st_size)))


@functools.lru_cache(maxsize=8)
def _parsed(path: str, _stamp: int, _size: int) -> dict:
    """The mapping of the file at ``path``, kept between runs beside the Markdown set-up
    (`ruota_docs.blocks.setup_cache`): a run that names one page reads it before anything else."""
    from ruota_docs.blocks import setup_cache  # noqa: PLC0415

    raw = Path(path).read_bytes()
    digest = setup_cache.key(Path(path), raw, what="mapping")
    saved = setup_cache.load(digest)
    if saved is not None:
        return saved["mapping"]
    try:
        mapping = load_yaml(raw.decode("utf-8")) or {}
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 (byte {error.start})") from None
    except Exception as error:  # noqa: BLE001 — yaml.YAMLError, imported lazily
        mark = getattr(error, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
        problem = getattr(error, "problem", None) or str(error)
        context = getattr(error, "context", None)
        raise ConfigError(f"{where}: not valid YAML: {problem}" + (f" ({context})" if context else "")) from None
    if not isinstance(mapping, dict):
        raise ConfigError(f"{path}: must be a mapping of settings (site_name: …), not {type(mapping).__name__}")
    setup_cache.store(digest, {"mapping": mapping})
    return mapping


def _inherit(path: Path, mapping: dict) -> dict:
    """``INHERIT: base.yml``: the parent's settings under the file's own, merged as MkDocs merges them."""
    relative = mapping.get("INHERIT")
    if not relative:
        return mapping
    import mergedeep  # noqa: PLC0415 — MkDocs' own dependency, for the rare file that inherits

    parent = (path.parent / str(relative)).resolve()
    if not parent.is_file():
        raise ConfigError(f"{path}: INHERIT: the inherited file {relative!r} does not exist at {parent}")
    return mergedeep.merge(_load_file(parent), {key: value for key, value in mapping.items() if key != "INHERIT"})



# -- languages -------------------------------------------------------------------------------------------------
# Two layouts of mkdocs-static-i18n, both first-class, and a site in one language:
#
# - one folder per language (``docs_structure: folder``): a page's language is its first folder
#   (``docs/fr/guide.md`` is French), a page outside every language folder is the default language's;
# - one suffix per language (the i18n plugin's default, ``docs_structure: suffix``): ``guide.fr.md``
#   is French, ``guide.md`` the default language's;
# - one language (no i18n plugin): every page is in the site's language, whatever its folders. That
#   language is the ``ruota_docs`` plugin's ``source_language`` where set, else the theme's
#   (Material's ``language``, the mkdocs theme's ``locale``), else English.
#
# A folder without a mkdocs.yml keeps the older rule: a page's first folder is its language.

#: The language of a single-language site that names none.
FALLBACK_LANGUAGE = "en"


@dataclass(frozen=True)
class SiteLanguages:
    """The languages of a site and how its pages are laid out."""

    locales: tuple[str, ...]  #: every language, the default first
    default: str  #: the source language
    folders: bool  #: pages live in one folder per language (the i18n plugin's folder layout)
    suffixes: bool = False  #: pages are named ``page.<locale>.md`` (the i18n plugin's suffix layout)
    known: bool = True  #: False where no mkdocs.yml says (a page's first folder is then its language)

    @property
    def single(self) -> bool:
        """A site in one language: no translations, no banner, nothing to compare."""
        return self.known and len(self.locales) == 1 and not (self.folders or self.suffixes)

    def page_language(self, page: str) -> str:
        """The language of a page given by its path under the docs directory (``fr/guide.md``)."""
        first = page.split("/", 1)[0] if "/" in page else ""
        if not self.known:
            return first
        if self.folders and first in self.locales:
            return first
        if self.suffixes:
            parts = page.rsplit("/", 1)[-1].split(".")
            if len(parts) > 2 and parts[-2] in self.locales:
                return parts[-2]
        return self.default


def theme_language(config) -> str | None:
    """The language a theme is set to: Material's ``language``, the mkdocs theme's ``locale`` (of
    mkdocs.yml as read, or of MkDocs' loaded config, whose theme is a `mkdocs.theme.Theme`)."""
    theme = config.get("theme")
    if isinstance(theme, str) or not callable(getattr(theme, "get", None)):
        return None
    value = theme.get("language") or theme.get("locale")
    return str(value) if value else None


def _i18n_locales(i18n: dict) -> tuple[list[str], str | None]:
    """The i18n plugin's locales in the file's order, and the one marked ``default``."""
    locales, default = [], None
    for lang in i18n.get("languages") or []:
        if isinstance(lang, dict) and lang.get("locale"):
            locales.append(str(lang["locale"]))
            default = default or (str(lang["locale"]) if lang.get("default") else None)
    return locales, default


def languages_from(config: dict) -> SiteLanguages:
    """The languages a parsed mkdocs.yml describes: the one place that decides them."""
    options = plugin_options(config, "ruota_docs") or {}
    i18n = plugin_options(config, "i18n")
    if i18n is None:
        default = str(options.get("source_language") or theme_language(config) or FALLBACK_LANGUAGE)
        return SiteLanguages((default,), default, folders=False)
    locales, default = _i18n_locales(i18n)
    default = str(options.get("source_language") or default or (locales[0] if locales else FALLBACK_LANGUAGE))
    ordered = (default, *[lang for lang in locales if lang != default])
    structure = str(i18n.get("docs_structure") or "suffix")
    return SiteLanguages(ordered, default, folders=structure == "folder", suffixes=structure == "suffix")


def languages(root: Path) -> SiteLanguages:
    """The languages of the site whose mkdocs.yml is at ``root`` (cached per file and change)."""
    path = config_path(Path(root)).resolve()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return SiteLanguages((), "", folders=True, known=False)
    return _languages(str(path), stamp)


@functools.lru_cache(maxsize=16)
def _languages(path: str, _stamp: int) -> SiteLanguages:
    return languages_from(_load_file(Path(path)))

@dataclass(frozen=True)
class MarkdownSetup:
    """What Python-Markdown needs to render a page the way the site does."""

    config_file: Path
    docs_dir: Path
    extensions: list
    extension_configs: dict
    config: object  #: the MkDocs config the ``!relative`` placeholders point into


#: The block panels as a Markdown extension (`ruota_docs.site.markdown_panels`), named by a site's mkdocs.yml.
PANELS_EXTENSION = "ruota_docs.site.markdown_panels"
#: Without a mkdocs.yml, pages render with MkDocs' built-in extensions and SuperFences.
DEFAULT_EXTENSIONS = ["toc", "tables", "fenced_code", "pymdownx.superfences"]


def lists_plugin(root: Path, name: str) -> bool:
    """Whether the site's mkdocs.yml lists the plugin ``name``."""
    return plugin_extensions.options_of(setting(root, "plugins"), name) is not None


def markdown_setup(root: Path, plugins: bool = False) -> MarkdownSetup:
    """The site's Markdown extensions, resolved by MkDocs (cached per file and change);
    ``plugins``: with the extensions its plugins add too (`ruota_docs.blocks.plugin_extensions`)."""
    path = config_path(root).resolve()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return MarkdownSetup(path, Path(root).resolve() / "docs", list(DEFAULT_EXTENSIONS), {},
                             SimpleNamespace(docs_dir=str(Path(root).resolve() / "docs")))
    return _markdown_setup(str(path), stamp, plugins)


@functools.lru_cache(maxsize=8)
def _markdown_setup(path: str, _stamp: int, plugins: bool = False) -> MarkdownSetup:
    """The set-up kept from an earlier run for this file and environment, else resolved now
    (with the plugins' extensions: always resolved, since their extensions hold live objects)."""
    from ruota_docs.blocks import setup_cache  # noqa: PLC0415

    if plugins:
        return _resolved(path, plugins=True)

    text = setup_cache.config_bytes(Path(path))
    if text is None or not setup_cache.cacheable(text.decode("utf-8", "replace")):
        return _resolved(path)
    digest = setup_cache.key(Path(path), text)
    saved = setup_cache.load(digest)
    if saved is not None:
        return MarkdownSetup(Path(path), Path(saved["docs_dir"]), list(saved["extensions"]),
                             saved["extension_configs"], setup_cache.SavedConfig(saved["settings"]))
    setup = _resolved(path)
    setup_cache.store(digest, {"docs_dir": str(setup.docs_dir), "extensions": setup.extensions,
                               "extension_configs": setup.extension_configs,
                               "settings": {name: setup.config.get(name) for name in setup_cache.SETTINGS}
                               | {"docs_dir": str(setup.docs_dir)}})
    return setup


def _resolved(path: str, plugins: bool = False) -> MarkdownSetup:
    """``markdown_extensions`` resolved by MkDocs' own option, as a build resolves them."""
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
    try:
        if plugins:
            plugin_extensions.add_mkdocstrings(config, path)
    except Exception as error:  # noqa: BLE001 — its options, its handler, the theme it needs
        raise ConfigError(f"{path}: {error}") from None
    docs = config.get("docs_dir") or "docs"
    docs_dir = Path(path).parent / docs
    config["docs_dir"] = str(docs_dir)
    configs = {name: _anchored(name, options, Path(path).parent)
               for name, options in (config["mdx_configs"] or {}).items()}
    if "pymdownx.snippets" in config["markdown_extensions"] and "pymdownx.snippets" not in configs:
        configs["pymdownx.snippets"] = _anchored("pymdownx.snippets", {}, Path(path).parent)
    # The engine's own panels (for generators without MkDocs plugins, such as Zensical) show records and
    # capture blocks themselves: the engine's collection reads the page without them.
    extensions = [name for name in config["markdown_extensions"] if name != PANELS_EXTENSION]
    configs.pop(PANELS_EXTENSION, None)
    return MarkdownSetup(Path(path), docs_dir, extensions, configs, config)


def _anchored(name: str, options: dict, base: Path) -> dict:
    """pymdownx.snippets resolves a relative ``base_path`` against the current directory (its
    default, ``"."``, too); builds run from the project directory, so relative paths mean that
    folder here too, wherever the engine runs from."""
    if name != "pymdownx.snippets":
        return options
    paths = options.get("base_path", ["."])
    paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    anchored = [p if not isinstance(p, str) or os.path.isabs(p) else str(base / p) for p in paths]
    return {**options, "base_path": anchored}
