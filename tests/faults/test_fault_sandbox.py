"""The sandbox pages run in (bubblewrap): tried as an attacker and as a careless author would.

One throwaway project holds a page per escape under ``docs/es/sandbox/``; the real
``python -m pytest`` runs them once, with secrets in its environment and a server listening on
the machine's loopback, and each test checks one escape: daemons whatever their environment,
secrets, the network, the repository and the records, timeouts that close their descriptors.
Then runs of their own: a killed test run, faults of the machine (no space left, a read-only
record folder, no temporary directory), and the user's own writes during a run.

Where bubblewrap cannot run here, the tests of the sandbox are skipped, saying so; the fallback
(the unprivileged user) has its own tests (test_fault_blocks, test_fault_records).
"""

from __future__ import annotations

import json
import os
import re
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from _support import REPO, reader_folder
from faulttree import DocTree, bwrap_runs, compose, fence, running, survivors

SANDBOX = pytest.mark.skipif(not shutil.which("bwrap") or not bwrap_runs(),
                             reason="bubblewrap cannot run on this machine: pages run as the unprivileged user")
#: Secrets of the invoking user: none may reach a block, its output or the record.
SECRETS = {"GH_TOKEN": "ghp_NOTAREALTOKEN0000sandbox", "FAKE_DB_PASSWORD": "hunter2-not-real",
           "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI-not-real-sandbox"}


def _pages(port: int, root: str, home: str) -> dict[str, tuple[str, list[int]]]:
    """``home``: the home directory of the user running the tests (the page lists what it sees of it)."""
    return {
        "a_daemons": compose("Daemons", fence("""
            import subprocess
            # three ways out of the page's process group and environment
            subprocess.Popen(["setsid", "env", "-i", "sleep", "631"])
            subprocess.Popen(["sleep", "632"], env={}, start_new_session=True)
            subprocess.run(["setsid", "sh", "-c", "sleep 633 >/dev/null 2>&1 &"], check=True)
            print("started")
        """)),
        "b_secrets": compose("Secrets", fence("""
            import glob, os
            print(sorted(os.environ))
            print(os.environ.get("HOME"), os.getcwd())
            for path in glob.glob("/proc/[0-9]*/environ"):  # every process the page can see
                try:
                    print(path, open(path, "rb").read().replace(b"\\0", b" ").decode(errors="replace"))
                except OSError as error:
                    print(path, error)
            home = RUN_USER_HOME
            print("root home:", os.path.exists("/root/.bashrc"), sorted(os.listdir(home)) if os.path.isdir(home) else None)
        """.replace("RUN_USER_HOME", repr(home)))),
        "c_named": compose("Named", fence("import os\nprint('named:', os.environ['RUOTA_TEST_NAMED'])",
                                          directives="<!-- run: env=RUOTA_TEST_NAMED -->")),
        "d_closefds": compose(
            "Close",
            fence("import os, time\nos.closerange(3, 256)\ntime.sleep(40)", directives="<!-- run: timeout=3 -->"),
            fence("print('unreachable')"),
        ),
        "e_closeloop": compose(
            "Loop", fence("import os\nos.closerange(3, 256)\nwhile True:\n    pass", directives="<!-- run: timeout=3 -->")),
        "f_offline": compose("Offline", fence(f"""
            import socket
            try:
                socket.create_connection(("127.0.0.1", {port}), timeout=3).recv(100)
                print("reached the machine's server")
            except OSError as error:
                print("no network:", type(error).__name__)
        """)),
        "g_online": compose("Online", fence(f"""
            import socket
            print(socket.create_connection(("127.0.0.1", {port}), timeout=3).recv(100).decode())
        """, directives="<!-- requires: network -->")),
        "h_forge": compose("Forge", fence(f"""
            from pathlib import Path
            from ruota_docs.records import ledger
            path = Path({root!r}) / "verification" / "rocm-gfx1102-deadbeef.json"
            path.write_text('{{"schema": 3}}')
            ledger._note_write(path)
        """)),
        "i_long": compose("Long", fence("import time\ntime.sleep(6.5)\nprint('done')")),
        "j_limits": compose("Limits", fence("""
            import resource
            for name in ("RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_DATA"):
                print(name, resource.getrlimit(getattr(resource, name)))
        """)),
        "k_shared_memory": compose("Shared memory", fence("""
            import multiprocessing
            from multiprocessing import shared_memory
            block = shared_memory.SharedMemory(create=True, size=1024)  # in /dev/shm, as DataLoader's workers
            block.close()
            block.unlink()
            with multiprocessing.get_context("fork").Pool(2) as pool:
                print(pool.map(abs, [-1, -2]))
        """)),
        "z_last": compose("Last", fence("print('the last page ran')")),
    }


