"""The one reader of mkdocs.yml: folders, languages and the ruota_docs plugin's options."""

from __future__ import annotations

import textwrap

import pytest

from _support import REPO
from ruota_docs.blocks import site_config


def _project(tmp_path, text: str):
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent(text), encoding="utf-8")
    (tmp_path / "pages" / "de").mkdir(parents=True)
    return tmp_path


def test_defaults_without_plugin_options(tmp_path):
    site = site_config.read(_project(tmp_path, "site_name: x\ndocs_dir: pages\n"))
    assert site.docs_dir == tmp_path / "pages"
    assert site.site_dir == tmp_path / "site"
    assert site.record_dir == tmp_path / "verification"
    assert site.source_language == "en"  # one language, and no theme that names it
    assert site.languages == ("de",)  # no i18n: the language folders


def test_plugin_options_and_i18n(tmp_path):
    site = site_config.read(_project(tmp_path, """\
        site_name: x
        site_url: !ENV [SITE_URL, 'https://x.example.org/']
        plugins:
          - ruota_docs:
              record_dir: records/machines
              untranslated: [solo.md]
          - i18n:
              languages:
                - locale: en
                - locale: fr
                  default: true
        """))
    assert site.record_dir == tmp_path / "records" / "machines"
    assert site.source_language == "fr"  # i18n's default language, as no source_language is given
    assert site.languages == ("en", "fr")
    assert site.untranslated == ("solo.md",)


def test_source_language_option_wins(tmp_path):
    site = site_config.read(_project(tmp_path, """\
        plugins:
          - ruota_docs:
              source_language: en
          - i18n:
              languages: [{locale: fr, default: true}, {locale: en}]
        """))
    assert site.source_language == "en"


def test_the_file_itself_may_be_named(tmp_path):
    _project(tmp_path, "docs_dir: pages\n")
    assert site_config.read(tmp_path / "mkdocs.yml").docs_dir == tmp_path / "pages"


def test_this_repository():
    site = site_config.read(REPO)
    assert (site.docs_dir, site.record_dir, site.source_language) == (REPO / "docs", REPO / "verification", "es")
    assert site.languages == ("es", "en", "fr")


# -- the languages: decided once, for read() and languages() alike ----------------------------------------------
I18N = """\
site_name: t
plugins:
  - i18n:
      docs_structure: {structure}
      languages:
        - locale: fr
        - locale: es
          default: true
        - locale: en
  - ruota_docs{options}
"""


@pytest.mark.parametrize(("structure", "options", "expected"), [
    ("folder", "", (("es", "fr", "en"), "es", True, False)),
    ("suffix", "", (("es", "fr", "en"), "es", False, True)),
    ("folder", ":\n      source_language: en", (("en", "fr", "es"), "en", True, False)),
])
def test_the_languages_of_an_i18n_site(tmp_path, structure, options, expected):
    (tmp_path / "mkdocs.yml").write_text(I18N.format(structure=structure, options=options), encoding="utf-8")
    langs = site_config.languages(tmp_path)
    assert (langs.locales, langs.default, langs.folders, langs.suffixes) == expected
    read = site_config.read(tmp_path)
    assert read.source_language == langs.default  # one decision, two views
    assert read.languages == ("fr", "es", "en")  # the i18n plugin's own order


