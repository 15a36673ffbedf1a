"""Blocks that misbehave: each page runs in its own process, so the run goes on and says why.

One throwaway project holds a page per fault under ``docs/es/faults/``; its record already
holds an earlier run of ``docs/es/keep.md``. The real ``python -m pytest`` then runs the
fault pages once, with ``RUOTA_DOCS_MEMORY_LIMIT=1GiB``, and each test checks one fault:
the message names the page and line, later pages still run, what was recorded before
is still there, and the exit status says the run failed.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from _support import reader_folder
from faulttree import DocTree, alive, compose, fence, running

MEMORY_LIMIT = "1GiB"
#: Run as root, the pages run as the unprivileged user (what CI does): faults must be handled across that switch.
AS_ROOT = os.geteuid() == 0
pytestmark = pytest.mark.switch  # CI runs it again as root: the faults across the switch of users
#: RLIMIT_AS and /proc/<pid>/environ, as on the CI machines
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

PAGES = {
    "a_raise": compose(
        "Raise",
        fence("print('before the error')\nraise ValueError('boom from a block')"),
        fence("print('the page goes on')"),
    ),
    "b_abort": compose("Abort", fence("import os\nprint('aborting', flush=True)\nos.abort()"), fence("print('unreachable')")),
    "c_segv": compose("Segfault", fence("import ctypes\nctypes.string_at(0)"), fence("print('unreachable')")),
    "d_exit": compose("Exit", fence("import os\nos._exit(3)"), fence("print('unreachable')")),
    "e_hang": compose(
        "Hang",
        fence("import os, subprocess, time\nsubprocess.Popen(['sleep', '616'])\nprint('hanging pid', os.getpid(), flush=True)\n"
              "time.sleep(600)", directives="<!-- run: timeout=2 -->"),
        fence("print('unreachable')"),
    ),
    "f_memory": compose(
        "Memory",
        # 64 MiB at a time until the address-space limit says no
        fence("chunks = []\nwhile True:\n    chunks.append(bytearray(64 * 2**20))"),
        fence("held = len(chunks) * 64\ndel chunks\nprint('held MiB', held)\nprint('recovered', len(bytearray(2**20)))"),
    ),
    "g_flood": compose(
        "Flood",
        fence("import sys\nline = 'y' * 99 + '\\n'\nprint('FIRST LINE')\nfor _ in range(400_000):\n    sys.stdout.write(line)\nprint('LAST LINE')"),
    ),
    "h_repo": compose(
        "Repository",
        fence("open(REPO + '/docs/es/stray.md', 'w').write('oops')"),
        fence("with open(REPO + '/snippets/demo/hello.py', 'a') as f:\n    f.write('# appended by a block\\n')"),
        fence("open('result.txt', 'w').write('fine: the working directory')\nimport os\nos.makedirs('out/deep', exist_ok=True)"),
        # FAULT_REPO reaches the page because a block names it (the rest of the environment does not)
        fence('cd "$FAULT_REPO"\necho "notes" > notes.txt', lang="bash", directives="<!-- run: safe env=FAULT_REPO -->"),
        # what git ignores is not the repository's content (a build or cache folder)
        fence("import os\nos.makedirs(REPO + '/build/cache', exist_ok=True)\nopen(REPO + '/build/cache/x.bin', 'wb').write(b'x')"),
    ),
    "i_env_a": compose(
        "Environment A",
        fence("import os, sys\nos.environ['FAULT_LEAK'] = 'leaked'\nos.environ['PATH'] = '/nowhere'\nsys.path.insert(0, '/nowhere')\nos.chdir('/')"),
    ),
    "j_env_b": compose(
        "Environment B",
        fence("import os, sys, shutil\nprint('leak', os.environ.get('FAULT_LEAK'), '/nowhere' in sys.path, os.getcwd() == '/')\n"
              "assert 'FAULT_LEAK' not in os.environ\nassert shutil.which('sh'), os.environ['PATH']"),
    ),
    "k_orphans": compose(
        "Orphans",
        fence("""
            import os, subprocess, time
            plain = subprocess.Popen(['sleep', '617'])
            session = subprocess.Popen(['sleep', '618'], start_new_session=True)
            # a daemon: forks, starts a new session, and its parent exits at once
            subprocess.run(['setsid', 'sh', '-c', 'sleep 619 & echo $! > daemon.pid'], check=True)
            for _ in range(200):
                if os.path.exists('daemon.pid') and open('daemon.pid').read().strip():
                    break
                time.sleep(0.01)
            daemon = int(open('daemon.pid').read())
            for pid in (plain.pid, session.pid, daemon):
                os.kill(pid, 0)  # all alive while the page runs
            print('python children', plain.pid, session.pid, daemon)
        """),
        fence("""
            sleep 620 &
            echo "shell children $! $(setsid sh -c 'sleep 621 >/dev/null 2>&1 & echo $!')"
        """, lang="bash", directives="<!-- run: safe -->"),
    ),
    "l_stdin": compose(
        "Stdin",
        fence("import sys, time\nstarted = time.time()\nassert sys.stdin.read() == ''\nprint('stdin empty after', round(time.time() - started, 2))",
              directives="<!-- run: timeout=10 -->"),
        fence("input('your name? ')", directives="<!-- run: timeout=10 -->"),
        fence("cat\necho 'cat saw EOF'", lang="bash", directives="<!-- run: safe timeout=10 -->"),
    ),
    "z_last": compose("Last", fence("print('the last page ran')")),
}


def page(name: str) -> str:
    return f"es/faults/{name}.md"


def line(name: str, index: int) -> int:
    return PAGES[name][1][index]


@pytest.fixture(scope="module")
def faults(reader_tmp_root):
    """The project, the record before the fault run, and the fault run itself."""
    tree = DocTree(reader_folder(reader_tmp_root, "blocks") / "project")
    tree.snippet("demo/hello.py", "print('hello')\n")
    (tree.root / ".gitignore").write_text("/build/\n/site/\n")
    subprocess.run(["git", "init", "-q", str(tree.root)], check=True)
    tree.page("es/keep.md", compose("Keep", fence("print('recorded before the faults')"))[0], langs=("es",))
    first = tree.pytest("docs/es/keep.md")
    assert first.returncode == 0, first
    before = tree.ledger()
    for name, (text, _) in PAGES.items():
        text = text.replace("REPO + '", f"{str(tree.root)!r} + '")
        tree.page(page(name), text, langs=("es",))
    if AS_ROOT:
        # the pages run as the unprivileged user: let it write where h_repo's blocks write, so
        # that what stops them is the guard, not the files' permissions
        for path in (tree.root, tree.docs / "es"):
            path.chmod(0o777)
        (tree.snippets / "demo/hello.py").chmod(0o666)
    run = tree.pytest("docs/es/faults", RUOTA_DOCS_MEMORY_LIMIT=MEMORY_LIMIT, FAULT_REPO=str(tree.root), timeout=300)
    return tree, before, run


@pytest.fixture(scope="module")
def entries(faults):
    tree, _, _ = faults
    return {name: tree.entries(page(name)) for name in PAGES}


def outcome_of(run, name: str, index: int) -> str:
    """PASSED / FAILED / SKIPPED of one block in the run's -rA summary."""
    path = f"docs/{page(name)}"
    for found in re.finditer(rf"^(PASSED|FAILED) {re.escape(path)}::\S+line:(\d+)\b", run.stdout, re.M):
        if int(found[2]) == line(name, index):
            return found[1]
    if re.search(rf"^SKIPPED \[\d+\] {re.escape(path)}:{line(name, index)}:", run.stdout, re.M):
        return "SKIPPED"
    raise AssertionError(f"{path}:{line(name, index)} not in the summary:\n{run}")


