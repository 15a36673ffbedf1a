"""End to end: throwaway doc trees run by ``python -m pytest`` in a subprocess, as CI runs the docs."""

from __future__ import annotations

import re
import shutil
import tempfile
import textwrap
from pathlib import Path

import pytest

from _support import clean_env, mkdocs_yml, outcomes, read_ledger, run_mkdocs, run_pytest, write_tree
from ruota_docs.records import provenance, reason_codes
from ruota_docs.run.device import probe
from ruota_docs.blocks.terms import parse
from ruota_docs.run.conditions import unmet_reason


def probe_env(probe_dir) -> dict[str, str]:
    """A sub-run whose blocks report through ``probe_dir``, a folder beside the project, named
    by their ``run: env=PROBE_DIR``: the sandbox lets a page write only in its own folder, so
    these runs take the fallback (the sandbox's own cases: tests/faults/test_fault_sandbox.py)."""
    return clean_env(PROBE_DIR=str(probe_dir), RUOTA_DOCS_ISOLATION="user")


def openings(text: str) -> list[int]:
    """1-based lines of the opening fences of a page (every fence here names a language)."""
    return [n for n, line in enumerate(textwrap.dedent(text).lstrip("\n").splitlines(), 1)
            if re.match(r"\s*(```|~~~)\S", line)]


NAMESPACE = """
    # Espacio de nombres { #namespace }

    <!-- run: env=PROBE_DIR -->
    ```python
    import os, pathlib, sys, types
    shared = 41
    os.environ["RUOTA_LEAK"] = "from the first page"
    sys.modules["ruota_left_behind"] = types.ModuleType("ruota_left_behind")
    pathlib.Path(os.environ["PROBE_DIR"], "cwd.txt").write_text(os.getcwd())
    pathlib.Path("made-here.txt").write_text("in the page's folder")
    print("cwd", os.getcwd())
    ```

    ```python
    shared += 1
    assert pathlib.Path("made-here.txt").exists()
    print("shared", shared)
    ```

    ```pycon
    >>> shared
    42
    ```

    ```pycon
    >>> shared + 1
    0
    ```

    ```python
    print("still running", shared)
    ```
    """

ENV = """
    # Entorno { #env }

    <!-- run: env=PROBE_DIR -->
    ```python
    import os, pathlib, sys
    assert "RUOTA_LEAK" not in os.environ, os.environ["RUOTA_LEAK"]
    assert "shared" not in globals()
    assert "ruota_left_behind" not in sys.modules
    # another folder than the first page's, which holds nothing of it
    assert os.getcwd() != pathlib.Path(os.environ["PROBE_DIR"], "cwd.txt").read_text()
    assert not pathlib.Path("made-here.txt").exists()
    print("clean")
    ```
    """

RAISE = """
    # Error { #error }

    ```python
    before = "set"
    ```

    ```python
    value = 1
    raise ValueError("boom from the page")
    ```

    ```python
    print("after the error", before, value)
    ```
    """

ABORT = """
    # Abort { #abort }

    ```python
    import os
    os.abort()
    ```

    ```python
    print("never")
    ```

    <!-- run: safe -->
    ```bash
    echo never
    ```
    """

EXIT = """
    # Exit { #exit }

    ```python
    import os
    os._exit(3)
    ```

    ```python
    print("never")
    ```
    """

HANG = """
    # Hang { #hang }

    <!-- run: timeout=2 env=PROBE_DIR -->
    ```python
    import os, pathlib, subprocess, time
    subprocess.Popen(["sleep", "4712"])  # a child of its own, which must end with it
    pathlib.Path(os.environ["PROBE_DIR"], "hang.pid").write_text(str(os.getpid()))
    time.sleep(120)
    ```

    ```python
    print("never")
    ```
    """

SHELL = """
    # Shell { #shell }

    ```bash
    echo unexplained
    ```

    <!-- run: safe -->
    ```bash
    echo "from bash" > note.txt
    cat note.txt
    ```

    <!-- run: skip reason="instala paquetes del sistema" -->
    ```bash
    sudo apt-get install -y rocm
    ```
    """

DIRECTIVE = """
    # Directiva { #directive }

    <!-- requirs: red -->
    ```python
    pass
    ```
    """

INCLUDE = """
    # Include { #include }

    <!-- requires: cpu gpu -->
    ```python
    --8<-- "g/nope.py"
    ```

    ```python title="hello.py"
    --8<-- "g/hello.py"
    ```
    """

