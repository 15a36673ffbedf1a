"""The one reader of mkdocs.yml: folders, languages and the ruota_docs plugin's options."""

from __future__ import annotations

import textwrap

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
    assert site.ledger_dir == tmp_path / "verification"
    assert site.source_language == "en"  # one language, and no theme that names it
    assert site.languages == ("de",)  # no i18n: the language folders


def test_plugin_options_and_i18n(tmp_path):
    site = site_config.read(_project(tmp_path, """\
        site_name: x
        site_url: !ENV [SITE_URL, 'https://x.example.org/']
        plugins:
          - ruota_docs:
              ledger_dir: records/machines
              untranslated: [solo.md]
          - i18n:
              languages:
                - locale: en
                - locale: fr
                  default: true
        """))
    assert site.ledger_dir == tmp_path / "records" / "machines"
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
    assert (site.docs_dir, site.ledger_dir, site.source_language) == (REPO / "docs", REPO / "verification", "es")
    assert site.languages == ("es", "en", "fr")
