"""The per-language glossaries: reading the files, finding ruled-out variants in prose only,
and the report of ``ruota-docs i18n check``."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from _support import REPO, mkdocs_yml
from ruota_docs.translations import glossary, parity
from ruota_docs.cli import _site, main

ES = """\
language: es
terms:
  - concept: GPU kernel
    use: núcleo
    avoid: {kernel: núcleo, kernels: núcleos}
    allow: [Composable Kernel]
  - concept: absolute value
    use: en valor absoluto
    avoid: [en absoluto]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def es(tmp_path) -> glossary.Glossary:
    return glossary.load(write(tmp_path, "es.yml", ES), "glossary/es.yml")


def found(gloss: glossary.Glossary, text: str) -> list[tuple[int, int, str, str]]:
    lines = list(enumerate(text.splitlines(), 1))
    return [(f.line, f.column, f.found, f.instead) for f in gloss.findings(lines)]


# -- reading a file --------------------------------------------------------------------------------------
def test_load_both_forms_of_avoid(es):
    kernel, absolute = es.entries
    assert (es.language, es.source) == ("es", "glossary/es.yml")
    assert kernel.avoid == {"kernel": "núcleo", "kernels": "núcleos"}
    assert kernel.allow == ("Composable Kernel",)
    assert absolute.avoid == {"en absoluto": "en valor absoluto"}  # a list: write the `use` term instead


@pytest.mark.parametrize(("text", "error"), [
    ("terms: []\n", "glossary/x.yml: expected a mapping with 'language' (a language code) and 'terms' (a list)"),
    ("language: es\nterms: []\ncolour: red\n", "glossary/x.yml: unknown key(s) colour; known: language, terms"),
    ("language: es\nterms:\n  - kernel\n", "glossary/x.yml: term 1: expected a mapping with concept, use and avoid"),
    ("language: es\nterms:\n  - {concept: k, use: núcleo}\n",
     "glossary/x.yml: term 1: missing avoid; keys: concept, use, avoid, allow (optional)"),
    ("language: es\nterms:\n  - {concept: k, use: núcleo, avoid: [kernel], also: x}\n",
     "glossary/x.yml: term 1: unknown key(s) also; keys: concept, use, avoid, allow (optional)"),
    ("language: es\nterms:\n  - {concept: k, use: núcleo, avoid: kernel}\n",
     "glossary/x.yml: term 1 (k): 'avoid' must be a list of words or phrases, or a mapping of each to what to write instead"),
    ("language: es\nterms:\n  - {concept: k, use: núcleo, avoid: []}\n",
     "glossary/x.yml: term 1 (k): 'avoid' must be a list of words or phrases, or a mapping of each to what to write instead"),
    ("language: es\nterms:\n  - {concept: k, use: núcleo, avoid: [kernel], allow: Kernel}\n",
     "glossary/x.yml: term 1 (k): 'allow' must be a list of phrases"),
    ("language: es\nterms:\n  - {concept: k, use: '', avoid: [kernel]}\n",
     "glossary/x.yml: term 1: 'concept' and 'use' must be non-empty text"),
    ("language: es\nterms:\n  - {concept: k, use: núcleo, avoid: {Núcleo: núcleo}}\n",
     "glossary/x.yml: term 1 (k): 'Núcleo' is both ruled out and what to write instead"),
    ("language: es\nterms:\n  - {concept: a, use: núcleo, avoid: [kernel]}\n  - {concept: b, use: x, avoid: [Kernel]}\n",
     "glossary/x.yml: term 2 (b): 'Kernel' is already ruled out by term 1"),
    ("language: es\nterms:\n  - {concept: a, use: núcleo, avoid: [kernel]}\n  - {concept: b, use: kernel, avoid: [cosa]}\n",
     "glossary/x.yml: term 1 rules out 'kernel', which term 2 prescribes"),
    ("language: es\nterms:\n  - {concept: a\n", "glossary/x.yml:4: not valid YAML"),
])
def test_bad_files_are_explained(tmp_path, text, error):
    with pytest.raises(glossary.GlossaryError) as caught:
        glossary.load(write(tmp_path, "x.yml", text), "glossary/x.yml")
    assert str(caught.value).startswith(error)


def test_for_site_reads_each_language_that_has_a_file(tmp_path):
    write(tmp_path, "glossary/es.yml", ES)
    assert set(glossary.for_site(tmp_path, ["es", "en", "fr"])) == {"es"}
    assert glossary.for_site(tmp_path / "nowhere", ["es"]) == {}
    write(tmp_path, "glossary/fr.yml", ES)  # says es
    with pytest.raises(glossary.GlossaryError, match="glossary/fr.yml: says language 'es', but the file is for 'fr'"):
        glossary.for_site(tmp_path, ["es", "fr"])