REQUIRES = """
    # Requisitos { #requires }

    <!-- requires: rocm arch=gfx906 -->
    ```python
    print("only on a Radeon VII")
    ```

    ```json
    {"valid": true}
    ```

    ```json
    {"valid": tru}
    ```

    ```yaml
    a: [1, 2
    ```
    """

SAME = """
    # Igual { #same }

    <!-- run: env=PROBE_DIR -->
    ```python
    import os, pathlib
    counter = pathlib.Path(os.environ["PROBE_DIR"], "counter.txt")
    with counter.open("a") as handle:
        handle.write(os.environ["RUOTA_DOCS_PAGE"] + "\\n")
    print("executed")
    ```
    """

PAGES = {
    "es/a_namespace.md": NAMESPACE, "es/b_env.md": ENV, "es/c_raise.md": RAISE, "es/d_abort.md": ABORT,
    "es/e_exit.md": EXIT, "es/f_hang.md": HANG, "es/g_shell.md": SHELL, "es/h_directive.md": DIRECTIVE,
    "es/i_include.md": INCLUDE, "es/k_requires.md": REQUIRES,
    "es/same.md": SAME, "en/same.md": SAME, "fr/same.md": SAME,
}
SNIPPETS = {"snippets/g/hello.py": 'print("hello from a snippet")\n'}


