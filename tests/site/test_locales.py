"""The interface in each language: plurals, numbers, units, dates, requirement terms, engine messages."""

from __future__ import annotations

import string

import pytest

from ruota_docs.site import locales
from ruota_docs.site.locales import LANGUAGE_NAMES, STRINGS, digits, text, theme_text

LANGUAGES = ("es", "fr", "en")


# -- the string tables ---------------------------------------------------------------------------------------------
def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _forms(entry) -> dict[str, str]:
    return {k: v for k, v in entry.items() if k != "by"} if isinstance(entry, dict) else {"": entry}


@pytest.mark.parametrize("lang", ["es", "fr"])
def test_every_string_exists_with_the_same_fields(lang):
    for key, entry in STRINGS["en"].items():
        assert key in STRINGS[lang], f"{lang} lacks {key!r}"
        if not STRINGS[lang][key]:
            continue  # deliberately empty: shown only on translations, never in the source language
        english = set().union(*(_fields(t) for t in _forms(entry).values()))
        for form, template in _forms(STRINGS[lang][key]).items():
            assert _fields(template) <= english | {"count"}, f"{lang} {key} {form}: {template!r}"
    assert set(STRINGS[lang]) == set(STRINGS["en"])


def test_counted_strings_have_the_forms_their_languages_use():
    for lang, table in STRINGS.items():
        for key, entry in table.items():
            if isinstance(entry, dict):
                assert {"one", "other"} <= set(entry), f"{lang} {key}"
                if "by" in entry:  # a count other than ``count`` is one of the string's own numbers
                    assert entry["by"] in set().union(*(_fields(t) for t in _forms(entry).values())), f"{lang} {key}"


def test_no_string_writes_an_optional_plural():
    for lang in LANGUAGES:
        for key, entry in STRINGS[lang].items():
            for template in _forms(entry).values():
                assert "(s)" not in template, f"{lang} {key}: {template!r}"


@pytest.mark.parametrize(("lang", "count", "expected"), [
    ("fr", 0, "0 bloc"), ("fr", 1, "1 bloc"), ("fr", 2, "2 blocs"),  # French: 0 and 1 are singular
    ("es", 0, "0 bloques"), ("es", 1, "1 bloque"), ("es", 2, "2 bloques"),
    ("en", 0, "0 blocks"), ("en", 1, "1 block"), ("en", 1500, "1,500 blocks"),
    ("es", 1500, "1500 bloques"), ("es", 15000, "15\u202f000 bloques"), ("fr", 1500, "1\u202f500 blocs"),
])
def test_counts_follow_each_languages_plural_rule(lang, count, expected):
    assert text(lang, "blocks_count", count=count) == expected


def test_a_counted_string_needs_its_number():
    with pytest.raises(KeyError, match="counts 'total'"):
        text("es", "summary_all", passed=1, machines="1 máquina", date="hoy")


# -- the data files ------------------------------------------------------------------------------------------------
@pytest.fixture
def locale_dir(tmp_path, monkeypatch):
    """An empty folder of locale files in place of the package's own."""
    monkeypatch.setattr(locales, "LOCALES_DIR", tmp_path)
    locales._table.cache_clear()
    yield tmp_path
    locales._table.cache_clear()


def test_the_strings_are_the_packages_data_files():
    assert list(STRINGS) == ["en", "es", "fr"] == locales.languages()
    assert all((locales.LOCALES_DIR / f"{lang}.yml").is_file() for lang in LANGUAGES)


def test_a_language_without_a_file_is_an_error_not_english():
    with pytest.raises(locales.LocaleError, match=r"no interface strings for language 'de': .*de\.yml does not exist "
                                                  r"\(languages with strings: en, es, fr\)"):
        text("de", "requires")
    assert "de" not in STRINGS


def test_a_missing_key_is_an_error_that_names_the_file():
    with pytest.raises(locales.LocaleError, match=r"fr\.yml: no string 'no_such_string'"):
        text("fr", "no_such_string")


@pytest.mark.parametrize(("content", "expected"), [
    ("strings: {a: b}\n", "expected the sections 'language_names' and 'strings', found strings"),
    ("language_names: {}\nstrings:\n  a: b\n  a: c\n", r":4: strings: 'a' is given twice"),
    ("language_names: {}\nstrings:\n  a: [b]\n", ":3: a: expected a string or a mapping of plural forms"),
    ("language_names: {}\nstrings:\n  a:\n    one: x\n    several: y\n", ":5: a: 'several' is no plural form"),
    ("language_names: {}\nstrings:\n  a:\n    one: x\n", ":4: a: a counted string needs at least its 'other' form"),
    ("language_names: {}\nstrings:\n  a: yes\n", ":3: a: expected a string"),
    ("language_names: {}\nstrings:\n  a: \"b\n", "not valid YAML"),
    ("", "empty"),
])
def test_a_malformed_file_is_an_error_with_its_line(locale_dir, content, expected):
    (locale_dir / "xx.yml").write_text(content, encoding="utf-8")
    with pytest.raises(locales.LocaleError) as raised:
        text("xx", "a")
    assert str(raised.value).startswith(str(locale_dir / "xx.yml")) and expected in str(raised.value)