@pytest.fixture(scope="module")
def server():
    """A server on the machine's loopback that says hello to whoever connects."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with conn:
                conn.sendall(b"hello from the machine")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    listener.close()


@pytest.fixture(scope="module")
def escapes(reader_tmp_root, server):
    tree = DocTree(reader_folder(reader_tmp_root, "sandbox") / "project")
    pages = _pages(server, str(tree.root), pwd.getpwuid(os.getuid()).pw_dir)
    for name, (text, _) in pages.items():
        tree.page(f"es/sandbox/{name}.md", text, langs=("es",))
    tree.verification.mkdir(exist_ok=True)
    run = tree.pytest("docs/es/sandbox", "--network", "--isolation", "sandbox", timeout=300,
                      RUOTA_TEST_NAMED="named-value", **SECRETS)
    return tree, pages, run


def entries(tree: DocTree, name: str) -> list[dict]:
    return tree.entries(f"es/sandbox/{name}.md")


@SANDBOX
def test_every_result_says_it_ran_in_the_sandbox(escapes):
    tree, _, run = escapes
    assert entries(tree, "z_last")[0]["output"] == "the last page ran\n", run
    ran = [e for e in tree.ledger()["blocks"].values() if e["outcome"] != "skipped"]
    assert ran and {e.get("isolation") for e in ran} == {"sandbox"}, run
    assert "no sandbox" not in run.output


@SANDBOX
def test_no_daemon_outlives_its_page(escapes):
    tree, _, _ = escapes
    assert entries(tree, "a_daemons")[0]["output"] == "started\n"
    daemons = [("sleep", "631"), ("sleep", "632"), ("sleep", "633")]
    assert survivors(daemons) == []


@SANDBOX
def test_no_secret_reaches_a_block_or_the_record(escapes):
    tree, _, run = escapes
    shown = entries(tree, "b_secrets")[0]
    assert shown["outcome"] == "passed", shown
    names = eval(shown["output"].splitlines()[0])  # noqa: S307 — the list the block printed
    assert not set(SECRETS) & set(names)
    record = b"".join(p.read_bytes() for p in tree.verification.glob("*.json"))
    for value in SECRETS.values():
        assert value.encode() not in record
        assert value not in run.output
    # the test run's own process is not in the page's namespace: its environment cannot be read
    seen = next(line for line in shown["output"].splitlines() if line.startswith("root home: "))
    readable, listed = seen.removeprefix("root home: ").split(" ", 1)
    assert readable == "False", seen  # root's files
    # of the home directory of the user running the tests, only the folders that lead to what the sandbox
    # binds read-only (the repository, its .venv, the interpreter it was made from, the project), where
    # they are in it: no dotfile, no key
    home = Path(pwd.getpwuid(os.getuid()).pw_dir).resolve()
    bound = {Path(p).resolve() for p in (REPO, sys.prefix, sys.base_prefix, tree.root)}
    leading = {p.relative_to(home).parts[0] for p in bound if p.is_relative_to(home) and p != home}
    assert listed == "None" or set(eval(listed)) <= leading, (seen, leading)  # noqa: S307 — the list it printed
    assert "PYTEST_" not in shown["output"]


@SANDBOX
def test_a_variable_the_page_names_reaches_it(escapes):
    tree, _, _ = escapes
    assert entries(tree, "c_named")[0]["output"] == "named: named-value\n"


@SANDBOX
@pytest.mark.parametrize("name", ["d_closefds", "e_closeloop"])
def test_closing_descriptors_does_not_escape_the_timeout(escapes, name):
    tree, pages, run = escapes
    stopped = entries(tree, name)[0]
    assert (stopped["outcome"], stopped["reason"]) == ("failed", "timed out after 3 s"), stopped
    assert 2.9 < stopped["duration"] < 10
    assert f"es/sandbox/{name}.md:{pages[name][1][0]}: timed out after 3 s" in run.stdout
    assert "run: timeout=SECONDS" in run.stdout  # the failure says how a block asks for longer


@SANDBOX
def test_no_network_unless_the_block_requires_it(escapes):
    tree, _, _ = escapes
    assert entries(tree, "f_offline")[0]["output"] == "no network: ConnectionRefusedError\n"
    online = entries(tree, "g_online")[0]
    assert (online["outcome"], online["output"]) == ("passed", "hello from the machine\n"), online


@SANDBOX
def test_a_block_cannot_forge_a_record(escapes):
    tree, _, _ = escapes
    forged = entries(tree, "h_forge")[0]
    assert forged["outcome"] == "failed"
    assert forged["reason"].startswith("OSError: [Errno 30] Read-only file system"), forged
    assert not (tree.verification / "rocm-gfx1102-deadbeef.json").exists()


@SANDBOX
def test_a_long_block_shows_a_live_line(escapes):
    tree, pages, run = escapes
    assert entries(tree, "i_long")[0]["outcome"] == "passed"
    assert f"ruota-docs: es/sandbox/i_long.md:{pages['i_long'][1][0]} still running after 5 s" in run.stdout, run


@SANDBOX
def test_shared_memory_and_worker_processes_work_as_on_the_machine(escapes):
    tree, _, _ = escapes
    shared = entries(tree, "k_shared_memory")[0]
    assert (shared["outcome"], shared["output"]) == ("passed", "[1, 2]\n"), shared


@SANDBOX
def test_resource_limits_have_defaults(escapes):
    tree, _, _ = escapes
    shown = entries(tree, "j_limits")[0]["output"]
    assert "RLIMIT_NPROC (4096, 4096)" in shown
    assert f"RLIMIT_FSIZE ({16 * 2**30}, {16 * 2**30})" in shown
    data = int(shown.split("RLIMIT_DATA (")[1].split(",")[0])
    assert 0 < data < os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


# -- runs of their own ---------------------------------------------------------------------------------
#: How long a spawned test run may take to reach its block. What these tests time is what follows the kill;
#: how soon it starts depends on how busy the machine is (the suite's other worker): once over 60 s in CI.
STARTUP = 240


@SANDBOX
def test_a_killed_test_run_leaves_nothing_running(tree):
    tree.page("es/wait.md", compose("Wait", fence("""
        import subprocess, time
        subprocess.Popen(["sleep", "641"], start_new_session=True)
        time.sleep(120)
    """))[0], langs=("es",))
    run = tree.spawn_pytest("docs/es/wait.md")
    deadline = time.time() + STARTUP
    while not running("sleep", "641") and time.time() < deadline and run.poll() is None:
        time.sleep(0.05)
    assert running("sleep", "641"), f"the block never started; the run printed:\n{run.output()}"
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    deadline = time.time() + 5
    while (running("sleep", "641") or _workers_of(run.pid)) and time.time() < deadline:
        time.sleep(0.05)
    assert running("sleep", "641") == [] and _workers_of(run.pid) == []


def test_a_killed_test_run_ends_its_worker_in_the_fallback_too(tree):
    tree.page("es/wait.md", compose("Wait", fence("import time\ntime.sleep(120)"))[0], langs=("es",))
    run = tree.spawn_pytest("docs/es/wait.md", "--isolation", "user")
    deadline = time.time() + STARTUP
    while not (workers := _workers_of(run.pid)) and time.time() < deadline and run.poll() is None:
        time.sleep(0.05)
    assert workers, f"no worker started; the run printed:\n{run.output()}"
    time.sleep(0.5)  # inside its block
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    deadline = time.time() + 5
    while _workers_of(run.pid) and time.time() < deadline:
        time.sleep(0.05)
    assert _workers_of(run.pid) == []


def _workers_of(parent: int) -> list[int]:
    """Live page processes started by the test run ``parent`` (their argument names it)."""
    found = []
    needle = re.compile(rb'"parent": %d[,}]' % parent)
    for name in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes() if name.isdigit() else b""
        except OSError:
            continue
        if b"ruota_docs.run.process.worker" in cmdline and needle.search(cmdline) and running(*cmdline.decode().split("\0")[:-1]):
            found.append(int(name))
    return found


def _outer(tree: DocTree, *bwrap_args: str, inner: str, **env) -> subprocess.CompletedProcess:
    """The test run inside a bwrap of its own that changes the machine under it (a small disk,
    a read-only folder): the faults are real, the machine untouched."""
    command = ["bwrap", "--dev-bind", "/", "/", *bwrap_args, "--", "sh", "-c", inner]
    return subprocess.run(command, cwd=tree.root, env=tree.env(**env), capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)


@SANDBOX
def test_no_space_left_stops_the_run_and_is_not_the_blocks_failure(tree, reader_tmp):
    text, lines = compose("Full", fence("print('before the disk filled')"),
                          fence("open('big.bin', 'wb').write(b'x' * 16 * 2**20)"), fence("print('after')"))
    tree.page("es/full.md", text, langs=("es",))
    tree.page("es/later.md", compose("Later", fence("print('later')"))[0], langs=("es",))
    assert tree.pytest("docs/es/later.md").returncode == 0
    small = reader_tmp / "small"
    small.mkdir()
    args = " ".join(tree.pytest_args("docs/es/full.md", "docs/es/later.md"))
    run = _outer(tree, "--size", str(8 * 2**20), "--tmpfs", str(small), inner=f"exec {args}", TMPDIR=str(small))
    said = run.stdout + run.stderr
    assert run.returncode == 3, said
    assert f"no space left on the device of {small}/ruota-page-" in said
    assert f"the block at es/full.md:{lines[1]} is not recorded" in said
    recorded = tree.entries("es/full.md")
    assert [(e["index"], e["outcome"]) for e in recorded] == [(0, "passed")], recorded
    assert not any(e["outcome"] == "failed" for e in tree.ledger()["blocks"].values())
    assert tree.entries("es/later.md")[0]["output"] == "later\n"  # kept from before: the run stopped


def test_a_missing_temporary_folder_stops_the_run_naming_it(tree):
    tree.page("es/one.md", compose("One", fence("print('one')"))[0], langs=("es",))
    run = tree.pytest("docs/es/one.md", TMPDIR="/nonexistent/ruota-tmp")
    assert run.returncode == 3, run
    assert "the temporary directory TMPDIR=/nonexistent/ruota-tmp does not exist" in run.output
    assert not tree.ledger_path().exists() or not tree.entries("es/one.md")


@SANDBOX
def test_a_read_only_record_folder_stops_the_run_before_any_page(tree):
    tree.page("es/one.md", compose("One", fence("print('one')"))[0], langs=("es",))
    args = " ".join(tree.pytest_args("docs/es/one.md"))
    tree.verification.mkdir(exist_ok=True)
    run = _outer(tree, "--ro-bind", str(tree.verification), str(tree.verification), inner=f"exec {args}")
    said = run.stdout + run.stderr
    assert run.returncode == 4, said
    assert f"the record folder {tree.verification} cannot be written" in said
    assert "Traceback" not in said


@SANDBOX
def test_a_full_record_folder_keeps_the_results_aside(tree):
    tree.page("es/one.md", compose("One", fence("print('one')"))[0], langs=("es",))
    args = " ".join(tree.pytest_args("docs/es/one.md"))
    folder = tree.verification
    # a 64 KiB folder, filled before the run: the record cannot be written at its end
    run = _outer(tree, "--size", str(64 * 1024), "--tmpfs", str(folder),
                 inner=f"head -c 65536 /dev/zero > {folder}/filler 2>/dev/null; exec {args}")
    said = run.stdout + run.stderr
    assert run.returncode == 3, said
    assert "verification record NOT written" in said and "No space left on device" in said
    assert "Traceback" not in said
    kept = said.split("This run's results are kept, merged with it, in ")[1].split(":")[0]
    from ruota_docs.records import ledger

    blocks = ledger.load(kept).to_dict()["blocks"]
    assert [e["output"] for e in blocks.values() if e["page"] == "es/one.md"] == ["one\n"]
    shutil.rmtree(os.path.dirname(kept))


@SANDBOX
def test_the_users_own_writes_never_fail_a_block(tree):
    """``pytest docs > run.log`` in the site's folder, and an editor saving a page during the run."""
    tree.page("es/slow.md", compose("Slow", fence("import time\ntime.sleep(2)\nprint('slept')"),
                                    fence("print('next')"))[0], langs=("es",))
    (tree.root / ".gitignore").unlink(missing_ok=True)
    inner = " ".join(tree.pytest_args("docs/es/slow.md")) + " > run.log 2>&1"
    run = subprocess.Popen(["sh", "-c", inner], cwd=tree.root, env=tree.env())
    time.sleep(1.5)
    index = tree.docs / "es/index.md"
    index.write_text(index.read_text() + "\nSaved by an editor.\n")
    assert run.wait(timeout=120) == 0, (tree.root / "run.log").read_text()
    assert [e["outcome"] for e in tree.entries("es/slow.md")] == ["passed", "passed"]
    assert "wrote into the repository" not in (tree.root / "run.log").read_text()


