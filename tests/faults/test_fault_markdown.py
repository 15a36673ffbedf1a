"""Markdown the engine must read, or refuse with the file and line: fences, directives,
includes, translations, encodings, and a page of 10,000 blocks."""

from __future__ import annotations

import re
import time

import pytest

from _support import reader_folder
from faulttree import PYTHON, DocTree, compose, fence

NESTED = """\
# Nested { #nested }

1. First step:

    ```python
    print("in a list")
    ```

!!! note "A note"

    ```python title="note.py"
    print("in an admonition")
    ```

=== "Linux"

    ```python
    print("in a tab")
    ```

=== "Windows"

    Nothing here.

````markdown
```python
print("an example of Markdown, not a block")
```
````
"""
NESTED_LINES = (5, 11, 17, 25)

#: page → (text, line the engine must name, message it must give)
BROKEN = {
    "unclosed.md": ("# Unclosed\n\n```python\nprint(1)\n```\n\nText.\n\n````python\nprint(2)\n```\n\nMore text.\n",
                    9, "code block opened with ```` at line 9 is never closed (readers see it as text)"),
    "directive.md": ("# Directive\n\nText.\n\n<!-- requirs: rocm -->\n```python\nprint(1)\n```\n",
                     5, "unknown directive 'requirs': did you mean 'requires'? "
                        "(known: requires, run, evidence, chart, verification-status, card-matrix, value, fact, skip)"),
    "requirement.md": ("# Requirement\n\n<!-- run: timeout=5 -->\n<!-- requires: vram>=lots -->\n```python\nprint(1)\n```\n",
                       4, "malformed size 'lots': write a number and a unit, e.g. 8GiB or 512MiB"),
    # an include problem names the include's line, inside the fence
    "missing-file.md": ('# Missing\n\n```python\n--8<-- "demo/nope.py"\n```\n',
                        4, "Snippet at path 'demo/nope.py' could not be found"),
    "missing-section.md": ('# Section\n\n```python\n--8<-- "demo/hello.py:nope"\n```\n',
                           4, "Snippet section 'nope' could not be located"),
    "circular.md": ('# Circular\n\n```python\n--8<-- "demo/ping.py"\n```\n',
                    4, "circular include of demo/ping.py"),
}
#: Problems that belong to no block: they fail the run, and no block is recorded for them.
PAGE_PROBLEMS = {"unclosed.md"}
#: Latin-1: the first byte that is not UTF-8 is "á" (0xe1), line 1, column 4
LATIN1 = "# Página\n\nUna señal.\n\n```python\nprint(1)\n```\n".encode("latin-1")
LATIN1_ERROR = "not UTF-8 text (byte 0xe1 at line 1, column 4): save the file as UTF-8"


def snippets(tree: DocTree) -> None:
    tree.snippet("demo/hello.py", "# --8<-- [start:greet]\nprint('hello')\n# --8<-- [end:greet]\n")
    tree.snippet("demo/ping.py", 'print("ping")\n--8<-- "demo/pong.py"\n')
    tree.snippet("demo/pong.py", 'print("pong")\n--8<-- "demo/ping.py"\n')


@pytest.fixture(scope="module")
def markdown(reader_tmp_root):
    """One project with every broken page (and a good one after them), run once."""
    tree = DocTree(reader_folder(reader_tmp_root, "markdown") / "project")
    snippets(tree)
    tree.page("es/nested.md", NESTED, langs=("es",))
    for name, (text, _, _) in BROKEN.items():
        tree.page(f"es/broken/{name}", text, langs=("es",))
    (tree.docs / "es/broken/latin1.md").write_bytes(LATIN1)
    tree.page("es/zz-last.md", compose("Last", fence("print('last page ran')"))[0], langs=("es",))
    return tree, tree.pytest()


