"""From rendered code blocks to engine blocks: the run policy of every language, directives, signatures."""

from __future__ import annotations

import hashlib

import pytest

from _support import write_tree
from ruota_docs.blocks import renderer
from ruota_docs.blocks.terms import Requirement

UNEXPLAINED = "block is neither marked safe to run (<!-- run: safe -->) nor explained (<!-- run: skip reason=\"…\" -->)"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return write_tree(tmp_path_factory.mktemp("blocks"), {"snippets/g/probe.py": "print('probe')\n"}, conftest=False)


def render(root, markdown: str, page: str = "es/guides/p.md"):
    path = root / "docs" / page
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown, encoding="utf-8")
    return renderer.render(root, path)


def block(root, markdown: str, page: str = "es/guides/p.md"):
    rendered = render(root, markdown, page)
    assert not rendered.problems, rendered.problems
    assert len(rendered.blocks) == 1, rendered.blocks
    return rendered.blocks[0]


# -- executed languages -----------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["python", "py", "python3", "py3", "pyi", "Python"])
def test_python_is_executed(root, language):
    b = block(root, f"# T\n\n```{language} title=\"x.py\"\nx = 1\n```\n")
    assert (b.kind, b.error, b.code, b.line, b.end_line, b.page, b.lang) == ("python", None, "x = 1", 3, 5, "es/guides/p.md", "es")
    assert (b.not_run_reason, b.title) == (None, "x.py")


@pytest.mark.parametrize("language", ["sage", "bazel", "starlark"])
def test_languages_that_borrow_the_python_highlighter_are_not_python(root, language):
    b = block(root, f"```{language}\nx = 1\n```\n")
    assert b.kind == "invalid" and "no run policy" in b.error


@pytest.mark.parametrize("info", ["{ .python }", "{ #probe .python linenums=\"1\" }", "{.python hl_lines=\"1\"}"])
def test_attribute_forms_name_the_language(root, info):
    b = block(root, f"```{info}\nx = 1\n```\n")
    assert (b.kind, b.fence_language, b.error) == ("python", "python", None)


def test_options_without_a_language_mean_no_language(root):
    b = block(root, '```hl_lines="1"\nx = 1\n```\n')
    assert b.fence_language == ""
    assert "code block with no language has no run policy" in b.error


@pytest.mark.parametrize("language", ["pycon", "python-console"])
def test_console_aliases_are_doctests(root, language):
    assert block(root, f"```{language}\n>>> 1 + 1\n2\n```\n").kind == "doctest"


def test_prompt_python_is_a_doctest(root):
    assert block(root, "```python\n>>> 1 + 1\n2\n```\n").kind == "doctest"
    assert block(root, "```python\n\n   >>> 1 + 1\n2\n```\n").kind == "doctest"
    assert block(root, "```python\nx = 1  # >>> not a prompt\n```\n").kind == "python"


def test_extend_pygments_lang_is_honoured(tmp_path):
    tree = write_tree(tmp_path, {}, conftest=False)
    config = (tree / "mkdocs.yml").read_text(encoding="utf-8").replace(
        "  - pymdownx.highlight:\n", "  - pymdownx.highlight:\n      extend_pygments_lang:\n"
        "        - {name: pycon3, lang: pycon, options: {python3: true}}\n        - {name: snake, lang: python}\n")
    (tree / "mkdocs.yml").write_text(config, encoding="utf-8")
    assert block(tree, "```pycon3\n>>> 1\n1\n```\n").kind == "doctest"
    assert block(tree, "```snake\nx = 1\n```\n").kind == "python"


def test_included_code_is_the_code(root):
    b = block(root, '```python title="probe.py"\n--8<-- "g/probe.py"\n```\n')
    # pymdownx keeps the file's final newline as an empty line
    assert b.code == "print('probe')\n"
    assert b.includes == ("snippets/g/probe.py",)
    assert b.code_origins == ((str(root / "snippets/g/probe.py"), 1), (str(root / "snippets/g/probe.py"), 2))
    assert b.sha256 == hashlib.sha256(b"print('probe')\n").hexdigest()


# -- shells ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["bash", "sh", "shell", "zsh", "console", "shell-session"])
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


@pytest.mark.parametrize("language", ["powershell", "pwsh", "ps1", "bat", "cmd", "batch", "doscon"])
def test_windows_languages(root, language):
    safe = block(root, f"<!-- run: safe -->\n```{language}\nGet-Item .\n```\n")
    assert (safe.kind, safe.error) == ("windows", None)
    skipped = block(root, f'<!-- run: skip reason="Windows only" -->\n```{language}\nGet-Item .\n```\n')
    assert (skipped.kind, skipped.error, skipped.not_run_reason) == ("windows", None, "Windows only")
    unmarked = block(root, f"```{language}\nGet-Item .\n```\n")
    assert unmarked.error == f"es/guides/p.md:1: {language} {UNEXPLAINED}"


# -- data and prose -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("language", "data_format"), [("yaml", "yaml"), ("yml", "yaml"), ("json", "json"), ("toml", "toml")])
def test_data_is_parsed(root, language, data_format):
    b = block(root, f"```{language}\na: 1\n```\n")
    assert (b.kind, b.data_format, b.error) == ("data", data_format, None)


