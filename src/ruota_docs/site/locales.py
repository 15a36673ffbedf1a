"""Strings the plugin writes into pages, in each language of the site.

The strings live in data files, one per language, shipped with the package:
``locales/<lang>.yml`` beside this module (see ``en.yml`` for the layout). A translator
edits only those files; this module reads them, checks them and fills them in.

A string is a ``str.format`` template, or, where it counts something, a table of
CLDR plural forms (``one``, ``other``, and ``many`` where a language has it) chosen
by Babel's plural rule for the number named by ``by`` (default ``count``): French
treats 0 and 1 as singular, Spanish and English only 1. Numbers passed to
:func:`text` are written in the reader's locale; strings are inserted as given.
In running text a template may ask for a small whole number in words: ``{count:w}``
(``dos``, ``deux``, ``two``; ``uno``/``un``/``one`` standing alone), ``{count:wn}`` before a
masculine noun (``un bloque``), ``{count:wf}`` before a feminine one (``una máquina``,
``une machine``); ``W`` capitalises (a sentence's first word). Larger numbers stay digits (from 10, as
technical text writes counts in the three languages).

A language without a file, a key that its file lacks and a malformed file are errors
that name the file (and the line), never a silent fall back to English: a page in
French with one English sentence in it is a bug a reader would see first.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from pathlib import Path

import yaml

from ruota_docs.site import formatting

#: Where the data files are: ``<lang>.yml``.
LOCALES_DIR = Path(__file__).with_name("locales")
#: The plural forms CLDR defines, and the key that names which number a string counts.
_FORMS = frozenset({"zero", "one", "two", "few", "many", "other"})
_BY = "by"

Entry = str | dict[str, str]


class LocaleError(KeyError):
    """A language, a string or a data file the site cannot use as it stands.

    A ``KeyError``, so that a language without a file reads as missing from ``STRINGS``."""

    def __str__(self) -> str:  # KeyError would quote the message as a key
        return str(self.args[0]) if self.args else ""


def _problem(path: Path, node: yaml.Node | None, message: str) -> LocaleError:
    line = f":{node.start_mark.line + 1}" if node is not None else ""
    return LocaleError(f"{path}{line}: {message}")


def _string(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:str"


def _pairs(path: Path, node: yaml.Node, what: str) -> Iterator[tuple[yaml.Node, yaml.Node]]:
    """A mapping's items, keys checked: strings, each once (YAML itself keeps the last of a repeated key)."""
    if not isinstance(node, yaml.MappingNode):
        raise _problem(path, node, f"{what}: expected a mapping")
    seen = set()
    for key, value in node.value:
        if not _string(key):
            raise _problem(path, key, f"{what}: expected a string as key")
        if key.value in seen:
            raise _problem(path, key, f"{what}: {key.value!r} is given twice")
        seen.add(key.value)
        yield key, value


def _entry(path: Path, key: str, node: yaml.Node) -> Entry:
    """One string: a scalar, or a mapping of plural forms (with ``by`` naming the number counted)."""
    if _string(node):
        return node.value
    if not isinstance(node, yaml.MappingNode):
        raise _problem(path, node, f"{key}: expected a string or a mapping of plural forms")
    forms: dict[str, str] = {}
    for form, template in _pairs(path, node, key):
        if form.value not in _FORMS | {_BY}:
            raise _problem(path, form, f"{key}: {form.value!r} is no plural form "
                                       f"(expected {_BY} or one of {', '.join(sorted(_FORMS))})")
        if not _string(template):
            raise _problem(path, template, f"{key}.{form.value}: expected a string")
        forms[form.value] = template.value
    if "other" not in forms:
        raise _problem(path, node, f"{key}: a counted string needs at least its 'other' form")
    return forms


@functools.cache
def _table(lang: str) -> tuple[dict[str, Entry], dict[str, str]]:
    """The strings and the language names of ``lang``, read once from its data file."""
    path = LOCALES_DIR / f"{lang}.yml"
    if not path.is_file():
        raise LocaleError(f"no interface strings for language {lang!r}: {path} does not exist "
                          f"(languages with strings: {', '.join(languages()) or 'none'})")
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise LocaleError(f"{path}{line}: not valid YAML: {getattr(error, 'problem', error)}") from None
    if root is None:
        raise LocaleError(f"{path}: empty; expected the sections 'language_names' and 'strings'")
    sections = {key.value: value for key, value in _pairs(path, root, "the file")}
    if set(sections) != {"language_names", "strings"}:
        raise _problem(path, root, f"expected the sections 'language_names' and 'strings', found "
                                   f"{', '.join(sorted(sections)) or 'none'}")
    strings = {key.value: _entry(path, key.value, value) for key, value in _pairs(path, sections["strings"], "strings")}
    names = {}
    for code, name in _pairs(path, sections["language_names"], "language_names"):
        if not _string(name):
            raise _problem(path, name, f"language_names.{code.value}: expected a string")
        names[code.value] = name.value
    return strings, names


