"""run.sybil: the Sybil that collects a page's blocks, in order, with the page's signature and its problems."""

from __future__ import annotations

import pytest

from _support import write_tree
from ruota_docs.run.sybil import make_sybil

# -- pages and signatures -----------------------------------------------------------------------------------
PAGE = """\
    # Página { #page }

    <!-- requires: cpu -->
    ```python
    x = 1
    ```

    Texto que se traduce.

    ```text
    salida traducida
    ```

    <!-- run: skip reason="{reason}" -->
    ```bash
    sudo apt install rocm
    ```

    ```pycon
    >>> x
    1
    ```
    """


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    tree = write_tree(tmp_path_factory.mktemp("pages"), {
        "docs/es/p.md": PAGE.replace("{reason}", "instala paquetes"),
        "docs/en/p.md": PAGE.replace("{reason}", "installs packages").replace("Texto que se traduce.", "Translated text.")
                                                           .replace("salida traducida", "translated output"),
        "docs/fr/p.md": PAGE.replace("{reason}", "installe des paquets").replace("requires: cpu", "requires: gpu"),
        "docs/es/q.md": PAGE.replace("{reason}", "instala paquetes").replace("x = 1", "x = 2"),
    }, conftest=False)
    sybil = make_sybil(tree)
    return {lang: [e.parsed for e in sybil.parse(tree / "docs" / lang / "p.md")] for lang in ("es", "en", "fr")} | {
        "q": [e.parsed for e in sybil.parse(tree / "docs/es/q.md")]}


def test_page_blocks_in_order(pages):
    es = pages["es"]
    assert [(b.index, b.line, b.kind, b.page, b.lang, b.page_total) for b in es] == [
        (0, 4, "python", "es/p.md", "es", 4), (1, 10, "text", "es/p.md", "es", 4),
        (2, 15, "shell", "es/p.md", "es", 4), (3, 19, "doctest", "es/p.md", "es", 4)]
    assert len({b.signature for b in es}) == 1


def test_signature_equal_for_identical_pages_despite_prose_outputs_and_reasons(pages):
    assert pages["es"][0].signature == pages["en"][0].signature


def test_signature_differs_when_a_requirement_differs(pages):
    assert pages["fr"][0].signature != pages["es"][0].signature


def test_signature_differs_when_code_differs(pages):
    assert pages["q"][0].signature != pages["es"][0].signature


def test_page_problem_is_a_failing_region_and_the_blocks_still_run(tmp_path):
    tree = write_tree(tmp_path, {"docs/es/bad.md": "# Bad\n\n```python\npass\n```\n\n<!-- requires: rocm -->\nText.\n\n```python\npass\n```\n"},
                      conftest=False)
    parsed = [e.parsed for e in make_sybil(tree).parse(tree / "docs/es/bad.md")]
    assert [(type(p).__name__, p.line) for p in parsed] == [("Block", 3), ("PageProblem", 7), ("Block", 10)]
    assert parsed[1].error == "es/bad.md:7: requires: directive at line 7 is not directly followed by a code block"


def test_the_engines_sybil_is_set_up_by_sybils_own_constructor(tmp_path):
    """make_sybil builds its Sybil with Sybil's public constructor: what it holds is what that constructor
    sets for the same arguments, attribute for attribute (and the test names it gives, run.sybil.compat)."""
    from sybil import Sybil

    write_tree(tmp_path / "site", {"docs/es/p.md": "# P\n"})
    ours = make_sybil(tmp_path / "site")
    theirs = Sybil(parsers=ours.parsers, path=str(ours.path), patterns=ours.patterns,
                   document_types={".md": ours.document_types[".md"]}, teardown=ours.teardown,
                   fixtures=list(ours.fixtures), name=ours.name, encoding="utf-8-sig")
    assert {k: v for k, v in vars(ours).items() if k not in ("_identify", "_root")} == vars(theirs)
    assert ours.should_parse(tmp_path / "site" / "docs" / "es" / "p.md")
