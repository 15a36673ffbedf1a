"""One term per concept: the per-language glossaries and the check of the prose against them.

Each language of the site may have ``glossary/<lang>.yml`` beside ``mkdocs.yml``: for each
concept, the term the pages use and the variants they must not use (an anglicism, a calque,
a second word for the same thing). ``ruota-docs i18n check`` reports every ruled-out variant
it finds in the prose of that language's pages::

    language: es
    terms:
      - concept: GPU kernel (compiled GPU code), the term practitioners use
        use: kernel
        avoid: {núcleo: kernel, núcleos: kernels}   # or a list: [núcleo, núcleos]
        allow: [núcleo de Linux]                    # phrases where a variant is right

Matching is by whole word or phrase, ignoring case. Only prose is read: not code blocks or
inline code, URLs, link targets, HTML tags and comments (except a directive's ``reason="…"``,
which readers see), heading ids and attribute lists. Text inside
``<span class="verbatim">…</span>`` (a quoted title, a product name) is not checked either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

#: Where the glossaries live, relative to the folder of mkdocs.yml.
FOLDER = "glossary"

_KEYS = {"concept", "use", "avoid", "allow"}
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'"})
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_REASON = re.compile(r'\breason="([^"]*)"')
_NOT_PROSE = [
    re.compile(r'<span class="verbatim">.*?</span>', re.S),  # the escape: quoted or a proper name
    re.compile(r"(`+).+?\1"),  # inline code, single or double backticks
    re.compile(r"\]\([^)]*\)"),  # link targets: [text](target)
    re.compile(r"^\s*\[(?!\^)[^\]]+\]:\s*\S+.*$"),  # reference-style link definitions (not footnotes)
    re.compile(r"<https?://[^>\s]+>|https?://[^\s)>\]]+"),  # autolinks and bare URLs
    re.compile(r"\{[^}\n]*\}"),  # heading ids and attribute lists: { #id .class }
    re.compile(r"\[\^[^\]]+\]"),  # footnote references
    re.compile(r'--8<--\s*"[^"]*"'),  # a snippet included into the prose
    re.compile(r"</?[a-zA-Z][^>\n]*>"),  # HTML tags (their text stays)
]


class GlossaryError(ValueError):
    """A glossary file that cannot be used, with the file and what is wrong in it."""


@dataclass(frozen=True)
class Entry:
    """One concept of a glossary: the word to use for it, and the variants to avoid.

    (A requirement *term* is `ruota_docs.blocks.terms.Term`: the word means that alone.)"""

    concept: str
    use: str
    avoid: dict[str, str]  #: ruled-out variant → what to write instead
    allow: tuple[str, ...] = ()  #: phrases in which a variant is the right word


@dataclass(frozen=True)
class Finding:
    line: int
    column: int
    found: str  #: the variant as written on the page
    instead: str
    concept: str


@dataclass(frozen=True)
class Glossary:
    language: str
    source: str  #: the file, as reports name it (``glossary/es.yml``)
    entries: tuple[Entry, ...]

    def findings(self, lines: Iterable[tuple[int, str]]) -> list[Finding]:
        """Every ruled-out variant in ``(line number, text)`` pairs of prose."""
        found = []
        for number, line in lines:
            text = prose(line)
            for entry in self.entries:
                masked = text
                for phrase in entry.allow:
                    masked = _phrase(phrase).sub(lambda m: " " * len(m.group(0)), masked)
                for variant, instead in entry.avoid.items():
                    for match in _phrase(variant).finditer(masked):
                        found.append(Finding(number, match.start() + 1, match.group(0), instead, entry.concept))
        return sorted(found, key=lambda f: (f.line, f.column))

    def message(self, finding: Finding) -> str:
        # the concept last, in a sentence of its own: it often holds parentheses of its own
        return (f"'{finding.found}' is ruled out by {self.source}; write '{finding.instead}'. "
                f"Concept: {finding.concept}.")


def prose(line: str) -> str:
    """``line`` with everything that is not prose blanked out, columns kept."""
    line = line.translate(_APOSTROPHES)

    def keep_reason(comment: re.Match) -> str:
        kept = [" "] * len(comment.group(0))
        for reason in _REASON.finditer(comment.group(0)):
            kept[reason.start(1):reason.end(1)] = reason.group(1)
        return "".join(kept)

    line = _COMMENT.sub(keep_reason, line)
    for pattern in _NOT_PROSE:
        line = pattern.sub(lambda m: " " * len(m.group(0)), line)
    return line


def _phrase(words: str) -> re.Pattern:
    """A whole word or phrase, any case, any run of spaces between its words."""
    parts = [re.escape(w) for w in words.translate(_APOSTROPHES).split()]
    return re.compile(r"(?<![\w-])" + r"\s+".join(parts) + r"(?![\w-])", re.IGNORECASE)


# -- reading the files ---------------------------------------------------------------------------
def load(path: Path, source: str | None = None) -> Glossary:
    """Read and validate one glossary file; errors name the file and the term."""
    source = source or str(path)
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        raise GlossaryError(f"{source}:{mark.line + 1}: not valid YAML: {error.problem}") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise GlossaryError(f"{source}: cannot be read: {error}") from None
    if not (isinstance(data, dict) and isinstance(data.get("terms"), list)
            and isinstance(data.get("language"), str)):
        raise GlossaryError(f"{source}: expected a mapping with 'language' (a language code) and 'terms' (a list)")
    unknown = set(data) - {"language", "terms"}
    if unknown:
        raise GlossaryError(f"{source}: unknown key(s) {', '.join(sorted(unknown))}; known: language, terms")
    terms, seen = [], {}
    for number, entry in enumerate(data["terms"], 1):
        term = _entry(entry, f"{source}: term {number}")
        for variant in term.avoid:
            key = variant.translate(_APOSTROPHES).casefold()
            if key in seen:
                raise GlossaryError(f"{source}: term {number} ({term.concept}): '{variant}' is already ruled out by "
                                    f"term {seen[key]}")
            seen[key] = number
        terms.append(term)
    uses = {t.use.casefold(): n for n, t in enumerate(terms, 1)}
    for variant, number in seen.items():
        if variant in uses:
            raise GlossaryError(f"{source}: term {number} rules out '{variant}', which term {uses[variant]} prescribes")
    return Glossary(data["language"], source, tuple(terms))


def _entry(entry, where: str) -> Entry:
    if not isinstance(entry, dict):
        raise GlossaryError(f"{where}: expected a mapping with concept, use and avoid")
    unknown = set(entry) - _KEYS
    missing = {"concept", "use", "avoid"} - set(entry)
    if unknown or missing:
        problem = f"unknown key(s) {', '.join(sorted(unknown))}" if unknown else f"missing {', '.join(sorted(missing))}"
        raise GlossaryError(f"{where}: {problem}; keys: concept, use, avoid, allow (optional)")
    concept, use, avoid, allow = entry["concept"], entry["use"], entry["avoid"], entry.get("allow", [])
    if not isinstance(concept, str) or not isinstance(use, str) or not concept.strip() or not use.strip():
        raise GlossaryError(f"{where}: 'concept' and 'use' must be non-empty text")
    where = f"{where} ({concept})"
    if isinstance(avoid, list):
        avoid = {variant: use for variant in avoid}
    if not isinstance(avoid, dict) or not avoid or not all(
            isinstance(k, str) and k.strip() and isinstance(v, str) and v.strip() for k, v in avoid.items()):
        raise GlossaryError(f"{where}: 'avoid' must be a list of words or phrases, or a mapping of each to "
                            f"what to write instead")
    if not isinstance(allow, list) or not all(isinstance(a, str) and a.strip() for a in allow):
        raise GlossaryError(f"{where}: 'allow' must be a list of phrases")
    for variant, instead in avoid.items():
        if variant.casefold() == instead.casefold():
            raise GlossaryError(f"{where}: '{variant}' is both ruled out and what to write instead")
    return Entry(concept.strip(), use.strip(), {k.strip(): v.strip() for k, v in avoid.items()},
                tuple(a.strip() for a in allow))


def for_site(root: Path, languages: Iterable[str]) -> dict[str, Glossary]:
    """The glossaries of the site whose mkdocs.yml is in ``root``: ``{language: Glossary}``.

    A language without a file has no glossary; a file whose ``language`` is not its name is an error.
    """
    found = {}
    for lang in languages:
        path = Path(root) / FOLDER / f"{lang}.yml"
        if path.exists():
            glossary = load(path, f"{FOLDER}/{lang}.yml")
            if glossary.language != lang:
                raise GlossaryError(f"{glossary.source}: says language '{glossary.language}', "
                                    f"but the file is for '{lang}'")
            found[lang] = glossary
    return found
