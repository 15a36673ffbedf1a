"""The ``ruota_docs`` plugin's options: declared once, on a MkDocs `Config`, for every part that reads them.

MkDocs validates them with this class when it loads the plugin (``mkdocs build``, ``mkdocs serve``);
the pytest plugin, the repository guard and the command line validate the same section of mkdocs.yml
with the same class (`ruota_docs.blocks.site_config.read`), so every option has one default, one help
text and one check: an unknown option is a warning and a wrong value an error on both sides. Each
option carries its help (:func:`described`), which both sides add to an error about it.

Importing MkDocs' config machinery costs a run about a tenth of a second, so the engine keeps what
this module decided for a given section beside the parsed mkdocs.yml
(`ruota_docs.blocks.setup_cache`) and imports it only when the section changed.
"""

from __future__ import annotations

from typing import Any, TypeVar

from mkdocs.config import config_options as c
from mkdocs.config.base import Config, ValidationError

from ruota_docs.blocks import policies as run_policies
from ruota_docs.blocks.site_config import DEFAULT_FACT_MAX_AGE, DEFAULT_RECORD_DIR

_Option = TypeVar("_Option", bound=c.BaseConfigOption)


def described(option: _Option, text: str) -> _Option:
    """``option`` with its help ``text``: what the option is for, added to any error about it."""
    option.help = text  # type: ignore[attr-defined]
    return option


class _Days(c.Type):  # type: ignore[type-arg]
    """A whole number of days, at least 1."""

    def run_validation(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValidationError(f"must be a whole number of days, at least 1 (got {value!r})")
        return value


class _SetupFile(c.File):
    """A file that must exist, relative to mkdocs.yml; its absolute path."""

    def run_validation(self, value: object) -> str:
        try:
            return str(super().run_validation(value))
        except ValidationError:
            raise ValidationError(f"{value} is not a file") from None


class _Policies(c.Type):  # type: ignore[type-arg]
    """Run policies per fence language (`ruota_docs.blocks.policies`), checked as the engine reads them."""

    def run_validation(self, value: object) -> dict[str, Any]:
        found: dict[str, Any] = super().run_validation(value)
        try:
            run_policies.policies_of(found)
        except ValueError as error:
            raise ValidationError(str(error)) from None
        return found


class PluginConfig(Config):
    """Options of the ``ruota_docs`` plugin in mkdocs.yml."""

    record_dir = described(c.Type(str, default=DEFAULT_RECORD_DIR),
                           "the directory of verification records (<machine-class>-<fingerprint>.json), relative to "
                           "mkdocs.yml")
    ledger_dir = described(c.Deprecated(moved_to="record_dir", message="'{}' is the old name of record_dir: "
                                        "rename it"), "record_dir's name before")
    enabled = described(c.Type(bool, default=True),
                        "false builds the site without badges, marks and charts (to measure the plugin's cost)")
    check_records = described(c.Type(bool, default=True),
                              "the build refuses whatever 'ruota-docs record check' refuses in the records it "
                              "publishes; only tests of the rendering, whose hand-made records are partial, turn "
                              "it off")
    verified_records = described(c.Optional(c.Type(str)),
                                 "the list of ci records whose attestation was verified (a file name, a tab and the "
                                 "run's account per line), relative to mkdocs.yml; default: the file named by "
                                 "RUOTA_DOCS_VERIFIED_RECORDS, else none (every ci record shows as claimed)")
    source_language = described(c.Optional(c.Type(str)),
                                "the language translations are compared against (default: the i18n plugin's "
                                "default language; on a site in one language, the theme's language or locale)")
    untranslated = described(c.Type(list, default=[]),
                             "pages deliberately left untranslated (path under the language folder); they get a "
                             "banner")
    key_blocks = described(c.DictOfItems(c.DictOfItems(c.Type((list, str, dict))), default={}),
                           "the card matrix's guides: {guide: {level: [snippet, ...]}}, levels 'environment' (the "
                           "installed stack sees the device) and 'self_test' (the guide's small computation on it); "
                           "optionally target (the machines it is written for) and title ({lang: short title})")
    target_cards = described(c.DictOfItems(c.ListOfItems(c.Type(str)), default={}),
                             "the cards the guides are about, each with its GPU targets: {card: [target, ...]}")
    guide_cards = described(c.DictOfItems(c.Type(str), default={}),
                            "the card each guide is about, named as in target_cards: {guide: card}; its panels "
                            "list the machines of that card's targets first")
    policies = described(_Policies(dict, default={}),
                         "what every block of a fence language is, site-wide: show, run or skip \"reason\" "
                         "({console: show, html: show})")
    isolation = described(c.Choice(("page", "block", "variants"), default="page"),
                          "how pages' blocks share processes: page (one process per page), block (each block in "
                          "a fresh process) or variants (as page, but each variant one directive brings in runs "
                          "in a fresh process)")
    setup = described(c.Optional(_SetupFile(exists=True)),
                      "a Python file, relative to mkdocs.yml, that each page's process runs before its first "
                      "block (environment variables, a frozen clock, mocks)")
    collect_hooks = described(c.Type(bool, default=False),
                              "collect each page as the site's hooks rewrite it: pytest passes the page's Markdown "
                              "through each hook's on_page_markdown before it renders it, as mkdocs build does, so "
                              "that the blocks a hook writes (tabs, outputs) run and are recorded; the hooks' "
                              "packages must be installed where pytest runs")
    fact_max_age = described(_Days(int, default=DEFAULT_FACT_MAX_AGE),
                             "days after which a checked claim (<!-- fact: checked=... -->) is marked as possibly "
                             "out of date, and 'ruota-docs facts --as-of' fails naming it")
    report_only = described(c.Type(bool, default=False),
                            "list every block without a run policy (and every page problem) and build anyway, "
                            "instead of stopping at the first")
    allow_private = described(c.Type(list, default=[]),
                              "the docs' own example data a record may show: regular expressions, each matched in "
                              "full against what the privacy scan found")
    partial_rebuild = described(c.Type(bool, default=True),
                                "under mkdocs serve, rebuild only the pages a change shows on; false: MkDocs' own "
                                "rebuild of the whole site after every change")


def options_of(config: Config) -> dict[str, c.BaseConfigOption]:
    """The options a `Config` class (or instance) declares, by name, in the order declared."""
    return dict(config._schema)  # MkDocs' schema, as every plugin's options have


def help_of(config: Config, name: str) -> str:
    """The help text of option ``name`` of ``config``."""
    return str(getattr(options_of(config)[name], "help", ""))


def validate(options: dict[str, Any], config_file: str | None) -> tuple[PluginConfig, list[tuple[str, str]],
                                                                         list[tuple[str, str]]]:
    """``options`` as written under the plugin (``config_file``: the mkdocs.yml they come from): the
    validated config, every default applied, and ``(option, message)`` of each error and each warning,
    messages saying what the option is for."""
    config = PluginConfig(config_file_path=config_file)
    config.load_dict(dict(options))
    failed, warned = config.validate()
    declared = options_of(config)
    names = [name for name, option in declared.items() if not isinstance(option, c.Deprecated)]
    errors = [(name, f"{error} ({help_of(config, name)})") for name, error in failed]
    warnings = [(name, str(message) if name in declared else
                 f"unknown option {name!r} (the plugin has: {', '.join(names)})") for name, message in warned]
    return config, errors, warnings
