"""One search index per language (ruota_docs.site.search), from the one Material writes."""

from __future__ import annotations

import json

import pytest

from ruota_docs.site import search
from ruota_docs.site.site_languages import SiteLanguage

LANGUAGES = [SiteLanguage("es", ""), SiteLanguage("en", "en"), SiteLanguage("fr", "fr")]
CONFIG = {"lang": ["es", "en", "fr"], "separator": "[\\s\\-]+", "pipeline": ["stopWordFilter"], "fields": {"title": {"boost": 1000.0}}}
MERGED = {
    "config": CONFIG,
    "docs": [
        {"location": "", "title": "Inicio", "text": "Keras"},
        {"location": "guides/x/#keras", "title": "Keras", "text": "es"},
        {"location": "en/", "title": "Home", "text": "Keras"},
        {"location": "en/guides/x/#keras", "title": "Keras", "text": "en"},
        {"location": "fr/reference/api/#ruota_docs.probe", "title": "probe()", "text": "same docstring"},
        {"location": "english-words/", "title": "a page whose address starts like a language", "text": ""},
    ],
}


def test_split_by_language_with_addresses_from_each_root():
    parts = search.split_index(MERGED, LANGUAGES, lunr_languages={"es", "fr"})
    assert {lang.locale: [d["location"] for d in part["docs"]] for lang, part in parts.items()} == {
        "es": ["", "guides/x/#keras", "english-words/"],
        "en": ["", "guides/x/#keras"],
        "fr": ["reference/api/#ruota_docs.probe"],
    }
    for lang, part in parts.items():
        assert part["config"] == dict(CONFIG, lang=[lang.locale])
    assert MERGED["docs"][2]["location"] == "en/", "the merged index is left as it was"


def test_a_language_lunr_cannot_stem_keeps_the_configured_rules(caplog):
    parts = search.split_index(MERGED, [SiteLanguage("es", ""), SiteLanguage("xx", "en")], lunr_languages={"es"})
    assert [part["config"]["lang"] for part in parts.values()] == [["es"], CONFIG["lang"]]
    assert "lunr.js has no rules for 'xx'" in caplog.text


def test_write_one_file_per_language(tmp_path):
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(MERGED), encoding="utf-8")
    for name in ("lunr.es.min.js", "lunr.fr.min.js", "lunr.stemmer.support.min.js"):
        (tmp_path / search.LUNR).mkdir(parents=True, exist_ok=True)
        (tmp_path / search.LUNR / name).write_text("", encoding="utf-8")
    written = search.write_language_indexes(tmp_path, LANGUAGES)
    assert written == [tmp_path / "search/search_index.json", tmp_path / "en/search/search_index.json", tmp_path / "fr/search/search_index.json"]
    langs = [json.loads(p.read_text(encoding="utf-8"))["config"]["lang"] for p in written]
    assert langs == [["es"], ["en"], ["fr"]]
    # a language build's own index holds that language only: the others' files are left alone
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(dict(MERGED, docs=MERGED["docs"][2:4])), encoding="utf-8")
    assert search.write_language_indexes(tmp_path, LANGUAGES) == [tmp_path / "en/search/search_index.json"]
    assert len(json.loads((tmp_path / "fr/search/search_index.json").read_text(encoding="utf-8"))["docs"]) == 1


def test_no_index_without_search(tmp_path):
    assert search.write_language_indexes(tmp_path, LANGUAGES) == []


@pytest.mark.parametrize("location", ["en", "fr#x"])
def test_an_address_without_a_slash_belongs_to_the_root_language(location):
    parts = search.split_index({"config": CONFIG, "docs": [{"location": location, "title": "t", "text": ""}]}, LANGUAGES, {"es", "fr"})
    assert [lang.locale for lang in parts] == ["es"]


# -- search ----------------------------------------------------------------------------------------------------
def test_search_entries_of_rebuilt_pages_are_replaced_in_place():
    doc = lambda location, text="": {"location": location, "title": location, "text": text}  # noqa: E731
    index = {"config": {"lang": ["es"]}, "docs": [doc(""), doc("a/"), doc("a/#one"), doc("a/#two"), doc("b/")]}
    fresh = {"config": {"lang": ["es"]}, "docs": [doc("a/", "new"), doc("a/#three"), doc("c/")]}
    merged = search.replace_pages(index, fresh, {"a/", "c/"})
    assert [d["location"] for d in merged["docs"]] == ["", "a/", "a/#three", "b/", "c/"]
    assert merged["docs"][1]["text"] == "new"
    assert [d["location"] for d in search.replace_pages(index, {"docs": []}, {"b/"})["docs"]] == ["", "a/", "a/#one", "a/#two"]
