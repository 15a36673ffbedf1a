"""Translations that cannot drift: parity rules, number normalisation, staleness, and the real docs."""

from __future__ import annotations

from pathlib import Path

import pytest

from _support import REPO, write_tree
from ruota_docs.cli import _site
from ruota_docs.translations import parity

ES = """\
---
title: Guía
---
# Guía de prueba { #guide }

La prueba tarda 28,6 s con 3.680 pasos en ROCm 7.14 y TensorFlow 2.21.0, el 16 de julio de 2026.
Lee [la otra guía](other.md#setup) y <https://rocm.docs.amd.com/en/latest/>, o ![un esquema](img/flow.svg).

## Instalar { #install }

!!! note "Nota"

    En la <span class="l10n">1.ª</span> ejecución, `pip install torch==2.9` tarda (ver [^1]).

=== "Linux"

    <!-- requires: rocm os=linux -->
    ```python title="010_probe.py"
    --8<-- "g/010_probe.py"
    ```

=== "Windows"

    <!-- run: skip reason="solo en Windows" -->
    ```powershell
    Get-Item .
    ```

### Comprobar { #check }

```text
salida de ejemplo con 99 líneas
```

<!-- un comentario con 1234 -->
[^1]: Nota al pie.
"""

EN = """\
---
title: Guide
translation_of: 000000000000
---
# Test guide { #guide }

The test takes 28.6 s with 3,680 steps on ROCm 7.14 and TensorFlow 2.21.0, on 16 July 2026.
Read [the other guide](other.md#setup) and <https://rocm.docs.amd.com/en/latest/>, or ![a diagram](img/flow.svg).

## Install { #install }

!!! note "Note"

    On the <span class="l10n">1st</span> run, `pip install torch==2.9` is slow (see [^1]).

=== "Linux"

    <!-- requires: rocm os=linux -->
    ```python title="010_probe.py"
    --8<-- "g/010_probe.py"
    ```

=== "Windows"

    <!-- run: skip reason="Windows only" -->
    ```powershell
    Get-Item .
    ```

### Check { #check }

```text
sample output, a different number: 12
```

[^1]: A footnote.
"""

FR = """\
# Guide de test { #guide }

Le test prend 28,6 s avec 3\u202f680 pas sur ROCm 7.14 et TensorFlow 2.21.0, le 16 juillet 2026.
Lisez [l'autre guide](other.md#setup) et <https://rocm.docs.amd.com/en/latest/>, ou ![un schéma](img/flow.svg).

## Installer { #install }

!!! note "Remarque"

    À la <span class="l10n">1re</span> exécution, `pip install torch==2.9` est lent (voir [^1]).

=== "Linux"

    <!-- requires: rocm os=linux -->
    ```python title="010_probe.py"
    --8<-- "g/010_probe.py"
    ```

=== "Windows"

    <!-- run: skip reason="Windows uniquement" -->
    ```powershell
    Get-Item .
    ```

### Vérifier { #check }

```text
exemple de sortie
```

[^1]: Une note.
"""

LANGS = ["es", "en", "fr"]


def write(docs: Path, pages: dict[str, str]) -> Path:
    """Pages under ``docs``, in a project with the site's Markdown extensions and the snippets they include."""
    if not (docs.parent / "mkdocs.yml").exists():
        write_tree(docs.parent, {"snippets/g/010_probe.py": "print('probe')\n", "snippets/g/011_probe.py": "print('other')\n"},
                   conftest=False)
    for rel, text in pages.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text, encoding="utf-8")
    return docs


def line_of(text: str, needle: str) -> int:
    """The 1-based line holding ``needle`` (found by plain search)."""
    (n,) = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return n


def check_variant(tmp_path, en: str | None = None, fr: str | None = None, **kwargs) -> list[tuple[str, int, str]]:
    pages = {"es/guide.md": ES}
    if en is not None:
        pages["en/guide.md"] = en
    if fr is not None:
        pages["fr/guide.md"] = fr
    docs = write(tmp_path / "docs", pages)
    return [(p.page, p.line, p.message) for p in parity.check(docs, LANGS, **kwargs)]


def test_faithful_translations_pass(tmp_path):
    assert check_variant(tmp_path, EN, FR) == []


