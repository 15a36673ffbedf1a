"""From fences to blocks: the run policy of every language, directives, page signatures."""

from __future__ import annotations

import hashlib

import pytest

from _support import write_tree
from ruota_docs.requirements import Requirement
from ruota_docs.sybil import make_sybil
from ruota_docs.sybil.lexers import scan
from ruota_docs.sybil.parsers import block_from_fence, kind_of

UNEXPLAINED = "block is neither marked safe to run (<!-- run: safe -->) nor explained (<!-- run: skip reason=\"…\" -->)"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return write_tree(tmp_path_factory.mktemp("parsers"), {"snippets/g/probe.py": "print('probe')\n"}, conftest=False)


def block(root, markdown: str, page: str = "es/guides/p.md"):
    fences = scan(markdown).fences
    assert len(fences) == 1
    return block_from_fence(fences[0], page, page.split("/")[0], root)


# -- executed languages -----------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["python", "py", "python3", "Python"])
def test_python_is_executed(root, language):
    b = block(root, f"# T\n\n```{language} title=\"x.py\"\nx = 1\n```\n")
    assert (b.kind, b.error, b.code, b.line, b.page, b.lang) == ("python", None, "x = 1\n", 3, "es/guides/p.md", "es")
    assert b.not_run_reason is None


def test_pycon_and_prompt_python_are_doctests(root):
    assert block(root, "```pycon\n>>> 1 + 1\n2\n```\n").kind == "doctest"
    assert block(root, "```python\n>>> 1 + 1\n2\n```\n").kind == "doctest"
    assert block(root, "```python\n\n   >>> 1 + 1\n2\n```\n").kind == "doctest"
    assert block(root, "```python\nx = 1  # >>> not a prompt\n```\n").kind == "python"


def test_included_code_is_the_code(root):
    b = block(root, '```python title="probe.py"\n--8<-- "g/probe.py"\n```\n')
    # pymdownx keeps the file's final newline as an empty line
    assert b.code == "print('probe')\n\n"
    assert b.includes == ("g/probe.py",)
    assert b.sha256 == hashlib.sha256(b"print('probe')\n\n").hexdigest()


# -- shells ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["bash", "sh", "shell", "zsh", "console"])
def test_unmarked_shell_is_an_error_naming_page_and_line(root, language):
    b = block(root, f"# T\n\nText.\n\n```{language}\nrm -rf build\n```\n")
    assert b.kind == "shell"
    assert b.error == f"es/guides/p.md:5: {language} {UNEXPLAINED}"


def test_shell_marked_safe_runs(root):
    b = block(root, "<!-- run: safe timeout=30 -->\n```bash\necho hi\n```\n")
    assert (b.kind, b.error, b.options) == ("shell", None, {"safe": True, "timeout": "30"})


def test_shell_with_skip_reason_is_not_run(root):
    b = block(root, '<!-- run: skip reason="instala paquetes del sistema" -->\n```bash\nsudo apt install rocm\n```\n')
    assert (b.kind, b.error, b.not_run_reason) == ("shell", None, "instala paquetes del sistema")


@pytest.mark.parametrize("language", ["powershell", "pwsh", "ps1", "bat", "cmd", "batch"])
def test_windows_languages(root, language):
    safe = block(root, f"<!-- run: safe -->\n```{language}\nGet-Item .\n```\n")
    assert (safe.kind, safe.error) == ("windows", None)
    skipped = block(root, f'<!-- run: skip reason="Windows only" -->\n```{language}\nGet-Item .\n```\n')
    assert (skipped.kind, skipped.error, skipped.not_run_reason) == ("windows", None, "Windows only")
    # like a shell block, a Windows block must say whether it may run
    unmarked = block(root, f"```{language}\nGet-Item .\n```\n")
    assert unmarked.error == f"es/guides/p.md:1: {language} {UNEXPLAINED}"


# -- data and prose -----------------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["yaml", "yml", "json", "toml"])
def test_data_is_parsed(root, language):
    b = block(root, f"```{language}\na: 1\n```\n")
    assert (b.kind, b.error) == ("data", None)


@pytest.mark.parametrize("language", ["text", "txt", "output", "plaintext", "log", "markdown", "md", "mermaid"])
def test_not_code_is_not_collected(root, language):
    assert block(root, f"```{language}\nanything at all\n```\n") is None


# -- everything else ------------------------------------------------------------------------------------
def test_unknown_language_fails(root):
    b = block(root, "# T\n\n```rust\nfn main() {}\n```\n")
    assert b.kind == "invalid"
    assert b.error == ("es/guides/p.md:3: code block with language 'rust' has no run policy; give it a known "
                       "language or explain it with <!-- run: skip reason=\"…\" -->")


