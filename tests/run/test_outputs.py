"""``#>`` expected output: checked on every run, rewritten with ``--update-outputs``."""

from __future__ import annotations

import datetime
import json
import textwrap

import pytest

from _support import read_ledger, run_pytest, write_tree
from ruota_docs.run import outputs, run_state

# -- the comparison ---------------------------------------------------------------------------------
CODE = 'print("a")\n#> a\nfor i in range(2):\n    print(i)\n    #> 0\n    #> 1\nprint("device: cpu, 8 GiB")\n#> device: ...'


def test_expected_lines_in_order():
    found = outputs.expected(CODE)
    assert [(e.index, e.indent, e.text) for e in found] == [
        (1, "", "a"), (4, "    ", "0"), (5, "    ", "1"), (7, "", "device: ...")]
    assert outputs.expected('x = 1  #> not at the start\n# > a comment') == []


@pytest.mark.parametrize(("printed", "ok"), [
    ("a\n0\n1\ndevice: cpu, 8 GiB\n", True),
    ("a   \n0\n1\ndevice: anything at all\n\n\n", True),  # trailing whitespace and blank lines ignored
    ("a\n0\n1\n", False),  # a line missing
    ("a\n0\n1\ndevice: cpu\nextra\n", False),  # a line too many
    ("b\n0\n1\ndevice: x\n", False),
])
def test_output_must_equal_the_expected_lines(printed, ok):
    assert (outputs.mismatch(outputs.expected(CODE), printed) is None) is ok


def test_ellipsis_matches_any_text_inside_a_line():
    assert outputs.line_matches("peak: ... MiB", "peak: 67.2 MiB")
    assert outputs.line_matches("...", "")
    assert not outputs.line_matches("peak: ... MiB", "peak: 67.2 GiB")
    assert not outputs.line_matches("a.b", "axb")  # only ``...`` is special


def test_the_diff_is_short_and_names_both_sides():
    diff = outputs.mismatch(outputs.expected("print(1)\n#> 2"), "1\n")
    assert diff.splitlines()[:2] == ["--- #> lines", "+++ printed"]
    assert "-2" in diff and "+1" in diff


def test_each_group_gets_the_output_of_the_statement_above_it():
    expected = outputs.expected(CODE)
    printed = [(1, "A\n"), (3, "0\n"), (3, "1\n"), (3, "2\n"), (7, "device: gpu, 16 GiB\n")]
    plan = outputs.plan(expected, printed)
    assert [texts for _, texts in plan] == [["A"], ["0", "1", "2"], ["device: ..."]]  # ``...`` kept: it still matches


def test_output_below_the_last_group_has_no_place_to_go():
    expected = outputs.expected('print("a")\n#> a\nprint("b")')
    with pytest.raises(outputs.UpdateError, match="below the last #> lines") as raised:
        outputs.plan(expected, [(1, "a\n"), (3, "b\n")])
    assert raised.value.line == 3


def test_a_matching_ellipsis_line_is_context_in_the_diff():
    diff = outputs.mismatch(outputs.expected("#> x = ...\n#> 2"), "x = 1.5\n3\n")
    assert " x = 1.5" in diff.splitlines() and "-x = ..." not in diff
    assert "-2" in diff and "+3" in diff


# -- the engine -----------------------------------------------------------------------------------------
PAGE = '''\
    # Salidas { #outputs }

    ```python
    print("hola")
    #> hola
    ```

    ```python
    import sys
    print("cpu:", 4)
    print("a warning", file=sys.stderr)
    #> cpu: ...
    ```

    !!! note

        ```python
        print("in a note")
        #> in a note
        ```

    ```python title="included.py"
    --8<-- "g/included.py"
    ```
    '''
SNIPPET = 'total = 40 + 2\nprint("total:", total)\n#> total: 42\n'


@pytest.fixture()
def tree(tmp_path):
    return write_tree(tmp_path, {"docs/es/p.md": PAGE, "snippets/g/included.py": SNIPPET})


def entries(root):
    return read_ledger(root / "out.json")["blocks"]


def test_matching_outputs_pass_and_stderr_does_not_count(tree):
    run = run_pytest(tree, "--record", "out.json")
    assert run.returncode == 0, run.stdout
    assert [e["outcome"] for e in entries(tree).values()] == ["passed"] * 4