def test_a_page_is_in_the_language_of_its_folder_or_suffix(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(I18N.format(structure="suffix", options=""), encoding="utf-8")
    langs = site_config.languages(tmp_path)
    assert [langs.page_language(p) for p in ("guide.fr.md", "a/guide.en.md", "guide.md", "fr/guide.md")] == [
        "fr", "en", "es", "es"]
    assert not langs.single


def test_a_site_in_one_language_speaks_its_themes_language(tmp_path):
    (tmp_path / "mkdocs.yml").write_text("site_name: t\ntheme:\n  name: mkdocs\n  locale: de\n", encoding="utf-8")
    langs = site_config.languages(tmp_path)
    assert (langs.locales, langs.default, langs.single) == (("de",), "de", True)
    assert langs.page_language("advanced/x.md") == "de"
    assert site_config.languages_from({}).default == site_config.FALLBACK_LANGUAGE == "en"


def test_without_a_mkdocs_yml_a_pages_first_folder_is_its_language(tmp_path):
    langs = site_config.languages(tmp_path)
    assert not langs.known and langs.page_language("fr/guide.md") == "fr"
    assert site_config.read(tmp_path).source_language == site_config.DEFAULT_SOURCE_LANGUAGE


def test_the_mapping_is_kept_between_runs_and_read_again_after_an_edit(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "p").mkdir()
    root = _project(tmp_path / "p", "site_name: x\ndocs_dir: pages\nextra:\n  when: !ENV [WHEN, 'later']\n")
    first = site_config.load_mkdocs_config(root)
    assert first == {"site_name": "x", "docs_dir": "pages", "extra": {"when": None}}
    site_config._parsed.cache_clear()  # a new run: read from the cache, YAML never imported
    monkeypatch.setattr(site_config, "load_yaml", lambda *a, **k: pytest.fail("parsed again"))
    assert site_config.load_mkdocs_config(root) == first
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (root / "mkdocs.yml").write_text("site_name: y\n", encoding="utf-8")
    site_config._parsed.cache_clear()
    assert site_config.load_mkdocs_config(root) == {"site_name": "y"}


# -- configuration as MkDocs reads it ----------------------------------------------------------------------------
def test_plugin_options_under_plugins_written_as_a_mapping(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: s\nplugins:\n  search:\n  ruota_docs:\n    record_dir: records\n    untranslated: [a.md]\n"
        "  i18n:\n    docs_structure: folder\n    languages:\n      - locale: en\n        default: true\n",
        encoding="utf-8")
    read = site_config.read(tmp_path)
    assert read.record_dir == (tmp_path / "records").resolve() and read.untranslated == ("a.md",)
    assert site_config.plugin_options(read.mapping, "search") == {}
    assert site_config.plugin_options(read.mapping, "blog") is None
    assert site_config.languages(tmp_path).folders
    (tmp_path / "mkdocs.yml").write_text("site_name: s\nplugins:\n  ruota_docs: null\n", encoding="utf-8")
    assert site_config.lists_plugin(tmp_path, "ruota_docs")


def test_inherit_merges_the_parent_under_the_files_own_settings(tmp_path):
    (tmp_path / "base.yml").write_text(
        "site_name: base\ndocs_dir: pages\nplugins:\n  - ruota_docs:\n      record_dir: base-records\n",
        encoding="utf-8")
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "mkdocs.yml").write_text("INHERIT: ../base.yml\nsite_name: english\n", encoding="utf-8")
    read = site_config.read(tmp_path / "en")
    assert read.mapping["site_name"] == "english" and "INHERIT" not in read.mapping
    assert read.docs_dir == (tmp_path / "en" / "pages").resolve()
    assert read.record_dir == (tmp_path / "en" / "base-records").resolve()
    (tmp_path / "en" / "mkdocs.yml").write_text("INHERIT: ../missing.yml\n", encoding="utf-8")
    with pytest.raises(site_config.ConfigError, match=r"INHERIT: the inherited file '\.\./missing\.yml' does not"):
        site_config.read(tmp_path / "en")


def test_a_malformed_mkdocs_yml_is_named_with_its_line(tmp_path):
    path = tmp_path / "mkdocs.yml"
    path.write_text("site_name: x\nmarkdown_extensions:\n  - toc:\n    permalink: [\n", encoding="utf-8")
    with pytest.raises(site_config.ConfigError, match=rf"^{path.resolve()}:5:1: not valid YAML: did not find"):
        site_config.read(tmp_path)


def test_unknown_plugin_options_are_named_with_their_line(tmp_path):
    path = tmp_path / "mkdocs.yml"
    path.write_text("site_name: x\nplugins:\n  - search:\n      polices: {}\n  - ruota_docs:\n      polices: {}\n"
                    "      report_only: true\n", encoding="utf-8")
    (warning,) = site_config.read(tmp_path).warnings
    assert warning.startswith(f"{path}:6: plugins: ruota_docs: unknown option 'polices' (the plugin has: record_dir, ")
    assert "ledger_dir" not in warning  # an old name is read, not offered


def test_an_old_option_name_is_read_with_a_warning(tmp_path):
    site = site_config.read(_project(tmp_path, "plugins:\n  ruota_docs:\n    ledger_dir: runs\n"))
    assert site.record_dir == tmp_path / "runs"
    assert site.warnings == (f"{tmp_path / 'mkdocs.yml'}:3: plugins: ruota_docs: 'ledger_dir' is the old name of "
                             "record_dir: rename it",)