def test_the_run_goes_on_and_fails(faults, entries):
    _, _, run = faults
    assert run.returncode == 1, run
    assert entries["z_last"][0]["outcome"] == "passed"
    assert entries["z_last"][0]["output"] == "the last page ran\n"
    assert re.search(r"^\d+ failed, \d+ passed, \d+ skipped in", run.stdout.splitlines()[-1]), run
    # fault pages are all there, none missing from the record
    assert all(entries[name] for name in PAGES), {k: len(v) for k, v in entries.items()}


def test_nothing_recorded_before_is_lost(faults):
    tree, before, _ = faults
    after = tree.ledger()
    kept = {k: v for k, v in before["blocks"].items()}
    assert kept and all(after["blocks"].get(k) == v for k, v in kept.items())


def test_raise(faults, entries):
    _, _, run = faults
    failed, after = entries["a_raise"]
    assert (failed["outcome"], failed["reason"]) == ("failed", "ValueError: boom from a block")
    assert failed["output"] == "before the error\n"
    assert f'File "{page("a_raise")}:{line("a_raise", 0)}", line 2' in failed["error"]
    assert f"{page('a_raise')}:{line('a_raise', 0)}: ValueError: boom from a block" in run.stdout
    assert (after["outcome"], after["output"]) == ("passed", "the page goes on\n")