def test_broken_pages_do_not_stop_the_run(markdown):
    tree, run = markdown
    assert run.returncode == 1, run
    assert "error during collection" not in run.stdout and "Interrupted" not in run.stdout, run
    assert tree.entries("es/zz-last.md")[0]["output"] == "last page ran\n"


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_page_is_reported_with_file_and_line(markdown, name):
    tree, run = markdown
    _, line, message = BROKEN[name]
    assert f"es/broken/{name}:{line}: {message}" in run.stdout, run
    failed = [e for e in tree.entries(f"es/broken/{name}") if e["outcome"] == "failed"]
    # the block with the problem fails, and only it; a problem outside any block fails the run alone
    if name in PAGE_PROBLEMS:
        assert failed == [] and [e["outcome"] for e in tree.entries(f"es/broken/{name}")] == ["passed"]
    else:
        assert [e["reason"] for e in failed] == [message]


def test_not_utf8_page_is_reported_with_file_and_line(markdown):
    tree, run = markdown
    assert f"es/broken/latin1.md:1: {LATIN1_ERROR}" in run.stdout, run
    assert "UnicodeDecodeError" not in run.stdout
    assert "FAILED docs/es/broken/latin1.md" in run.stdout
    # nothing of the page could be read: nothing is recorded for it
    assert tree.entries("es/broken/latin1.md") == []


def test_fences_inside_lists_admonitions_and_tabs_run(markdown):
    tree, _ = markdown
    entries = tree.entries("es/nested.md")
    assert [(e["line"], e["outcome"], e["output"]) for e in entries] == [
        (NESTED_LINES[0], "passed", "in a list\n"),
        (NESTED_LINES[1], "passed", "in an admonition\n"),
        (NESTED_LINES[2], "passed", "in a tab\n"),
        (NESTED_LINES[3], "skipped", ""),  # the Markdown example: shown, never run
    ]


def test_a_broken_page_keeps_its_earlier_records(tree):
    text, lines = compose("Grows", fence("print('a')"), fence("print('b')"), fence("print('c')"))
    tree.page("es/grows.md", text, langs=("es",))
    assert tree.pytest().returncode == 0
    before = tree.entries("es/grows.md")
    (tree.docs / "es/grows.md").write_bytes(text.replace("Grows", "Crece según")
                                            .encode("latin-1"))
    run = tree.pytest()
    assert run.returncode == 1, run
    assert "es/grows.md:1: not UTF-8 text" in run.stdout
    # the page could not be read: the records of its blocks stay as they were
    assert tree.entries("es/grows.md") == before


def test_an_unclosed_fence_fails_the_run_and_the_page_still_runs(tree):
    text, lines = compose("Open", fence("print('a')"), fence("print('b')"))
    tree.page("es/open.md", text + "\n```python\nprint('unclosed')\n", langs=("es",))
    run = tree.pytest()
    assert run.returncode == 1, run
    unclosed = lines[-1] + 4
    assert f"es/open.md:{unclosed}: code block opened with ``` at line {unclosed} is never closed" in run.stdout
    assert [(e["index"], e["outcome"]) for e in tree.entries("es/open.md")] == [(0, "passed"), (1, "passed")]


@pytest.mark.parametrize("name", sorted(BROKEN) + ["latin1.md"])
def test_broken_page_fails_the_build_with_file_and_line(tree, name):
    snippets(tree)
    tree.page("good.md", compose("Good", fence("print('good')"))[0])
    if name == "latin1.md":
        (tree.docs / "es" / name).write_bytes(LATIN1)
        line, message = 1, LATIN1_ERROR
    else:
        text, line, message = BROKEN[name]
        tree.page(f"es/{name}", text, langs=("es",))
    build = tree.build()
    assert build.returncode == 1, build
    assert f"es/{name}:{line}: {message}" in build.stderr, build
    assert "Traceback" not in build.output, build


def test_nested_fences_build(tree):
    tree.page("es/nested.md", NESTED, langs=("es",))
    assert tree.pytest().returncode == 0
    build = tree.build()
    assert build.returncode == 0, build
    html = tree.html("nested.md")
    # a verification mark under each of the three blocks, inside the list, the admonition and the tab
    assert html.count('<div class="ruota-verify ruota-state-passed" id="ruota-block-') == 3
    for printed in ("in a list", "in an admonition", "in a tab"):
        assert re.search(f'<pre class="ruota-output" tabindex="0" role="region" aria-label="[^"]+"><code>{printed}\n</code></pre>', html)