@pytest.mark.parametrize("language", ["text", "txt", "output", "plaintext", "log", "markdown", "md", "mermaid"])
def test_shown_only_blocks_are_collected_but_never_run(root, language):
    b = block(root, f"```{language}\nanything at all\n```\n")
    assert (b.kind, b.shown_only, b.error) == ("text", True, None)


def test_indented_code_is_shown_only(root):
    b = block(root, "# T\n\nText.\n\n    ```python\n    print('never')\n    ```\n")
    assert (b.kind, b.line, b.code) == ("indented", 5, "```python\nprint('never')\n```")


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
    assert (b.block_id, b.error, b.line) == ("train", None, 4)


@pytest.mark.parametrize(("markdown", "error"), [
    ("<!-- requires: gpu colour=red -->\n```python\npass\n```\n",
     "es/guides/p.md:1: unknown requirement 'colour'; known: "),
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
    ("<!-- requirs: rocm -->\n```python\npass\n```\n",
     "es/guides/p.md:1: unknown directive 'requirs': did you mean 'requires'?"),
    ("<!-- requires rocm -->\n```python\npass\n```\n",
     "es/guides/p.md:1: <!-- requires … --> needs a colon: <!-- requires: … -->"),
    # an include problem points at the include, inside the fence
    ('<!-- requires: cpu -->\n```python\n--8<-- "g/nope.py"\n```\n',
     "es/guides/p.md:3: Snippet at path 'g/nope.py' could not be found"),
])
def test_a_problem_in_a_block_fails_that_block(root, markdown, error):
    b = block(root, markdown)
    assert b.kind == "invalid"
    assert b.error.startswith(error), b.error


def test_a_problem_in_one_block_leaves_the_others_alone(root):
    rendered = render(root, "```python\nx = 1\n```\n\n<!-- requirs: rocm -->\n```python\ny = 2\n```\n\n```python\nz = 3\n```\n")
    assert [(b.kind, b.error is None) for b in rendered.blocks] == [("python", True), ("invalid", False), ("python", True)]


@pytest.mark.parametrize("comment", ["<!-- md:version 9.0 -->", "<!-- todo: rewrite -->", "<!-- just a note -->",
                                     "<!-- md:flag experimental -->", "<!-- invisible-code-block: python -->"])
def test_other_comments_are_ordinary_comments(root, comment):
    b = block(root, f"{comment}\n```python\nx = 1\n```\n\n{comment}\n")
    assert (b.kind, b.error, b.requirements, b.options) == ("python", None, (), {})


# -- Sybil's skip ------------------------------------------------------------------------------------------
def test_sybil_skip_next_and_ranges_are_not_run(root):
    rendered = render(root, "<!-- skip: next -->\n\n```python\na = 1\n```\n\n```python\nb = 2\n```\n\n<!-- skip: start -->\n\n"
                            "```python\nc = 3\n```\n\n```python\nd = 4\n```\n\n<!-- skip: end -->\n\n```python\ne = 5\n```\n")
    assert [b.not_run_reason for b in rendered.blocks] == [
        "skipped with <!-- skip: next --> at line 1", None,
        "skipped between <!-- skip: start --> at line 11 and <!-- skip: end --> at line 21",
        "skipped between <!-- skip: start --> at line 11 and <!-- skip: end --> at line 21", None]
    assert not rendered.problems


def test_sybil_skip_reasons_are_shown(root):
    rendered = render(root, '<!-- skip: next "not yet working" -->\n\n```python\na = 1\n```\n\n'
                            "<!-- skip: start 'Fix in v5' -->\n\n```python\nb = 2\n```\n\n<!-- skip: end -->\n")
    assert [b.not_run_reason for b in rendered.blocks] == ["not yet working", "Fix in v5"]
    assert not rendered.problems


def test_sybil_conditional_skip_fails_the_blocks_it_governs(root):
    rendered = render(root, '```python\nimport sys\n```\n\n<!-- skip: next if(sys.version_info < (3, 0), reason="py3") -->\n\n'
                            "```python\na = 1\n```\n\n```python\nb = 2\n```\n")
    assert [b.error is None for b in rendered.blocks] == [True, False, True]
    assert rendered.blocks[1].error.startswith(
        'es/guides/p.md:5: Sybil\'s conditional skip (if(sys.version_info < (3, 0), reason="py3")) is not evaluated here')
    assert not rendered.problems


@pytest.mark.parametrize(("markdown", "problem"), [
    ("<!-- skip: start -->\n\n```python\na = 1\n```\n", (1, "skip: start is never closed by skip: end")),
    ("<!-- skip: end -->\n", (1, "skip: end without an earlier skip: start")),
    ("```python\na = 1\n```\n\n<!-- skip: next -->\n", (5, "skip: next is not followed by any code block")),
    ("<!-- skip: sometimes -->\n", (1, "skip: 'sometimes' is not a skip action (next, start or end, then a \"reason\" or if(…))")),
])
def test_sybil_skip_mistakes(root, markdown, problem):
    assert [(p.line, p.message) for p in render(root, markdown).problems] == [problem]