@pytest.mark.parametrize(("written", "expected"), [
    ("isolation: blok", r":4: plugins: ruota_docs: isolation: Expected one of: \('page', 'block', 'variants'\) but "
                        r"received: 'blok' \(how pages' blocks share processes"),
    ("enabled: maybe", r":4: plugins: ruota_docs: enabled: Expected type: <class 'bool'> but received: <class 'str'> "
                       r"\(false builds the site without"),
    ("untranslated: a.md", r":4: plugins: ruota_docs: untranslated: Expected type: <class 'list'>"),
])
def test_a_wrong_option_value_is_refused_with_its_file_line_and_what_the_option_is_for(tmp_path, written, expected):
    with pytest.raises(site_config.ConfigError, match=r"^" + str(tmp_path / "mkdocs.yml") + expected):
        site_config.read(_project(tmp_path, f"site_name: x\nplugins:\n  - ruota_docs:\n      {written}\n"))


@pytest.mark.parametrize("written, expected", [("", 120), ("\n      fact_max_age: 30", 30)])
def test_fact_max_age_is_the_plugin_option_or_120_days(tmp_path, written, expected):
    site = site_config.read(_project(tmp_path, f"site_name: x\nplugins:\n  - ruota_docs:\n      record_dir: v{written}\n"))
    assert site.fact_max_age == expected


@pytest.mark.parametrize("value", ["0", "-5", "soon", "true", "1.5"])
def test_a_fact_max_age_that_is_not_a_positive_number_of_days_is_refused(tmp_path, value):
    with pytest.raises(site_config.ConfigError, match="fact_max_age: must be a whole number of days, at least 1"):
        site_config.read(_project(tmp_path, f"site_name: x\nplugins:\n  - ruota_docs:\n      fact_max_age: {value}\n"))


def test_the_site_root_is_the_nearest_folder_with_mkdocs_yml_or_mkdocs_yaml(tmp_path):
    (tmp_path / "a" / "docs" / "es").mkdir(parents=True)
    assert site_config.site_above(tmp_path / "a" / "docs" / "es") is None
    (tmp_path / "a" / "mkdocs.yaml").write_text("site_name: a\n", encoding="utf-8")
    assert site_config.site_above(tmp_path / "a" / "docs" / "es") == tmp_path / "a"
    assert site_config.config_path(tmp_path / "a") == tmp_path / "a" / "mkdocs.yaml"


def test_the_engine_reads_pages_without_its_own_panels_extension(tmp_path):
    """A site that names ruota_docs.site.markdown_panels (for Zensical) is collected without it:
    the extension captures blocks and fills panels itself."""
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: x\nmarkdown_extensions:\n  - pymdownx.superfences\n"
        "  - ruota_docs.site.markdown_panels:\n      lang: en\n", encoding="utf-8")
    setup = site_config.markdown_setup(tmp_path)
    assert site_config.PANELS_EXTENSION not in setup.extensions
    assert site_config.PANELS_EXTENSION not in setup.extension_configs
    assert "pymdownx.superfences" in setup.extensions


def test_one_setting_is_read_without_copying_the_file_and_follows_its_changes(tmp_path):
    root = _project(tmp_path, "site_name: x\ndocs_dir: pages\nplugins:\n  - search\n")
    assert site_config.setting(root, "docs_dir") == "pages"
    assert site_config.setting(root, "plugins") is site_config.setting(root, "plugins")  # shared, not copied
    assert site_config.lists_plugin(root, "search") and not site_config.lists_plugin(root, "mkdocstrings")
    (root / "mkdocs.yml").write_text("site_name: x\ndocs_dir: other_pages\n", encoding="utf-8")
    assert site_config.setting(root, "docs_dir") == "other_pages"
    assert site_config.setting(root, "plugins") is None
    assert site_config.setting(tmp_path / "nowhere", "docs_dir") is None


def test_one_setting_of_a_file_that_inherits_comes_merged_with_its_parent(tmp_path):
    (tmp_path / "base.yml").write_text("docs_dir: shared\nplugins:\n  - mkdocstrings\n", encoding="utf-8")
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "mkdocs.yml").write_text("INHERIT: ../base.yml\nsite_name: english\n", encoding="utf-8")
    assert site_config.setting(tmp_path / "en", "docs_dir") == "shared"
    assert site_config.lists_plugin(tmp_path / "en", "mkdocstrings")
    # merged once for the files as they are: a change to the parent is read again
    (tmp_path / "base.yml").write_text("docs_dir: pages_of_another_length\n", encoding="utf-8")
    assert site_config.setting(tmp_path / "en", "docs_dir") == "pages_of_another_length"
    assert not site_config.lists_plugin(tmp_path / "en", "mkdocstrings")