def test_a_file_is_read_with_its_escapes_and_plural_forms(locale_dir):
    (locale_dir / "it.yml").write_text(
        'language_names: {it: italiano}\nstrings:\n  size: "VRAM \\u2265\\u00a0{size}"\n'
        "  n:\n    one: '{count} cosa'\n    other: '{count} cose'\n", encoding="utf-8")
    assert text("it", "size", size="8 GiB") == "VRAM \u2265\u00a08 GiB"
    assert text("it", "n", count=2) == "2 cose" and LANGUAGE_NAMES["it"] == {"it": "italiano"}


def test_the_summary_agrees_with_its_counts():
    """Some blocks verified agrees with the verified ones; all of them, with the total; block counts in
    words up to thirty (digits where `digits` keeps them so), the number of machines in words, with the gender
    of their noun."""
    date = "3 de diciembre de 2026"
    assert text("es", "summary_all", passed=1, total=1, machines=text("es", "machines_count", count=1), date=date) == (
        "El único bloque de código de esta página se ha verificado en una máquina de pruebas (última ejecución: "
        "3 de diciembre de 2026).")
    assert text("fr", "summary", passed=1, total=7, machines="deux machines", date="hier").startswith(
        "Sur cette page, un bloc de code sur sept a été vérifié sur deux machines (")
    assert text("fr", "summary", passed=5, total=7, machines="2 machines", date="hier").startswith(
        "Sur cette page, cinq blocs de code sur sept ont été vérifiés")
    assert text("fr", "summary", passed=digits(5, "fr"), total=digits(17, "fr"), machines="2 machines",
                date="hier").startswith("Sur cette page, 5 blocs de code sur 17 ont été vérifiés")
    assert text("fr", "summary_all", passed=33, total=33, machines="2 machines", date="hier").startswith(
        "Les 33 blocs de code de cette page ont été vérifiés")
    assert text("es", "summary", passed=1, total=7, machines="dos máquinas", date="ayer").startswith(
        "En esta página se ha verificado uno de los siete bloques de código")
    assert text("en", "summary", passed=1, total=7, machines="one machine", date="today").startswith(
        "On this page, one of the seven code blocks has been verified")
    assert text("en", "summary_all", passed=1, total=1, machines="one machine", date="today").startswith(
        "This page’s only code block has been verified")
    assert text("fr", "machines_some", count=2) == "au moins une des deux machines de test"


def test_numbers_in_words_and_in_digits():
    """``{n:w}`` writes zero to nine in words in each language (technical prose has numerals from 10;
    ``wn``/``wf``: the forms before a masculine or a feminine noun), digits above; a counted string still picks
    its plural form by the number."""
    from ruota_docs.site.locales import _shown
    assert "{n:w} {n:wn} {n:wf} {n:Wf}".format(n=_shown(1, "es")) == "uno un una Una"
    assert "{n:w} {n:wn} {n:wf}".format(n=_shown(21, "es")) == "21 21 21"
    assert "{n:w} {n:wf}".format(n=_shown(1, "fr")) == "un une"
    assert "{n:w} {m:w} {k:w}".format(n=_shown(9, "en"), m=_shown(10, "en"), k=_shown(2.5, "en")) == "nine 10 2.5"
    assert "{n:w} {m:w} {k:w}".format(n=_shown(9, "fr"), m=_shown(10, "es"), k=_shown(31, "es")) == "neuf 10 31"
    assert "{n:w} {n:wf} {m:w}".format(n=_shown(21, "fr"), m=_shown(28, "en")) == "21 21 28"
    assert text("es", "summary_rest_alike", count=13, what="x") == "Los otros 13 x."
    assert text("es", "summary_rest_alike", count=31, what="x") == "Los otros 31 x."
    assert text("es", "summary_rest_alike", count=1, what="x") == "El bloque restante x."


def test_strings_outside_the_typography_pass_carry_their_own_spaces():
    """The matrix's row count is filled in by the browser (a data-words template), out of reach of
    the French typography pass: its no-break space is in the string itself."""
    assert text("fr", "matrix_filter_count", shown=5, total=5) == "Lignes affichées\u00a0: 5 sur 5"
    assert theme_text("fr", "clipboard.copied") == "Copié dans le presse-papiers"
    assert theme_text("es", "clipboard.copied") == ""  # Material's own Spanish reads well