def test_page_in_one_language_only(tree):
    tree.page("both.md", compose("Both", fence("print('everywhere')"))[0])
    tree.page("es/only-es.md", compose("Solo", fence("print('solo')"))[0])
    tree.page("fr/only-fr.md", compose("Seulement", fence("print('seul')"))[0])
    check = tree.i18n_check()
    assert check.returncode == 1, check
    problems = sorted(line for line in check.stdout.splitlines() if line.startswith("docs/"))
    assert problems == [
        "docs/en/only-es.md:1: translation of es/only-es.md is missing (add it, or list the page under 'untranslated' "
        "in the ruota_docs plugin options)",
        "docs/fr/only-es.md:1: translation of es/only-es.md is missing (add it, or list the page under 'untranslated' "
        "in the ruota_docs plugin options)",
        "docs/fr/only-fr.md:1: page has no es source (es/only-fr.md is missing)",
    ]
    assert check.stdout.splitlines()[-1] == "3 problems (3 languages checked: es, en, fr)"


MEASURE = ("import resource, subprocess, sys; code = subprocess.call(sys.argv[1:]); "
           "r = resource.getrusage(resource.RUSAGE_CHILDREN); "
           "print('measured', r.ru_maxrss, r.ru_utime + r.ru_stime); sys.exit(code)")


def measured(tree: DocTree, args: list[str]):
    """Run ``args`` in the tree; returns the run, its peak RSS (MiB) and CPU seconds (the process tree)."""
    run = tree.command([PYTHON, "-c", MEASURE, *args], timeout=900)
    rss, cpu = re.search(r"^measured (\d+) ([\d.]+)$", run.stdout, re.M).groups()
    return run, int(rss) / 1024, float(cpu)


def test_ten_thousand_blocks(tree, figure):
    n = 10_000
    blocks = "\n".join(fence(f"total = {i} + (total if {i} else 0)\nprint('block', {i}, total)") for i in range(n))
    tree.page("es/big.md", f"# Big\n\n{blocks}", langs=("es",))

    collect, collect_rss, collect_cpu = measured(tree, tree.pytest_args("--collect-only", "docs/es/big.md", report="-rfE"))
    assert collect.returncode == 0, collect
    assert f"{n} tests collected" in collect.stdout

    run, run_rss, run_cpu = measured(tree, tree.pytest_args("docs/es/big.md", report="-rfE"))
    assert run.returncode == 0, run
    assert f"{n} passed" in run.stdout
    entries = tree.entries("es/big.md")
    assert len(entries) == n and entries[-1]["output"] == f"block {n - 1} {n * (n - 1) // 2}\n"

    started = time.perf_counter()
    status = tree.status()
    status_s = time.perf_counter() - started
    assert status.returncode == 0 and f"es/big.md ({n} blocks)" in status.stdout, status

    figure("10,000-block page, collection (pytest --collect-only)",
           f"{collect.seconds:.1f} s wall, {collect_cpu:.1f} s CPU, peak RSS {collect_rss:.0f} MiB")
    figure("10,000-block page, collection + execution + ledger write",
           f"{run.seconds:.1f} s wall, {run_cpu:.1f} s CPU (pytest and the page's process), peak RSS {run_rss:.0f} MiB")
    figure("10,000-block page, per block", f"{1000 * run.seconds / n:.2f} ms wall, {1000 * run_cpu / n:.2f} ms CPU")
    figure("10,000-block page, ruota-docs status", f"{status_s:.1f} s wall")
    figure("10,000-block page, ledger", f"{tree.ledger_path().stat().st_size / 2**20:.1f} MiB")
    # bounded memory; the times are figures of the run's summary, not pass or fail: on a shared machine
    # they measure how busy it is (speed goals are benchmarks/collect.py's, run side by side)
    assert collect_rss < 512 and run_rss < 1024
