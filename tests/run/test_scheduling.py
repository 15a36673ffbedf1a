"""run.scheduling: loadscope, with a page's translations in one unit of work."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("xdist")

from ruota_docs.run import scheduling


FOLDERS = ("site_name: t\nplugins:\n  - i18n:\n      docs_structure: folder\n      languages:\n"
           "        - locale: es\n          default: true\n        - locale: en\n")


def test_translations_of_a_page_share_a_scope_and_other_tests_keep_theirs(tmp_path, monkeypatch):
    monkeypatch.setattr(scheduling.LoadScopeScheduling, "__init__", lambda self, config, log=None: None)
    (tmp_path / "mkdocs.yml").write_text(FOLDERS, encoding="utf-8")
    (tmp_path / "docs" / "es").mkdir(parents=True)
    made = scheduling.PageScopeScheduling(SimpleNamespace(rootpath=tmp_path), None)
    assert made.languages == {"es", "en"}
    assert made._split_scope("docs/es/guides/x.md::sybil:3") == made._split_scope("docs/en/guides/x.md::sybil:0") \
        == "docs/guides/x.md"
    assert made._split_scope("tests/test_a.py::test_b") == "tests/test_a.py"


def test_a_site_in_one_language_has_no_language_folders(tmp_path, monkeypatch):
    monkeypatch.setattr(scheduling.LoadScopeScheduling, "__init__", lambda self, config, log=None: None)
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    (tmp_path / "docs" / "es").mkdir(parents=True)
    made = scheduling.PageScopeScheduling(SimpleNamespace(rootpath=tmp_path), None)
    assert made.languages == set()
    assert made._split_scope("docs/es/x.md::sybil:0") == "docs/es/x.md"


def test_the_plugin_makes_the_scheduler_for_loadscope_only():
    plugin = scheduling.SchedulingPlugin()
    assert plugin.pytest_xdist_make_scheduler(SimpleNamespace(getoption=lambda name: "load"), None) is None