@pytest.mark.parametrize("name, why", [
    ("b_abort", "the page's process died (SIGABRT)"),
    ("c_segv", "the page's process died (SIGSEGV)"),
    ("d_exit", "the page's process died (exit status 3)"),
    ("e_hang", "timed out after 2 s"),
])
def test_process_killers(faults, entries, name, why):
    _, _, run = faults
    failed, later = entries[name]
    assert (failed["outcome"], failed["reason"]) == ("failed", why)
    assert f"{page(name)}:{line(name, 0)}: {why}" in run.stdout
    assert outcome_of(run, name, 0) == "FAILED"
    # the rest of the page is not run, and says why
    assert later["outcome"] == "skipped"
    assert later["reason"] == f"not run: an earlier block at line {line(name, 0)} ended the page's process ({why})"
    assert outcome_of(run, name, 1) == "SKIPPED"


def test_crash_output_points_at_the_block(entries):
    # faulthandler's traceback names the page and line of the block that crashed
    for name in ("b_abort", "c_segv"):
        assert f'File "{page(name)}:{line(name, 0)}"' in entries[name][0]["output"], entries[name][0]["output"]


def test_hang_is_killed_after_its_timeout(entries):
    hung = entries["e_hang"][0]
    assert 1.9 < hung["duration"] < 20
    if hung["isolation"] != "sandbox":  # in the sandbox, the pid is its namespace's
        pid = int(re.search(r"hanging pid (\d+)", hung["output"])[1])
        assert not alive(pid)
    assert running("sleep", "616") == []


@LINUX
def test_memory_exhaustion_is_a_memory_error(faults, entries):
    _, _, run = faults
    exhausted, recovered = entries["f_memory"]
    assert (exhausted["outcome"], exhausted["reason"]) == ("failed", "MemoryError")
    assert exhausted["duration"] < 30
    assert f"{page('f_memory')}:{line('f_memory', 0)}: MemoryError" in run.stdout
    # the limit held: less than 1 GiB was ever handed out, and the page's process lives on
    assert recovered["outcome"] == "passed", recovered
    held = int(re.search(r"held MiB (\d+)", recovered["output"])[1])
    assert 0 < held < 1024


def test_invalid_memory_limit_is_a_clear_error(tree):
    text, lines = compose("Memory", fence("print('never')"))
    tree.page("es/limit.md", text, langs=("es",))
    run = tree.pytest(RUOTA_DOCS_MEMORY_LIMIT="lots")
    assert run.returncode == 1, run
    assert (f"es/limit.md:{lines[0]}: RUOTA_DOCS_MEMORY_LIMIT='lots' is not a size: write bytes or a number with a unit, "
            "e.g. 1GiB") in run.stdout


def test_flood_of_output_stays_bounded(entries):
    flood = entries["g_flood"][0]
    assert flood["outcome"] == "passed"
    assert flood["duration"] < 10
    assert len(flood["output"]) < 25_000
    assert flood["output"].startswith("FIRST LINE\n")
    assert flood["output"].endswith("LAST LINE\n")
    omitted = int(re.search(r"… \[([\d,]+) bytes of output omitted\] …", flood["output"])[1].replace(",", ""))
    assert omitted > 39_000_000