def test_a_wrong_line_fails_with_a_diff_and_the_line_it_is_on(tree):
    page = tree / "docs/es/p.md"
    page.write_text(page.read_text().replace("#> hola", "#> adiós"))
    run = run_pytest(tree, "--record", "out.json")
    assert run.returncode == 1
    assert "es/p.md:3: its output differs from its #> lines (first at docs/es/p.md:5;" in run.stdout
    assert "-adiós" in run.stdout and "+hola" in run.stdout
    assert [e["outcome"] for e in entries(tree).values()] == ["failed", "passed", "passed", "passed"]


def test_a_wrong_line_in_an_included_file_names_that_file(tree):
    (tree / "snippets/g/included.py").write_text(SNIPPET.replace("42", "41"))
    run = run_pytest(tree, "--record", "out.json")
    assert run.returncode == 1
    assert "first at snippets/g/included.py:3;" in run.stdout


def test_update_rewrites_page_and_snippet_and_a_second_run_passes(tree):
    page = tree / "docs/es/p.md"
    page.write_text(page.read_text().replace('print("in a note")', 'print("in a note", "now")')
                    .replace('print("hola")', 'print("hola")\nprint("y adiós")'))
    (tree / "snippets/g/included.py").write_text(SNIPPET.replace("40 + 2", "40 + 3"))
    run = run_pytest(tree, "--update-outputs", "--record", "out.json")
    assert run.returncode == 0, run.stdout
    listed = run.stdout.split("ruota-docs #> lines updated", 1)[1]
    assert "docs/es/p.md:6: 1 #> line(s) replaced by 2 (the block at es/p.md:3)" in listed
    assert "snippets/g/included.py:3: 1 #> line(s) replaced by 1" in listed
    assert listed.count("replaced by") == 3  # not the "cpu: ..." group, which still matches
    text = page.read_text()
    assert 'print("y adiós")\n#> hola\n#> y adiós\n```' in text
    assert '\n    #> in a note now\n' in text  # the admonition's indentation kept
    assert "#> cpu: ...\n" in text  # unchanged: it still matches
    assert (tree / "snippets/g/included.py").read_text() == SNIPPET.replace("40 + 2", "40 + 3").replace("42", "43")
    again = run_pytest(tree, "--record", "out.json")
    assert again.returncode == 0, again.stdout
    assert "#> lines updated" not in again.stdout


def test_update_leaves_a_block_that_failed_for_another_reason(tree):
    page = tree / "docs/es/p.md"
    page.write_text(page.read_text().replace('print("hola")', 'print("hola")\nraise SystemExit(3)'))
    before = page.read_text()
    run = run_pytest(tree, "--update-outputs", "--record", "out.json")
    assert run.returncode == 1
    assert page.read_text() == before
    assert "none: every block's output matched its #> lines" in run.stdout


def test_update_refuses_output_printed_below_the_last_group(tree):
    page = tree / "docs/es/p.md"
    page.write_text(page.read_text().replace('print("hola")\n#> hola', 'print("hola")\n#> hola\nprint("tarde")'))
    before = page.read_text()
    assert 'print("tarde")' in before
    run = run_pytest(tree, "--update-outputs", "--record", "out.json")
    assert run.returncode == 1
    assert page.read_text() == before
    assert "its #> lines cannot be updated: docs/es/p.md:6: this statement prints 'tarde' below the last #> lines" in run.stdout


def test_a_page_updated_in_place_is_recorded_with_its_new_code(tree):
    page = tree / "docs/es/p.md"
    page.write_text(page.read_text().replace("#> hola", "#> ?"))
    run_pytest(tree, "--update-outputs", "--record", "out.json")
    from ruota_docs.blocks.collect import page_blocks

    current = page_blocks(tree, tree / "docs", page)[0]
    assert entries(tree)["es/p.md#0"]["sha256"] == current.sha256


def test_a_snippet_its_translations_include_is_updated_once(tmp_path):
    page = '# P { #p }\n\n```python title="included.py"\n--8<-- "g/included.py"\n```\n'
    tree = write_tree(tmp_path, {"docs/es/p.md": page, "docs/en/p.md": page,
                                 "snippets/g/included.py": SNIPPET.replace("40 + 2", "40 + 3")})
    run = run_pytest(tree, "--update-outputs", "--record", "out.json")
    assert run.returncode == 0, run.stdout
    listed = run.stdout.split("ruota-docs #> lines updated", 1)[1]
    assert "snippets/g/included.py:3: 1 #> line(s) replaced by 1 (the block at es/p.md:3)" in listed
    assert listed.count("replaced by") == 1  # en planned the same lines: written once, for both
    assert (tree / "snippets/g/included.py").read_text() == SNIPPET.replace("40 + 2", "40 + 3").replace("42", "43")
    assert [e["outcome"] for e in entries(tree).values()] == ["passed", "passed"]