def languages() -> list[str]:
    """The languages that have a data file."""
    return sorted(p.stem for p in LOCALES_DIR.glob("*.yml"))


class _Tables(Mapping):
    """``STRINGS[lang][key]``: each language's table, read from its file when first asked for."""

    def __init__(self, part: int):
        self._part = part

    def __getitem__(self, lang: str):
        return _table(lang)[self._part]

    def __iter__(self):
        return iter(languages())

    def __contains__(self, lang) -> bool:  # whether a file exists; a malformed one still raises when read
        return isinstance(lang, str) and (LOCALES_DIR / f"{lang}.yml").is_file()

    def __len__(self):
        return len(languages())


#: Every language's strings, ``STRINGS[lang][key]``.
STRINGS: Mapping[str, dict[str, Entry]] = _Tables(0)
#: How each language names the site's languages, ``LANGUAGE_NAMES[lang][code]``.
LANGUAGE_NAMES: Mapping[str, dict[str, str]] = _Tables(1)


#: Small numbers as running text writes them (tables and panels keep digits): zero to nine, in each language;
#: technical text writes counts from 10 in digits (Fundéu, for Spanish; English and French technical style
#: alike), so a page summary reads « 13 de los 29 » as the status pages' tables do.
_WORDS = {
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "en": "zero one two three four five six seven eight nine".split(),
}
#: The forms that differ before a masculine noun (``n``) and before a feminine one (``f``).
_GENDERED = {("es", 1): {"n": "un", "f": "una"}, ("fr", 1): {"f": "une"}}


def in_words(value: int, lang: str) -> bool:
    """Whether running text in ``lang`` writes the count ``value`` in words (``{x:w}``)."""
    return 0 <= value < len(_WORDS.get(lang, ()))


class _Number(str):
    """A number written in the locale (``1.500``, ``2,5``) that ``{x:w}`` can also write in words."""

    value: float
    lang: str

    def __new__(cls, value: float, lang: str) -> _Number:
        made = super().__new__(cls, formatting.number(value, lang, 0 if isinstance(value, int) else 2))
        made.value, made.lang = value, lang
        return made

    def __format__(self, spec: str) -> str:
        if not spec or spec[0] not in "wW":
            return super().__format__(spec)
        words = _WORDS.get(self.lang)
        if words is None or self.value != int(self.value) or not in_words(int(self.value), self.lang):
            return str(self)  # a large number (or a language without words) keeps its digits
        word = _GENDERED.get((self.lang, int(self.value)), {}).get(spec[1:], words[int(self.value)])
        return word[:1].upper() + word[1:] if spec[0] == "W" else word


class _Digits(_Number):
    """A number that ``{x:w}`` writes in digits all the same (`digits`); ``{x:W}`` starts a sentence,
    which a numeral never does, and keeps its word."""

    def __format__(self, spec: str) -> str:
        return str(self) if spec and spec[0] == "w" else super().__format__(spec)


def digits(value: int, lang: str) -> _Number:
    """``value`` for a template that writes it in words (``{x:w}``), kept in digits: the counts of one
    phrase or one list are written alike, "5 of 18" rather than "five of 18"."""
    return _Digits(value, lang)


def _shown(value, lang: str) -> str:
    if isinstance(value, _Number) or isinstance(value, bool) or not isinstance(value, (int, float)):
        return value if isinstance(value, _Number) else str(value)
    return _Number(value, lang)


def text(lang: str, key: str, **values) -> str:
    """The string ``key`` in ``lang``, filled in with ``values``.

    Counted strings pick their plural form from the number named by their ``by``
    entry (``count`` by default), which must then be given. A language without a data
    file, or a key its file lacks, raises :class:`LocaleError`.
    """
    table = STRINGS[lang]
    if key not in table:
        raise LocaleError(f"{LOCALES_DIR / f'{lang}.yml'}: no string {key!r}")
    entry = table[key]
    if isinstance(entry, dict):
        by = entry.get(_BY, "count")
        if by not in values:
            raise KeyError(f"string {key!r} counts {by!r}: pass {by}=<number>")
        count = values[by].value if isinstance(values[by], _Number) else values[by]
        entry = entry.get(formatting.plural_form(count, lang)) or entry["other"]
    return entry.format(**{k: _shown(v, lang) for k, v in values.items()}) if values else entry


def theme_text(lang: str, key: str) -> str:
    """The site's wording of the theme's string ``key`` (``theme.<key>`` in the data file),
    or ``""`` where the site keeps the theme's own, or has no strings for ``lang``."""
    if lang not in STRINGS:
        return ""
    entry = STRINGS[lang].get(f"theme.{key}", "")
    return entry if isinstance(entry, str) else ""


def templates(lang: str) -> Iterator[str]:
    """Every template of ``lang``, plural forms included (for checks over all strings)."""
    for entry in STRINGS[lang].values():
        if isinstance(entry, dict):
            yield from (v for k, v in entry.items() if k != _BY)
        else:
            yield entry