def test_writing_into_the_repository_fails_the_block(faults, entries):
    tree, _, run = faults
    created, modified, local, shell, ignored = entries["h_repo"]
    # writing in the working directory is what blocks should do
    assert local["outcome"] == "passed", local
    if created["isolation"] == "sandbox":
        # the repository is read-only in the sandbox: the block cannot change it at all
        stray = str(tree.docs / "es/stray.md")
        assert (created["outcome"], created["reason"]) == ("failed", f"OSError: [Errno 30] Read-only file system: '{stray}'")
        assert modified["reason"] == ("OSError: [Errno 30] Read-only file system: "
                                      f"'{tree.snippets / 'demo/hello.py'}'")
        assert shell["outcome"] == "failed" and "Read-only file system" in shell["output"], shell
        assert ignored["outcome"] == "failed" and "Read-only file system" in ignored["reason"], ignored
        assert not (tree.docs / "es/stray.md").exists() and not (tree.root / "notes.txt").exists()
        assert (tree.snippets / "demo/hello.py").read_text() == "print('hello')\n"
        return
    assert created["outcome"] == "failed"
    assert created["reason"].startswith("wrote into the repository instead of its working directory: docs/es/stray.md (created)")
    assert modified["outcome"] == "failed"
    assert modified["reason"].startswith("wrote into the repository instead of its working directory: "
                                         "snippets/demo/hello.py (modified)")
    assert f"{page('h_repo')}:{line('h_repo', 0)}: wrote into the repository" in run.stdout
    assert (shell["outcome"], shell["reason"].split(" (write")[0]) == (
        "failed", "wrote into the repository instead of its working directory: notes.txt (created)")
    # git-ignored folders are not content
    assert ignored["outcome"] == "passed", ignored
    assert (tree.root / "build/cache/x.bin").exists()
    # nothing is restored behind the author's back: the files are there to look at
    assert (tree.docs / "es/stray.md").read_text() == "oops"


def test_environment_does_not_leak_to_the_next_page(entries):
    changed, checked = entries["i_env_a"][0], entries["j_env_b"][0]
    assert changed["outcome"] == "passed"
    assert checked["outcome"] == "passed", checked
    assert checked["output"] == "leak None False False\n"


@LINUX
def test_children_do_not_outlive_the_page(entries):
    python, shell = entries["k_orphans"]
    assert python["outcome"] == "passed", python
    assert shell["outcome"] == "passed", shell
    assert len(python["output"].split()[2:] + shell["output"].split()[2:]) == 5, (python["output"], shell["output"])
    children = [("sleep", str(n)) for n in range(617, 622)]
    deadline = time.time() + 5
    while any(running(*argv) for argv in children) and time.time() < deadline:
        time.sleep(0.05)
    left = [pid for argv in children for pid in running(*argv)]
    for pid in left:  # do not leave them behind when the engine did
        os.kill(pid, signal.SIGKILL)
    assert left == []


def test_stdin_is_empty(faults, entries):
    _, _, run = faults
    read, prompt, shell = entries["l_stdin"]
    assert read["outcome"] == "passed", read
    assert float(read["output"].split()[-1]) < 1
    assert (prompt["outcome"], prompt["reason"]) == ("failed", "EOFError: EOF when reading a line")
    assert prompt["duration"] < 5
    assert (shell["outcome"], shell["output"]) == ("passed", "cat saw EOF\n")


def test_pages_ran_as_readers_run_them(entries):
    """Run as root, every block above ran as the unprivileged user (and the engine, root, still
    killed what hung and what was left running); otherwise as the user running the suite."""
    ran = [e for name in PAGES for e in entries[name] if e["outcome"] != "skipped"]
    assert ran and all(e["as_root"] is False for e in ran), [(e["page"], e["as_root"]) for e in ran]
    skipped = [e for name in PAGES for e in entries[name] if e["outcome"] == "skipped"]
    assert skipped and all(e["as_root"] is None for e in skipped)