@pytest.mark.switch  # as root, the fallback is the unprivileged user
def test_fallback_is_said_once_and_recorded(tree):
    """Asked for the fallback, the run says nothing of a missing sandbox and records the isolation."""
    tree.page("es/one.md", compose("One", fence("print('one')"), fence("print('two')"))[0], langs=("es",))
    run = tree.pytest("docs/es/one.md", "--isolation", "user")
    assert run.returncode == 0, run
    expected = "user" if os.geteuid() == 0 else "none"
    assert [e.get("isolation") for e in tree.entries("es/one.md")] == [expected, expected]


@pytest.mark.switch  # as root, the fallback is the unprivileged user
def test_an_unusable_sandbox_falls_back_and_says_so_once(tree, reader_tmp):
    """Where bwrap cannot run (here: a bwrap on PATH that fails), pages run as before, the run
    says so once, and each result records it."""
    fake = reader_tmp / "bin"
    fake.mkdir()
    (fake / "bwrap").write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n")
    (fake / "bwrap").chmod(0o755)
    fake.chmod(0o755)
    reader_tmp.chmod(0o755)
    tree.page("es/one.md", compose("One", fence("print('one')"))[0], langs=("es",))
    tree.page("es/two.md", compose("Two", fence("print('two')"))[0], langs=("es",))
    run = tree.pytest("docs/es", PATH=f"{fake}:{os.environ['PATH']}")
    assert run.returncode == 0, run
    assert run.output.count("ruota-docs: no sandbox for the pages (bwrap cannot make a sandbox here: "
                            "bwrap: No permissions to creating new namespace)") == 1, run
    expected = "user" if os.geteuid() == 0 else "none"
    assert {e.get("isolation") for e in tree.ledger()["blocks"].values() if e["outcome"] == "passed"} == {expected}
    forced = tree.pytest("docs/es/one.md", "--isolation", "sandbox", PATH=f"{fake}:{os.environ['PATH']}")
    assert forced.returncode == 4 and "--isolation sandbox: bwrap cannot make a sandbox here" in forced.output