# -- each rule --------------------------------------------------------------------------------------------
def test_missing_page(tmp_path):
    assert check_variant(tmp_path, EN, None) == [
        ("fr/guide.md", 1, "translation of es/guide.md is missing (add it, or list the page under 'untranslated' "
                           "in the ruota_docs plugin options)")]


def test_missing_page_listed_as_untranslated(tmp_path):
    assert check_variant(tmp_path, EN, None, untranslated=["guide.md"]) == []


def test_page_without_source(tmp_path):
    write(tmp_path / "docs", {"en/extra.md": "# Extra\n"})
    assert check_variant(tmp_path, EN, FR) == [("en/extra.md", 1, "page has no es source (es/extra.md is missing)")]


def test_different_block_sequence(tmp_path):
    en = EN.replace("```text\nsample output, a different number: 12\n```\n", "")
    assert check_variant(tmp_path, en, FR) == [
        ("en/guide.md", 1, f"code block 3 (es/guide.md:{line_of(ES, '```text')}) is missing here")]


def test_extra_block(tmp_path):
    fr = FR + "\n```python\nprint('de plus')\n```\n"
    fr_line = len(FR.splitlines()) + 2
    assert check_variant(tmp_path, EN, fr) == [("fr/guide.md", fr_line, "code block 4 is not in es/guide.md")]


def test_blocks_in_another_order(tmp_path):
    fr = FR.replace("```powershell\n    Get-Item .", "```powershell\n    Get-Item ..")
    assert check_variant(tmp_path, EN, fr) == [
        ("fr/guide.md", line_of(FR, "```powershell"),
         f"code block 2 differs from es/guide.md:{line_of(ES, '```powershell')} (language, code, requirements, run options or evidence)")]


def test_different_include(tmp_path):
    en = EN.replace('"g/010_probe.py"', '"g/011_probe.py"')
    assert check_variant(tmp_path, en, FR) == [
        ("en/guide.md", line_of(EN, "```python"),
         f"code block 1 differs from es/guide.md:{line_of(ES, '```python')} (language, code, requirements, run options or evidence)")]


@pytest.mark.parametrize("changed", ["<!-- requires: rocm -->", "<!-- requires: rocm os=linux vram>=8GiB -->",
                                     # other evidence declared: another kind of result published for the block
                                     "<!-- requires: rocm os=linux -->\n    <!-- evidence: checked -->"])
def test_different_requirement_or_evidence_directive(tmp_path, changed):
    en = EN.replace("<!-- requires: rocm os=linux -->", changed)
    assert check_variant(tmp_path, en, FR) == [
        ("en/guide.md", line_of(en, "```python"),
         f"code block 1 differs from es/guide.md:{line_of(ES, '```python')} (language, code, requirements, run options or evidence)")]


def test_different_run_option_but_not_reason(tmp_path):
    en = EN.replace('<!-- run: skip reason="Windows only" -->', '<!-- run: safe -->')
    assert check_variant(tmp_path, en, FR) == [
        ("en/guide.md", line_of(EN, "```powershell"),
         f"code block 2 differs from es/guide.md:{line_of(ES, '```powershell')} (language, code, requirements, run options or evidence)")]


def test_different_heading_id(tmp_path):
    en = EN.replace("## Install { #install }", "## Install { #installation }")
    assert check_variant(tmp_path, en, FR) == [
        ("en/guide.md", 1, f"heading id 'install' from es/guide.md:{line_of(ES, '#install')} is missing here"),
        ("en/guide.md", line_of(EN, "#install"), "heading id 'installation' is not in es/guide.md"),
    ]


def test_heading_without_id(tmp_path):
    fr = FR.replace("### Vérifier { #check }", "### Vérifier")
    problems = check_variant(tmp_path, EN, fr)
    assert problems[0] == ("fr/guide.md", line_of(FR, "Vérifier"), "heading has no pinned id ({ #id })")
    assert ("fr/guide.md", 1, f"heading id 'check' from es/guide.md:{line_of(ES, '#check')} is missing here") in problems


def test_headings_in_another_order(tmp_path):
    en = EN.replace("## Install { #install }", "## Install { #tmp }").replace("### Check { #check }", "### Check { #install }") \
           .replace("{ #tmp }", "{ #check }")
    assert check_variant(tmp_path, en, FR) == [("en/guide.md", 1, "heading ids are in another order than in es/guide.md")]