def _update(path, first: int, old: str, new: str, block: str = "es/p.md#0") -> run_state.OutputUpdate:
    return run_state.OutputUpdate(block, block.replace("#0", ":3"), {str(path): [(first, [old], [new])]}, "diff", "sha")


def test_updates_are_written_at_the_end_in_run_order(tmp_path):
    snippet = tmp_path / "s.py"
    snippet.write_text('print(1)\n#> 0\nprint(2)\n#> 0\n')
    shown = lambda path: path.rsplit("/", 1)[-1]  # noqa: E731
    done = run_state.apply_updates([
        _update(snippet, 2, "#> 0", "#> 1"),
        _update(snippet, 2, "#> 0", "#> 1", block="en/p.md#0"),  # the same plan: credited with the first
        _update(snippet, 4, "#> 0", "#> 2", block="fr/p.md#0"),
        _update(snippet, 4, "#> 9", "#> 2", block="de/p.md#0"),  # read from lines the file no longer has
    ], shown)
    assert snippet.read_text() == 'print(1)\n#> 1\nprint(2)\n#> 2\n'
    assert [(len(a.changes), a.error) for a in done] == [
        (1, None), (0, None), (1, None), (0, "s.py:4: the #> lines read there are no longer in the file; run again")]


def test_doctest_blocks_keep_their_own_checks(tmp_path):
    tree = write_tree(tmp_path, {"docs/es/d.md": "# D\n\n```pycon\n>>> print(1)\n1\n```\n"})
    assert run_pytest(tree, "--no-record").returncode == 0


def test_expected_output_of_a_block_run_alone(tmp_path):
    """The ``#>`` lines are comments: a snippet with them still runs on its own."""
    script = tmp_path / "s.py"
    script.write_text(textwrap.dedent(SNIPPET))
    import subprocess
    import sys

    assert subprocess.run([sys.executable, str(script)], capture_output=True, text=True).stdout == "total: 42\n"
    assert json.dumps(outputs.expected(SNIPPET)[0].text) == '"total: 42"'


# -- pytest-examples' forms, and what --update-outputs never does ------------------------------------------------
QUOTED = ("user = dict(id=1, name='Jane', tags=[1, 2])\nprint(user)\nQ\n{\n    'id': 1,\n    'name': 'Jane',\n    'tags': [1, 2],\n}\nQ\nprint(object())\n#> <object object at 0x0123456789ab>\n").replace("Q", '"""')


def test_a_triple_quoted_string_after_print_states_its_output_in_blacks_layout():
    found = outputs.expected(QUOTED)
    assert [(e.index, e.text, e.loose) for e in found][:2] == [(3, "{", True), (4, "    'id': 1,", True)]
    assert found[-1].text == "<object object at 0x0123456789ab>"
    printed = "{'id': 1, 'name': 'Jane', 'tags': [1, 2]}\n<object object at 0x7f3a2b1c9d40>\n"
    assert outputs.mismatch(found, printed) is None
    assert outputs.mismatch(found, printed.replace("Jane", "John")) is not None


def test_a_string_that_follows_no_print_states_nothing():
    assert outputs.expected('x = 1\nQ\nnot an output\nQ\nprint(x)\n'.replace("Q", '"""')) == []


def test_update_leaves_triple_quoted_outputs_to_pytest_examples():
    with pytest.raises(outputs.UpdateError, match="triple-quoted string after print") as raised:
        outputs.plan(outputs.expected(QUOTED), [(2, "{}\n")], QUOTED)
    assert raised.value.line == 4


def test_update_never_moves_an_output_under_a_later_statement():
    """The error printed inside ``except`` is the try statement's output: with no #> lines under
    it, there is nowhere to write it, and the group under the next print is not its place."""
    code = ("try:\n    int('x')\nexcept ValueError as e:\n    print(e)\nm_json = '{}'\nprint(m_json)\n#> {}\n")
    expected = outputs.expected(code)
    printed = [(1, "invalid literal for int() with base 10: 'x'\n"), (6, "{}\n")]
    assert [t for _, t in outputs.plan(expected, printed)][0][0].startswith("invalid literal")  # without the code: moved
    with pytest.raises(outputs.UpdateError, match="no #> lines stand inside or right under it") as raised:
        outputs.plan(expected, printed, code)
    assert raised.value.line == 1