def test_no_language_fails(root):
    b = block(root, "```\nwhatever\n```\n")
    assert b.error == ("es/guides/p.md:1: code block with no language has no run policy; give it a known "
                       "language or explain it with <!-- run: skip reason=\"…\" -->")


def test_unknown_language_with_reason_is_fine(root):
    b = block(root, '<!-- run: skip reason="ejemplo de Rust" -->\n```rust\nfn main() {}\n```\n')
    assert (b.kind, b.error, b.not_run_reason) == ("invalid", None, "ejemplo de Rust")


# -- directives ------------------------------------------------------------------------------------------
def test_requirements_and_options_are_collected(root):
    b = block(root, "<!-- requires: gpu vram>=8GiB -->\n<!-- requires: os=linux -->\n<!-- run: timeout=60 id=train -->\n"
                    "```python\npass\n```\n")
    assert b.requirements == (Requirement("gpu"), Requirement("vram", ("8GiB",)), Requirement("os", ("linux",)))
    assert b.options == {"timeout": "60", "id": "train"}
    assert b.block_id == "train"
    assert b.error is None


@pytest.mark.parametrize(("markdown", "error"), [
    ("<!-- requires: gpu colour=red -->\n```python\npass\n```\n",
     "es/guides/p.md:1: unknown requirement 'colour'; known: gpu, rocm, cuda, cpu, network, arch, os, import, vram, python, torch"),
    # the line is the directive that is wrong, not the first directive of the block
    ("<!-- run: timeout=5 -->\n<!-- requires: vram>=8GB -->\n```python\npass\n```\n",
     "es/guides/p.md:2: malformed size '8GB': write a number and a unit, e.g. 8GiB or 512MiB"),
    ("<!-- run: skip -->\n```python\npass\n```\n",
     'es/guides/p.md:1: run: skip needs a reason readers can see: <!-- run: skip reason="…" -->'),
    ('<!-- run: skip reason="  " -->\n```python\npass\n```\n',
     'es/guides/p.md:1: run: skip needs a reason readers can see: <!-- run: skip reason="…" -->'),
    ("<!-- run: sfae -->\n```bash\necho\n```\n",
     "es/guides/p.md:1: unknown run: option 'sfae'; known: safe, skip, reason, timeout, id"),
    ("<!-- run: timeout=0 -->\n```python\npass\n```\n",
     "es/guides/p.md:1: run: timeout must be a positive number of seconds (got '0')"),
    ("<!-- run: timeout=soon -->\n```python\npass\n```\n",
     "es/guides/p.md:1: run: timeout must be a positive number of seconds (got 'soon')"),
    ('<!-- run: safe reason="unclosed -->\n```bash\necho\n```\n',
     "es/guides/p.md:1: malformed run: directive (No closing quotation)"),
    # an include problem points at the fence, below its directives
    ('<!-- requires: cpu -->\n```python\n--8<-- "g/nope.py"\n```\n',
     "es/guides/p.md:2: Snippet at path 'g/nope.py' could not be found"),
])
def test_directive_and_include_errors(root, markdown, error):
    b = block(root, markdown)
    assert (b.kind, b.error) == ("invalid", error)


def test_kind_of_matches_block_kind(root):
    fence = scan("```toml\na = 1\n```\n").fences[0]
    assert kind_of(fence) == "data"


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
        (0, 4, "python", "es/p.md", "es", 3), (1, 15, "shell", "es/p.md", "es", 3), (2, 19, "doctest", "es/p.md", "es", 3)]
    assert len({b.signature for b in es}) == 1


def test_signature_equal_for_identical_pages_despite_prose_and_reasons(pages):
    assert pages["es"][0].signature == pages["en"][0].signature


def test_signature_differs_when_a_requirement_differs(pages):
    assert pages["fr"][0].signature != pages["es"][0].signature


def test_signature_differs_when_code_differs(pages):
    assert pages["q"][0].signature != pages["es"][0].signature


def test_lex_error_becomes_one_failing_block(tmp_path):
    tree = write_tree(tmp_path, {"docs/es/bad.md": "# Bad\n\n```python\npass\n```\n\n<!-- colour: red -->\n```python\npass\n```\n"},
                      conftest=False)
    blocks = [e.parsed for e in make_sybil(tree).parse(tree / "docs/es/bad.md")]
    assert [(b.kind, b.line, b.error) for b in blocks] == [
        ("invalid", 7, "es/bad.md:7: unknown directive 'colour'; known: requires, run, chart, verification-status, card-matrix")]