def test_different_link_target(tmp_path):
    fr = FR.replace("(other.md#setup)", "(other.md#install)")
    n = line_of(FR, "other.md")
    assert check_variant(tmp_path, EN, fr) == [
        ("fr/guide.md", 1, f"link target 'other.md#setup' from es/guide.md:{line_of(ES, 'other.md')} is missing here"),
        ("fr/guide.md", n, "link target 'other.md#install' is not in es/guide.md"),
    ]


def test_different_external_link(tmp_path):
    en = EN.replace("<https://rocm.docs.amd.com/en/latest/>", "<https://rocm.docs.amd.com/en/docs-7.14/>")
    problems = check_variant(tmp_path, en, FR)
    assert ("en/guide.md", line_of(EN, "rocm.docs"), "link target 'https://rocm.docs.amd.com/en/docs-7.14/' is not in es/guide.md") in problems
    assert len(problems) == 2


def test_different_number(tmp_path):
    en = EN.replace("28.6 s", "28.7 s")
    assert check_variant(tmp_path, en, FR) == [
        ("en/guide.md", 1, f"number '28.6' from es/guide.md:{line_of(ES, '28,6')} is missing here"),
        ("en/guide.md", line_of(en, "28.7"), "number '28.7' is not in es/guide.md"),
    ]


def test_different_thousands(tmp_path):
    fr = FR.replace("3\u202f680", "3\u202f690")
    problems = check_variant(tmp_path, EN, fr)
    assert problems == [("fr/guide.md", 1, f"number '3680' from es/guide.md:{line_of(ES, '3.680')} is missing here"),
                        ("fr/guide.md", line_of(fr, "690"), "number '3690' is not in es/guide.md")]


def test_changed_version_is_a_different_number(tmp_path):
    en = EN.replace("ROCm 7.14", "ROCm 7.1")
    assert ("en/guide.md", line_of(EN, "ROCm 7.14"), "number '7.1' is not in es/guide.md") in check_variant(tmp_path, en, FR)


def test_a_fact_checked_on_another_day_or_against_another_source_differs(tmp_path):
    fact = "<!-- fact: checked=2026-12-06 source=https://example.org/a -->"
    es, en, fr = (page.replace("ROCm 7.14", f"ROCm 7.14 {fact}", 1) for page in (ES, EN, FR))
    same = {"es/guide.md": es, "en/guide.md": en, "fr/guide.md": fr}
    assert parity.check(write(tmp_path / "same" / "docs", same), LANGS) == []
    en_old = en.replace("checked=2026-12-06", "checked=2026-11-01")
    pages = {"es/guide.md": es, "en/guide.md": en_old, "fr/guide.md": fr.replace("example.org/a", "example.org/b")}
    problems = [(p.page, p.message) for p in parity.check(write(tmp_path / "other" / "docs", pages), LANGS)]
    assert ("en/guide.md", "number 'fact:2026-11-01:https://example.org/a' is not in es/guide.md") in problems
    assert ("fr/guide.md", "number 'fact:2026-12-06:https://example.org/b' is not in es/guide.md") in problems


def test_admonition_structure(tmp_path):
    en = EN.replace('!!! note "Note"', '??? note "Note"')
    assert check_variant(tmp_path, en, FR) == [
        ("en/guide.md", line_of(en, "??? note"),
         f"admonition/tab 1: expected !!! note at depth 0 (es/guide.md:{line_of(ES, '!!! note')}), found ??? note at depth 0")]


def test_admonition_type(tmp_path):
    fr = FR.replace('!!! note "Remarque"', '!!! warning "Remarque"')
    assert check_variant(tmp_path, EN, fr) == [
        ("fr/guide.md", line_of(fr, "!!! warning"),
         f"admonition/tab 1: expected !!! note at depth 0 (es/guide.md:{line_of(ES, '!!! note')}), found !!! warning at depth 0")]


def test_tab_missing(tmp_path):
    fr = FR.replace('=== "Windows"\n\n', "")
    n = line_of(ES, '=== "Windows"')
    assert check_variant(tmp_path, EN, fr) == [
        ("fr/guide.md", 1, f"admonition/tab 3: expected === tab at depth 0 (es/guide.md:{n}), found nothing")]