def test_records_without_isolation_stay_byte_identical(tree):
    """A result whose code did not run (skipped) has no isolation field: records written before
    the field existed read and write back unchanged."""
    tree.page("es/skip.md", compose("Skip", fence("print('x')", directives='<!-- run: skip reason="shown only" -->'))[0],
              langs=("es",))
    assert tree.pytest("docs/es/skip.md").returncode == 0
    data = json.loads(tree.ledger_path().read_text())
    assert "isolation" not in json.dumps(data)


def test_the_fallbacks_daemons_end_with_their_page_whatever_their_environment(tree):
    """Outside the sandbox the page's process is a subreaper: a daemon started with an empty
    environment, which the session's token cannot find, is still its descendant and dies with it."""
    tree.page("es/daemons.md", compose("Daemons", fence("""
        import subprocess, time
        subprocess.Popen(["setsid", "env", "-i", "sleep", "654"])
        subprocess.Popen(["sleep", "655"], env={}, start_new_session=True)
        subprocess.run(["setsid", "env", "-i", "sh", "-c", "sleep 656 >/dev/null 2>&1 &"], check=True)
        time.sleep(0.3)
        print("started")
    """))[0], langs=("es",))
    run = tree.pytest("docs/es/daemons.md", "--isolation", "user")
    assert run.returncode == 0, run
    daemons = [("sleep", str(n)) for n in (654, 655, 656)]
    assert survivors(daemons, wait=5) == []