# -- finding variants --------------------------------------------------------------------------------------
def test_whole_words_any_case_with_the_right_replacement(es):
    text = "Los kernels de MIOpen.\nUn Kernel por forma; kernelización no cuenta, ni torch-kernel.\n"
    assert found(es, text) == [(1, 5, "kernels", "núcleos"), (2, 4, "Kernel", "núcleo")]


def test_phrases_match_across_spaces(es):
    assert found(es, "Se comparan en  absoluto, y En Absoluto.\n") == [
        (1, 13, "en  absoluto", "en valor absoluto"), (1, 29, "En Absoluto", "en valor absoluto")]


@pytest.mark.parametrize("text", [
    "Lanza `un kernel` en la GPU.",
    "Lanza ``un `kernel` doble`` aquí.",
    "Mira [la guía](kernel.md#kernel) y <https://x.org/kernel>, o https://x.org/kernels.",
    "## Núcleos { #kernel-cache .kernel }",
    "[kernel]: https://x.org/k",
    "Un comentario <!-- kernel --> en medio.",
    '<!-- run: skip reason="sin núcleo" --> y <img alt="" src="kernel.png">',
    'El título <span class="verbatim">«Kernel Tuning»</span> se cita tal cual.',
    "Los núcleos de Composable Kernel, o de composable  kernel.",
    '--8<-- "kernels/table.md"',
])
def test_what_is_not_prose_is_not_checked(es, text):
    assert found(es, text + "\n") == []


def test_link_text_footnotes_and_reasons_are_prose(es):
    text = ('Mira [los kernels](guia.md).\n'
            '[^1]: Un kernel en la nota.\n'
            '<!-- run: skip reason="compila un kernel" -->\n')
    assert [(line, word) for line, _, word, _ in found(es, text)] == [(1, "kernels"), (2, "kernel"), (3, "kernel")]


def test_typographic_apostrophes_match_straight_ones(tmp_path):
    fr = glossary.load(write(tmp_path, "fr.yml", """\
        language: fr
        terms:
          - {concept: source, use: document source, avoid: ["document d'origine"]}
        """))
    assert [f.found for f in fr.findings([(1, "Le document d’origine et le document d'origine.")])] == [
        "document d'origine", "document d'origine"]


# -- the report of `ruota-docs i18n check` -------------------------------------------------------------------
def site(tmp_path) -> Path:
    (tmp_path / "mkdocs.yml").write_text(mkdocs_yml(languages=("es", "en")), encoding="utf-8")  # the site's extensions
    write(tmp_path, "glossary/es.yml", ES)
    write(tmp_path, "docs/es/p.md", "# P { #p }\n\n```python\nkernel = 1\n```\n\nUn kernel.\n")
    write(tmp_path, "docs/en/p.md", "---\ntranslation_of: 0\n---\n# P { #p }\n\n```python\nkernel = 1\n```\n\nA kernel.\n")
    return tmp_path


def test_i18n_check_reports_page_line_and_term(tmp_path):
    root = site(tmp_path)
    docs, languages, source, untranslated, _ = _site(root)
    problems = parity.check(docs, languages, source, untranslated, glossaries=glossary.for_site(root, languages))
    assert [str(p) for p in problems] == [
        "es/p.md:7: 'kernel' is ruled out by glossary/es.yml; write 'núcleo'. Concept: GPU kernel."]
    assert parity.check(docs, languages, source, untranslated) == []  # no glossary given: parity only


def test_cli_prints_the_finding_and_fails(tmp_path, capsys):
    root = site(tmp_path)
    assert main(["--root", str(root), "i18n", "check"]) == 1
    out = capsys.readouterr().out
    assert "docs/es/p.md:7: 'kernel' is ruled out by glossary/es.yml; write 'núcleo'. Concept: GPU kernel.\n" in out
    (root / "docs/es/p.md").write_text("# P { #p }\n\n```python\nkernel = 1\n```\n\nUn núcleo.\n", encoding="utf-8")
    assert main(["--root", str(root), "i18n", "check"]) == 0


def test_cli_explains_a_broken_glossary(tmp_path, capsys):
    root = site(tmp_path)
    write(root, "glossary/es.yml", "language: es\nterms: [1]\n")
    assert main(["--root", str(root), "i18n", "check"]) == 2
    assert capsys.readouterr().err == ("ruota-docs: glossary/es.yml: term 1: expected a mapping with concept, "
                                       "use and avoid\n")


# -- the repository's own glossaries -----------------------------------------------------------------------
@pytest.mark.realdocs
def test_repository_glossaries_load_and_the_pages_follow_them():
    docs, languages, source, untranslated, _ = _site(REPO)
    glossaries = glossary.for_site(REPO, languages)
    assert set(glossaries) == {"es", "en", "fr"}
    problems = [p for p in parity.check(docs, languages, source, untranslated, glossaries=glossaries) if "ruled out by" in p.message]
    assert not problems, "\n".join(str(p) for p in problems)