def test_tab_nested_deeper(tmp_path):
    fr = FR.replace('=== "Linux"', '    === "Linux"')
    n = line_of(ES, '=== "Linux"')
    assert check_variant(tmp_path, EN, fr) == [
        ("fr/guide.md", line_of(FR, '=== "Linux"'), f"admonition/tab 2: expected === tab at depth 0 (es/guide.md:{n}), found === tab at depth 1")]


def test_page_problem_in_a_translation(tmp_path):
    fr = FR + "\n<!-- requires: rocm -->\nTexte.\n"
    line = len(FR.splitlines()) + 2
    assert check_variant(tmp_path, EN, fr) == [
        ("fr/guide.md", line, f"requires: directive at line {line} is not directly followed by a code block")]


def test_not_utf8(tmp_path):
    docs = write(tmp_path / "docs", {"es/guide.md": ES, "en/guide.md": EN})
    (docs / "fr/guide.md").parent.mkdir(parents=True, exist_ok=True)
    (docs / "fr/guide.md").write_bytes(FR.encode("latin-1", "replace"))
    assert [(p.page, p.line) for p in parity.check(docs, LANGS)] == [("fr/guide.md", 1)]
    assert "not UTF-8" in str(parity.check(docs, LANGS)[0])


# -- numbers ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("es", "28,6 s", ["28.6"]),
    ("fr", "28,6 s", ["28.6"]),
    ("en", "28.6 s", ["28.6"]),
    ("es", "3.680 pasos", ["3680"]),
    ("es", "15\u202f000 pasos", ["15000"]),
    ("en", "3,680 steps", ["3680"]),
    ("fr", "3\u202f680 pas", ["3680"]),
    ("fr", "3\u00a0680,5 pas", ["3680.5"]),
    ("es", "1.000.000,25", ["1000000.25"]),
    ("en", "1,000,000.25", ["1000000.25"]),
    ("es", "ROCm 7.14 y TF 2.21.0", ["7.14", "2.21.0"]),
    ("en", "ROCm 7.14 and TF 2.21.0", ["7.14", "2.21.0"]),
    ("fr", "ROCm 7.14 et TF 2.21.0", ["7.14", "2.21.0"]),
    ("es", 'una <span class="l10n">1.ª</span> vez', []),
    ("es", "`torch==2.9` y [x](a/3.md) y <!-- 12 --> y https://x.org/v4 y {: width=300 }", []),
    ("es", "gfx1102, sm_90, RX 7600, H200", ["7600"]),
    ("es", "16 de julio de 2026", ["16", "2026"]),
    # a no-break space before a number joins it to a group only after a digit
    ("fr", "p.\u00a0663–665", ["663", "665"]),
    ("es", "7\u00a0×\u00a07 y 11\u00a0bits", ["7", "7", "11"]),
])
def test_numbers(lang, text, expected):
    assert [n for n, _ in parity.numbers(text + "\n", lang)] == expected


def test_numbers_skip_code_and_front_matter(tmp_path):
    text = "---\nversion: 99\n---\n# T { #t }\n\n```python\nx = 42\n```\n\nSolo 7 aquí.\n"
    docs = write(tmp_path / "docs", {"es/p.md": text})
    page = parity.read_page(tmp_path, docs, "es/p.md")
    assert page.code_lines == {6, 7, 8}
    assert parity.numbers(page.text, "es", page.code_lines) == [("7", 10)]


def test_lines_count_front_matter():
    text = "---\ntitle: a\ntranslation_of: b\n---\n# Title { #t }\n\n## Sub\n\n[l](x.md)\n"
    assert parity.headings(text) == [(5, 1, "t"), (7, 2, None)]
    assert parity.links(text) == [("x.md", 9)]
    assert parity.split_front_matter(text)[0] == {"title": "a", "translation_of": "b"}
    quoted = "---\ntitle: 'Qué: por qué'\ntranslation_of: \"0123\"\n---\n\n# T { #t }\n"
    assert parity.split_front_matter(quoted) == ({"title": "Qué: por qué", "translation_of": "0123"}, "\n# T { #t }\n", 4)


# -- the real docs ---------------------------------------------------------------------------------------------
@pytest.mark.realdocs
def test_real_docs_translations_match():
    """The repository's pages agree across languages (``ruota-docs i18n check``)."""
    docs, languages, source, untranslated, _ = _site(REPO)
    assert set(languages) >= {"es", "en", "fr"}
    problems = parity.check(docs, languages, source, untranslated)
    assert not problems, "\n".join(str(p) for p in problems)