def test_update_never_writes_the_time_of_the_run():
    code = "import datetime\nprint(datetime.datetime.now())\n#> 2032-01-02 03:04:05.000006\n"
    today = datetime.date(2026, 12, 6)
    with pytest.raises(outputs.UpdateError, match="holds the time of this run"):
        outputs.plan(outputs.expected(code), [(2, "2026-12-06 01:23:45.637989\n")], code, today)
    with pytest.raises(outputs.UpdateError, match="holds the time of this run"):
        outputs.plan(outputs.expected(code), [(2, "datetime.datetime(2026, 12, 5, 23, 27, 0)\n")], code, today)
    kept = outputs.plan(outputs.expected(code), [(2, "2032-01-02 03:04:05.000007\n")], code, today)
    assert [t for _, t in kept] == [["2032-01-02 03:04:05.000007"]]


def test_a_triple_quoted_output_runs_on_a_page(tmp_path):
    page = "# P { #p }\n\n```python\n" + QUOTED + "```\n"
    root = write_tree(tmp_path, {"docs/es/p.md": page})
    done = run_pytest(root, "docs/es/p.md", "--no-record")
    assert done.returncode == 0, done.stdout[-2000:]


def test_an_address_or_a_set_in_a_line_matches_as_pytest_examples_prints_them():
    found = outputs.expected("print(f)\n#> f=<Foo object at 0x0123456789ab>\nprint(s)\n#> {'1', '2', '3'}\n")
    assert outputs.mismatch(found, "f=<Foo object at 0x7f5eaae7e790>\n{'3', '2', '1'}\n") is None
    assert outputs.mismatch(found, "f=<Foo object at 0x7f5eaae7e790>\n{'3', '2'}\n") is not None
    assert outputs.mismatch(outputs.expected("print(f)\n#> f=<Foo object at 0x7f00aae7e790>\n"),
                            "f=<Foo object at 0x7f5eaae7e790>\n") is not None  # a real address is compared


def test_lines_under_no_print_are_left_out_only_where_the_output_needs_it():
    """pytest-examples never checks a #> line under a bare expression or a comment; the engine
    still checks one that states what the statement above it printed."""
    code = "x = 3\nf(x)\n#> 9\n# what print(x) shows:\n#> 3\nprint(x + 1)\n#> 4\n"
    found = outputs.expected(code)
    assert [e.repl for e in found] == [True, True, False]
    assert outputs.mismatch(found, "4\n") is None
    assert outputs.mismatch(found, "9\n3\n4\n") is None
    assert outputs.mismatch(found, "5\n") is not None


def test_what_a_library_prints_needs_no_line_as_in_pytest_examples(tmp_path):
    """pprint writes from its own module: as pytest-examples, which checks print's output only."""
    code = "from pprint import pprint\nprint('checked')\n#> checked\npprint({'a': 1})\n"
    wrong = code.replace("#> checked", "#> other")
    page = f"# P {{ #p }}\n\n```python\n{code}```\n\n```python\n{wrong}```\n"
    root = write_tree(tmp_path, {"docs/es/p.md": page})
    done = run_pytest(root, "docs/es/p.md", "--no-record")
    assert "1 failed, 1 passed" in done.stdout, done.stdout[-2000:]


def test_a_print_in_a_function_states_its_output_under_itself_as_in_pytest_examples():
    code = ("def later():\n    print('second')\n    #> second\n\n\nprint('first')\n#> first\nlater()\n")
    found = outputs.expected(code)
    printed = [(6, "first", 6), (6, "\n", 6), (8, "second", 2), (8, "\n", 2)]
    assert outputs.mismatch(found, "first\nsecond\n") is not None  # in the order of the lines, not of the run
    assert outputs.under_each_print(found, printed, code)
    assert not outputs.under_each_print(found, [(6, "first\n", 6)], code)  # a group under a print that never ran
    assert outputs.under_each_print(found, [*printed, (8, "x\n", None)], code)  # a library's: not compared
    assert not outputs.under_each_print(found, [*printed, (8, "x\n", 4)], code)  # not by a print
    quoted = code.replace("    #> second\n", '    """\n    second\n    """\n')
    moved = [(10, "second\n", 2), (8, "first\n", 8)]  # the print('first') is 2 lines further down now
    assert outputs.under_each_print(outputs.expected(quoted), moved, quoted)