@pytest.fixture(scope="module")
def machine_id() -> str:
    return probe().machine_id


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One run of the whole sample tree."""
    base = tmp_path_factory.mktemp("engine")
    probe_dir = base / "probe"
    probe_dir.mkdir()
    tree = write_tree(base / "tree", {f"docs/{k}": v for k, v in PAGES.items()} | SNIPPETS)
    result = run_pytest(tree, env=probe_env(probe_dir))
    return tree, probe_dir, result


@pytest.fixture(scope="module")
def ledger(run, machine_id):
    tree, _, _ = run
    path = tree / "verification" / provenance.record_name(machine_id)
    assert path.exists(), sorted(p.name for p in (tree / "verification").iterdir())
    return read_ledger(path)


def entry(ledger, page, index):
    return ledger["blocks"][f"{page}#{index}"]


def line(page, index):
    return openings(PAGES[page])[index]


# -- the run as a whole -----------------------------------------------------------------------------------
def test_every_block_is_reported(run):
    _, _, result = run
    results = outcomes(result.stdout)
    assert len(results) == sum(len(openings(v)) for v in PAGES.values()), result.stdout[-3000:]
    assert result.returncode == 1


def test_ledger_describes_this_machine(ledger, machine_id):
    assert (ledger["schema"], ledger["kind"], ledger["machine_id"]) == (3, "ruota-docs/ledger", machine_id)
    assert ledger["machine"]["machine_id"] == machine_id
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", ledger["updated"])


def test_summary_line(run, machine_id):
    _, _, result = run
    assert f"blocks recorded in verification/{provenance.record_name(machine_id)}" in result.stdout
    assert "2 credited from an identical translation run once" in result.stdout


# -- one namespace per page, in order, in a temporary directory ---------------------------------------------
def test_namespace_is_shared_in_order(run, ledger):
    page = "es/a_namespace.md"
    assert [entry(ledger, page, i)["outcome"] for i in range(5)] == ["passed", "passed", "passed", "failed", "passed"]
    assert entry(ledger, page, 1)["output"] == "shared 42\n"
    assert entry(ledger, page, 4)["output"] == "still running 42\n"
    assert [entry(ledger, page, i)["line"] for i in range(5)] == openings(NAMESPACE)


def test_doctest_failure_is_reported(run, ledger):
    _, _, result = run
    failed = entry(ledger, "es/a_namespace.md", 3)
    assert failed["reason"] == "1 of 1 doctest examples failed"
    assert "Expected:\n    0\nGot:\n    43" in failed["error"]
    # the doctest names the page line of its example
    n = line("es/a_namespace.md", 3)
    assert f'File "es/a_namespace.md:{n}", line {n + 1}' in failed["error"]
    assert f"es/a_namespace.md:{line('es/a_namespace.md', 3)}: 1 of 1 doctest examples failed" in result.stdout
    # the doctest runner's own summary is not what the block printed
    assert "Test Failed" not in failed["output"]


def test_cwd_is_a_temporary_folder_removed_afterwards(run, ledger):
    tree, probe_dir, _ = run
    cwd = Path((probe_dir / "cwd.txt").read_text())
    assert cwd.name.startswith("ruota-page-")
    assert cwd.parent == Path(tempfile.gettempdir())
    assert not cwd.exists()
    assert not list(tree.rglob("made-here.txt")) and not list(tree.rglob("note.txt"))
    # the published output never shows the machine's folder
    assert entry(ledger, "es/a_namespace.md", 0)["output"] == "cwd <page-dir>\n"


def test_nothing_of_a_page_reaches_the_next(ledger):
    """Globals, environment, imported modules, working folder and its files: each page its own."""
    assert entry(ledger, "es/b_env.md", 0)["outcome"] == "passed"
    assert entry(ledger, "es/b_env.md", 0)["output"] == "clean\n"


# -- failures -----------------------------------------------------------------------------------------------
def test_raising_block(run, ledger):
    _, _, result = run
    page, n = "es/c_raise.md", line("es/c_raise.md", 1)
    failed = entry(ledger, page, 1)
    assert (failed["outcome"], failed["reason"]) == ("failed", "ValueError: boom from the page")
    assert f'File "{page}:{n}", line 2, in <module>' in failed["error"]
    assert "worker.py" not in failed["error"]
    assert f"{page}:{n}: ValueError: boom from the page" in result.stdout
    # an exception does not end the page: the next block still runs with the namespace
    assert entry(ledger, page, 2)["output"] == "after the error set 1\n"


@pytest.mark.parametrize(("page", "why"), [
    ("es/d_abort.md", "the page's process died (SIGABRT)"),
    ("es/e_exit.md", "the page's process died (exit status 3)"),
    ("es/f_hang.md", "timed out after 2 s"),
])
def test_crash_and_later_blocks(run, ledger, page, why):
    _, _, result = run
    first = entry(ledger, page, 0)
    assert (first["outcome"], first["reason"]) == ("failed", why)
    assert f"{page}:{line(page, 0)}: {why}" in result.stdout
    later = [e for e in ledger["blocks"].values() if e["page"] == page and e["index"] > 0]
    assert later and all(e["outcome"] == "skipped" for e in later)
    for e in later:
        assert e["reason"] == f"not run: an earlier block at line {line(page, 0)} ended the page's process ({why})"
    assert all(outcomes(result.stdout)[(page, line(page, i))] == "SKIPPED" for i in range(1, len(later) + 1))


def test_a_dead_process_is_recorded_as_codes(ledger):
    first, later = entry(ledger, "es/e_exit.md", 0), entry(ledger, "es/e_exit.md", 1)
    died = {"code": "died", "args": {"ended": {"exit_status": 3}}}
    assert first["reason_code"] == died
    assert later["reason_code"] == {"code": "page_stopped", "args": {"cause": {
        "code": "page_ended", "args": {"line": line("es/e_exit.md", 0), "why": died}}}}
    assert entry(ledger, "es/f_hang.md", 0)["reason_code"] == {"code": "timeout", "args": {"seconds": 2.0}}


def test_every_reason_is_the_english_of_its_code(ledger):
    coded = 0
    for key, item in ledger["blocks"].items():
        if item["reason"] is None:
            assert item["reason_code"] is None, key
            continue
        assert reason_codes.problems(item["reason_code"]) == [], key
        assert reason_codes.Reason.from_record(item["reason_code"]).english() == item["reason"], key
        coded += 1
    assert coded > 10


def _running(*argv: str) -> list[int]:
    """Processes of this machine whose command line is ``argv``, seen from outside any sandbox."""
    wanted = ("\0".join(argv) + "\0").encode()
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and (proc / "cmdline").read_bytes() == wanted:
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def test_hung_block_is_killed(run, ledger):
    _, probe_dir, _ = run
    assert 1.9 < entry(ledger, "es/f_hang.md", 0)["duration"] < 30
    assert (probe_dir / "hang.pid").read_text().isdigit()  # it did start; its pid is its sandbox's own
    # nothing of it is left, its child included (a pid seen from inside a sandbox names another process here)
    assert _running("sleep", "4712") == []


def test_abort_output_names_the_block(ledger):
    assert 'File "es/d_abort.md:3"' in entry(ledger, "es/d_abort.md", 0)["output"]


# -- policy ----------------------------------------------------------------------------------------------------
def test_shell_blocks(run, ledger):
    _, _, result = run
    page = "es/g_shell.md"
    unexplained, safe, skipped = (entry(ledger, page, i) for i in range(3))
    assert unexplained["outcome"] == "failed"
    assert (f"{page}:{line(page, 0)}: bash block is neither marked safe to run (<!-- run: safe -->) nor explained "
            f'(<!-- run: skip reason="…" -->)') in result.stdout
    assert (safe["outcome"], safe["output"]) == ("passed", "from bash\n")
    assert (skipped["outcome"], skipped["reason"]) == ("skipped", "not run: instala paquetes del sistema")


def test_a_failed_shell_block_names_the_command_that_failed(tmp_path):
    page = ("# P { #p }\n\n<!-- run: safe -->\n```console\n$ echo hola\n$ false\n$ echo nunca\n```\n\n"
            "<!-- run: safe -->\n```bash\nls -A\n```\n")
    tree = write_tree(tmp_path, {"docs/es/p.md": page})
    result = run_pytest(tree, "--record", "out.json")
    assert result.returncode == 1
    assert "es/p.md:4: the shell block ended with exit status 1 at `false`\n--- output ---\nhola\n" in result.stdout
    blocks = read_ledger(tree / "out.json")["blocks"]
    assert blocks["es/p.md#0"]["output"] == "hola\n"  # what readers see: the commands' own output
    assert ".ruota-docs" not in blocks["es/p.md#1"]["output"]  # the next block never sees how it was found


def test_the_record_says_which_tier_a_passed_block_reached(tmp_path):
    page = ("# P { #p }\n\n<!-- evidence: compiled arch=gfx1102 -->\n```python\nprint('built')\n```\n\n"
            "<!-- evidence: compiled arch=gfx906 -->\n```python\nraise SystemExit('no compiler')\n```\n\n"
            "```python\nprint('plain')\n```\n\n<!-- requires: gpu -->\n<!-- evidence: checked -->\n```python\nprint(1)\n```\n")
    tree = write_tree(tmp_path, {"docs/es/p.md": page})
    run_pytest(tree, "--record", "out.json")
    blocks = read_ledger(tree / "out.json")["blocks"]
    assert [(blocks[f"es/p.md#{n}"]["outcome"], blocks[f"es/p.md#{n}"].get("tier", "absent")) for n in range(3)] == [
        ("passed", "compiled"), ("failed", "absent"), ("passed", "absent")]
    on_gpu = probe().backend != "cpu"  # without a GPU the block is skipped and reaches none
    assert (blocks["es/p.md#3"]["outcome"], blocks["es/p.md#3"].get("tier", "absent")) == (
        ("passed", "checked") if on_gpu else ("skipped", "absent"))


def test_unknown_directive_is_reported_with_page_and_line(run, ledger):
    _, _, result = run
    message = "unknown directive 'requirs': did you mean 'requires'? (known: requires, run, evidence, chart, verification-status, card-matrix, value, fact, skip)"
    assert f"es/h_directive.md:3: {message}" in result.stdout
    failed = entry(ledger, "es/h_directive.md", 0)
    # the block (its fence, line 4) fails; the message names the directive's line
    assert (failed["outcome"], failed["line"], failed["reason"]) == ("failed", 4, message)
    assert outcomes(result.stdout)[("es/h_directive.md", 4)] == "FAILED"


def test_missing_include_is_reported_with_page_and_line(run, ledger):
    _, _, result = run
    page = "es/i_include.md"
    # the line of the include, inside the fence
    assert f"{page}:{line(page, 0) + 1}: Snippet at path 'g/nope.py' could not be found" in result.stdout
    assert entry(ledger, page, 0)["outcome"] == "failed"
    assert entry(ledger, page, 1)["output"] == "hello from a snippet\n"


def test_requirements_and_data(run, ledger):
    page = "es/k_requires.md"
    skipped = entry(ledger, page, 0)
    assert (skipped["outcome"], skipped["reason"]) == ("skipped", unmet_reason(parse("rocm arch=gfx906"), probe())
                                                       or pytest.skip("this machine is a ROCm gfx906"))
    assert [entry(ledger, page, i)["outcome"] for i in (1, 2, 3)] == ["passed", "failed", "failed"]
    assert entry(ledger, page, 2)["reason"].startswith("invalid json: Expecting value: line 1 column 11")
    assert entry(ledger, page, 3)["reason"].startswith("invalid yaml: ")


# -- translations run once ---------------------------------------------------------------------------------------
def test_identical_translations_run_once(run, ledger):
    _, probe_dir, result = run
    assert (probe_dir / "counter.txt").read_text() == "es/same.md\n"
    es, en, fr = (entry(ledger, f"{lang}/same.md", 0) for lang in ("es", "en", "fr"))
    assert es["reused_from"] is None
    assert en["reused_from"] == fr["reused_from"] == "es/same.md"
    assert es["outcome"] == en["outcome"] == fr["outcome"] == "passed"
    assert es["output"] == en["output"] == fr["output"] == "executed\n"
    assert es["sha256"] == en["sha256"] == fr["sha256"]
    results = outcomes(result.stdout)
    assert results[("en/same.md", 4)] == results[("fr/same.md", 4)] == "PASSED"


@pytest.fixture(scope="module")
def same_tree(tmp_path_factory):
    return tmp_path_factory.mktemp("same")


def test_reuse_ledger_reads_the_record_once_and_skips_unchanged_pages(tmp_path, machine_id):
    probe_dir = tmp_path / "probe"
    probe_dir.mkdir()
    other = "# Otra { #other }\n\n```python\nprint('otra')\n```\n"
    tree = write_tree(tmp_path / "tree", {"docs/es/same.md": SAME, "docs/es/other.md": other})
    env = probe_env(probe_dir)
    assert run_pytest(tree, env=env).returncode == 0
    first = read_ledger(tree / "verification" / provenance.record_name(machine_id))["blocks"]
    (tree / "docs/es/other.md").write_text(other.replace("'otra'", "'otra vez'"), encoding="utf-8")
    again = run_pytest(tree, "--reuse-record", env=env)
    assert again.returncode == 0, again.stdout[-3000:]
    assert (probe_dir / "counter.txt").read_text() == "es/same.md\n"  # not executed again
    blocks = read_ledger(tree / "verification" / provenance.record_name(machine_id))["blocks"]
    assert blocks["es/same.md#0"]["ran_at"] == first["es/same.md#0"]["ran_at"]
    assert blocks["es/same.md#0"]["output"] == "executed\n"
    assert blocks["es/other.md#0"]["output"] == "otra vez\n"  # changed: it ran
    assert blocks["es/same.md#0"]["reused_from"] is None  # its own earlier run: no credit


def _accepted(tree: Path, machine_id: str) -> list:
    from ruota_docs.records import check as record_check
    path = tree / "verification" / provenance.record_name(machine_id)
    report = record_check.check_file(path, tree, tree / "docs")
    return [f"{p.where}: {p.message}" for p in report.problems if p.severity == "error"]


@pytest.mark.parametrize("runs", [("--reuse-record",), ("--reuse-record", "--reuse-record"), ("", "--reuse-record"),
                                  ("--reuse-record", ""), ("interrupted", "--reuse-record")])
def test_a_resumed_run_writes_a_record_that_record_check_accepts(tmp_path, machine_id, runs):
    """Every mix of fresh, resumed and interrupted runs leaves a record the engine's own check accepts,
    translations credited from one another included (an owner's `contribute` resumes this way)."""
    probe_dir = tmp_path / "probe"
    probe_dir.mkdir()
    broken = "# Rota { #broken }\n\n```python\nprint('antes')\n```\n\n```python\nraise SystemExit(3)\n```\n"
    files = {f"docs/{lang}/same.md": SAME for lang in ("es", "en", "fr")}
    tree = write_tree(tmp_path / "tree", {**files, "docs/es/broken.md": broken})
    env = probe_env(probe_dir)
    run_pytest(tree, env=env)  # a first, complete run (one page fails)
    assert _accepted(tree, machine_id) == []
    for how in runs:
        if how == "interrupted":  # a run that stopped part-way: only one page ran
            run_pytest(tree, "docs/es/broken.md", env=env)
        else:
            run_pytest(tree, *([how] if how else []), env=env)
        assert _accepted(tree, machine_id) == [], how
    blocks = read_ledger(tree / "verification" / provenance.record_name(machine_id))["blocks"]
    assert {e["reused_from"] for e in blocks.values()} <= {None, "es/same.md"}


def test_no_reuse_executes_every_translation(same_tree, machine_id):
    probe_dir = same_tree / "probe"
    probe_dir.mkdir()
    tree = write_tree(same_tree / "tree", {f"docs/{lang}/same.md": SAME for lang in ("es", "en", "fr")})
    result = run_pytest(tree, "--no-reuse", env=probe_env(probe_dir))
    assert result.returncode == 0, result.stdout[-3000:]
    assert sorted((probe_dir / "counter.txt").read_text().split()) == ["en/same.md", "es/same.md", "fr/same.md"]
    data = read_ledger(tree / "verification" / provenance.record_name(machine_id))
    assert [e["reused_from"] for e in data["blocks"].values()] == [None, None, None]
    assert "credited" not in result.stdout


# -- where the record goes ------------------------------------------------------------------------------------------
SMALL = {"docs/es/p.md": "# P { #p }\n\n```python\nprint('p')\n```\n\n```python\nprint('p2')\n```\n",
         "docs/es/q.md": "# Q { #q }\n\n```python\nprint('q')\n```\n"}


def test_no_ledger_writes_nothing(tmp_path):
    tree = write_tree(tmp_path, SMALL)
    result = run_pytest(tree, "--no-record")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "3 passed" in result.stdout
    assert not (tree / "verification").exists()
    assert "recorded in" not in result.stdout


def test_ledger_option_names_the_file(tmp_path, machine_id):
    tree = write_tree(tmp_path, SMALL)
    result = run_pytest(tree, "--record", "records/here.json")
    assert result.returncode == 0, result.stdout[-3000:]
    assert not (tree / "verification").exists()
    data = read_ledger(tree / "records/here.json")
    assert sorted(data["blocks"]) == ["es/p.md#0", "es/p.md#1", "es/q.md#0"]
    assert "3 blocks recorded in records/here.json: 3 passed" in result.stdout


def test_ledger_dir_of_the_site_config_is_where_the_record_goes(tmp_path, machine_id):
    tree = write_tree(tmp_path, SMALL)
    (tree / "mkdocs.yml").write_text(mkdocs_yml(site=True, record_dir="records/runs"), encoding="utf-8")
    result = run_pytest(tree)
    assert result.returncode == 0, result.stdout[-3000:]
    assert not (tree / "verification").exists()
    assert sorted(read_ledger(tree / "records/runs" / provenance.record_name(machine_id))["blocks"]) == ["es/p.md#0", "es/p.md#1", "es/q.md#0"]
    assert f"3 blocks recorded in records/runs/{provenance.record_name(machine_id)}: 3 passed" in result.stdout


def test_the_source_language_of_the_site_config_runs_first(tmp_path, machine_id):
    page = "# P { #p }\n\n```python\nprint('p')\n```\n"
    tree = write_tree(tmp_path, {"docs/es/p.md": page, "docs/en/p.md": page})
    (tree / "mkdocs.yml").write_text(mkdocs_yml(languages=("en", "es")), encoding="utf-8")  # i18n's default: en
    result = run_pytest(tree)
    assert result.returncode == 0, result.stdout[-3000:]
    blocks = read_ledger(tree / "verification" / provenance.record_name(machine_id))["blocks"]
    assert blocks["en/p.md#0"]["reused_from"] is None
    assert blocks["es/p.md#0"]["reused_from"] == "en/p.md"


def test_fake_device_never_writes_a_ledger(tmp_path):
    tree = write_tree(tmp_path, SMALL | {"docs/es/r.md": "# R\n\n<!-- requires: rocm arch=gfx1102 -->\n```python\nprint('r')\n```\n"})
    result = run_pytest(tree, env=clean_env(RUOTA_DOCS_FAKE_DEVICE="rocm gfx1102 AMD Radeon RX 7600 8GiB"))
    # the preview resolves requirements as on the named card ...
    assert outcomes(result.stdout)[("es/r.md", 4)] == "PASSED"
    # ... but its results describe this machine: no record is written
    assert not (tree / "verification").exists()
    assert "verification record NOT written: RUOTA_DOCS_FAKE_DEVICE is set" in result.stdout


def test_subset_runs_keep_other_pages(tmp_path, machine_id):
    tree = write_tree(tmp_path, SMALL)
    path = tree / "verification" / provenance.record_name(machine_id)
    assert run_pytest(tree).returncode == 0
    before = read_ledger(path)["blocks"]
    assert sorted(before) == ["es/p.md#0", "es/p.md#1", "es/q.md#0"]

    # p.md loses a block and changes the other: a full run of that page replaces its entries
    (tree / "docs/es/p.md").write_text("# P { #p }\n\n```python\nprint('p changed')\n```\n")
    result = run_pytest(tree, "docs/es/p.md")
    assert result.returncode == 0, result.stdout[-3000:]
    after = read_ledger(path)["blocks"]
    assert sorted(after) == ["es/p.md#0", "es/q.md#0"]
    assert after["es/p.md#0"]["output"] == "p changed\n"
    assert after["es/q.md#0"] == before["es/q.md#0"]

    # a partial run of a page (one block selected) updates that block and keeps the others
    (tree / "docs/es/q.md").write_text("# Q { #q }\n\n```python\nprint('q')\n```\n\n```python\nprint('q2')\n```\n")
    result = run_pytest(tree, "docs/es/q.md", "-k", "line:7")
    assert result.returncode == 0, result.stdout[-3000:]
    partial = read_ledger(path)["blocks"]
    assert sorted(partial) == ["es/p.md#0", "es/q.md#0", "es/q.md#1"]
    assert partial["es/q.md#1"]["output"] == "q2\n"
    assert partial["es/q.md#0"] == before["es/q.md#0"]
    assert partial["es/p.md#0"] == after["es/p.md#0"]


def test_ledger_of_another_machine_is_refused(tmp_path, machine_id):
    tree = write_tree(tmp_path, SMALL)
    other = tree / "records" / "other.json"
    other.parent.mkdir()
    text = ('{"schema": 3, "kind": "ruota-docs/ledger", "machine_id": "rocm-gfx906", "machine": {}, "updated": null, '
            '"pages": {}, "reasons": {}, "outputs": {}}\n')
    other.write_text(text)
    result = run_pytest(tree, "--record", str(other))
    assert result.returncode == 1
    assert "verification record NOT written" in result.stdout and "holds machine 'rocm-gfx906'" in result.stdout
    assert other.read_text() == text
    shutil.rmtree(tree / "records")


@pytest.mark.parametrize("runs", [("",), ("", "--reuse-ledger")])
def test_a_record_at_a_path_its_user_chose_passes_record_check(tmp_path, machine_id, runs):
    """``--ledger my.json``: the engine's record, fresh or resumed, passes ``record check`` whatever its
    name; the naming rule holds only in the records directory (verification/)."""
    from ruota_docs.records import check as record_check
    tree = write_tree(tmp_path / "tree", {f"docs/{lang}/same.md": SAME for lang in ("es", "en", "fr")})
    env = clean_env(PROBE_DIR=str(tmp_path))
    for how in runs:
        run_pytest(tree, "--ledger", "my.json", *([how] if how else []), env=env)
        report = record_check.check_file(tree / "my.json", tree, tree / "docs")
        assert [f"{p.where}: {p.message}" for p in report.problems if p.severity == "error"] == [], how
    assert read_ledger(tree / "my.json")["blocks"]


def test_a_block_written_in_an_included_markdown_file_is_reported_at_that_file_and_line(tmp_path):
    part = "Part.\n\n```python\nprint(1)\nraise ValueError('boom')\n```\n\n```made-up\nx\n```\n"
    root = write_tree(tmp_path / "site", {"docs/es/index.md": '# T { #t }\n\nIntro.\n\n--8<-- "part.md"\n',
                                          "snippets/part.md": part}, site=True)
    for lang in ("en", "fr"):
        (root / "docs" / lang).mkdir()
        (root / "docs" / lang / "index.md").write_text("# T { #t }\n\nIntro.\n", encoding="utf-8")
    ran = run_pytest(root, "docs/es", "--ledger", "my.json")
    assert "snippets/part.md:3: ValueError: boom" in ran.stdout
    assert 'File "snippets/part.md:3", line 2' in ran.stdout
    assert "snippets/part.md:8: code block with language 'made-up' has no run policy" in ran.stdout
    assert "FAILED docs/es/index.md::sybil:ruota,block:0,file:snippets/part.md,line:3" in ran.stdout
    # the record: the block is the page's, written at its line in the included file
    found = read_ledger(root / "my.json")["blocks"]["es/index.md#0"]
    assert (found["line"], found["file"], found["outcome"]) == (3, "snippets/part.md", "failed")
    built = run_mkdocs(root)
    assert built.returncode != 0 and "snippets/part.md:8: code block with language 'made-up'" in built.stderr
    (root / "snippets/part.md").write_text("Part.\n\n<!-- requires: gpu=any -->\n```python\nprint(1)\n```\n",
                                           encoding="utf-8")
    built = run_mkdocs(root)
    assert built.returncode != 0 and "snippets/part.md:3: requirement 'gpu' takes no value" in built.stderr


ISOLATED = """
    # Aislado { #isolated }

    ```python
    import os
    x = 1
    pid = os.getpid()
    ```

    <!-- run: isolate -->
    ```python
    import os
    print("x" in globals(), __name__)
    ```

    ```python
    print(x, os.getpid() == pid)
    ```
    """


def _isolated_outputs(tree: Path) -> tuple[object, list]:
    result = run_pytest(tree, "--record", "verification/here.json", env=clean_env())
    blocks = read_ledger(tree / "verification" / "here.json")["blocks"]
    return result, [blocks[f"es/isolated.md#{n}"] for n in range(3)]


def test_a_block_that_asks_runs_in_a_fresh_process_of_its_own(tmp_path):
    result, (first, isolated, after) = _isolated_outputs(write_tree(tmp_path / "tree", {"docs/es/isolated.md": ISOLATED}))
    assert result.returncode == 0, result.stdout[-3000:]
    assert isolated["output"] == "False __main__\n"
    assert after["output"] == "1 True\n"  # the page's own process goes on, its namespace whole


def test_isolation_block_runs_every_block_in_a_fresh_process(tmp_path):
    tree = write_tree(tmp_path / "tree", {"docs/es/isolated.md": ISOLATED.replace("    <!-- run: isolate -->\n", "")})
    config = tree / "mkdocs.yml"
    config.write_text(config.read_text().replace("plugins:\n", "plugins:\n  - ruota_docs:\n      isolation: block\n", 1))
    result, (first, second, third) = _isolated_outputs(tree)
    assert result.returncode == 1, result.stdout[-3000:]
    assert second["output"] == "False __main__\n"
    assert (third["outcome"], third["reason"]) == ("failed", "NameError: name 'x' is not defined")


SETUP_PAGE = """\
# Setup { #setup }

```python
import os
import random
print(os.environ["SITE_FLAG"], random.randint(1, 6), "helper" in globals())
#> on 3 False
```

```python
from pprint import pprint
print("through the set-up's own print")
#> through the set-up's own print
pprint({"not": "stated"})
```
"""


def test_the_site_setup_file_runs_in_each_page_process_before_its_blocks(tmp_path):
    tree = write_tree(tmp_path / "tree", {"docs/es/setup.md": SETUP_PAGE, "docs_setup.py":
                                          "import os, random\nos.environ['SITE_FLAG'] = 'on'\n"
                                          "random.randint = lambda *a: 3\nhelper = 1\nimport builtins\n"
                                          "_print = builtins.print\n"
                                          "builtins.print = lambda *a, **k: _print(*a, **k)\n"})
    config = tree / "mkdocs.yml"
    config.write_text(config.read_text().replace("plugins:\n", "plugins:\n  - ruota_docs:\n      setup: docs_setup.py\n",
                                                 1))
    result = run_pytest(tree, "--record", "verification/here.json", env=clean_env())
    assert result.returncode == 0, result.stdout[-3000:]
    config.write_text(config.read_text().replace("docs_setup.py", "missing.py"))
    result = run_pytest(tree, "--no-record", env=clean_env())
    assert "setup: missing.py is not a file" in result.stdout + result.stderr


GROUPED = """\
# Grupo { #grouped }

```python {group="model"}
x = 1
```

```python {group="model"}
print(x)
#> 1
```

```python
print("x" in globals())
#> False
```
"""


def test_isolation_block_keeps_a_pytest_examples_group_together(tmp_path):
    tree = write_tree(tmp_path / "tree", {"docs/es/grouped.md": GROUPED})
    config = tree / "mkdocs.yml"
    text = config.read_text()
    if "attr_list" not in text:
        text = text.replace("markdown_extensions:\n", "markdown_extensions:\n  - attr_list\n", 1)
    config.write_text(text.replace("plugins:\n", "plugins:\n  - ruota_docs:\n      isolation: block\n", 1))
    result = run_pytest(tree, "--record", "verification/here.json", env=clean_env())
    assert result.returncode == 0, result.stdout[-3000:]
    blocks = read_ledger(tree / "verification" / "here.json")["blocks"]
    assert [blocks[f"es/grouped.md#{n}"]["outcome"] for n in range(3)] == ["passed"] * 3
