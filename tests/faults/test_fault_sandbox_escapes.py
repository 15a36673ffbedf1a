"""More ways out of the page sandbox, tried through real pages as an attacker or a careless author would.

test_fault_sandbox covers daemons, the invoking environment, the network over IPv4, records, and
timeouts that close descriptors. These are the others: the page's own channel to the test run (a
forged or stalled answer, a lying clock), files the engine reads from the page's folder, sockets
of the machine (abstract, IPv6, files in /run), signals and ptrace, a nested namespace, shared
memory and /tmp between pages, hard links, the clock, escape sequences meant for the terminal,
secrets a page names, the home directory, huge files and outputs, a fork bomb, and a shell block's
daemon in the fallback (no bubblewrap).

One throwaway project holds a page per attack under ``docs/es/escape/``; one real ``python -m
pytest`` runs them all, and each test checks one of them; the fork bomb, the home directory and
the fallback have runs of their own.
"""

from __future__ import annotations

import os
import pwd
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from _support import reader_folder
from faulttree import DocTree, bwrap_runs, compose, fence, running, survivors

SANDBOX = pytest.mark.skipif(not bwrap_runs(), reason="bubblewrap cannot run on this machine: pages run as the "
                             "unprivileged user (test_fault_blocks covers the fallback)")
#: Secrets of the invoking user a page asks for by name, and one a prefix of the allow-list would let through.
SECRETS = {"GH_TOKEN": "ghp_NOTAREALTOKEN0000escapes", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI-not-real-escapes",
           "NVIDIA_API_KEY": "nvapi-not-real-escapes", "HF_TOKEN": "hf_not-real-escapes"}
#: The answer's frame, as the page's process writes it (`ruota_docs.run.process.worker.send`).
FORGE = """\
import json, os, struct
def forge(message, size=None):
    result_fd = int(open("/proc/self/cmdline").read().split("\\0")[4])  # worker CMD_FD RESULT_FD SETTINGS
    data = json.dumps(message).encode()
    os.write(result_fd, struct.pack("!I", len(data) if size is None else size) + data)
"""


def _serve(listener: socket.socket, stop: threading.Event) -> None:
    listener.settimeout(0.2)
    while not stop.is_set():
        try:
            conn, _ = listener.accept()
        except OSError:
            continue
        with conn:
            conn.sendall(b"hello from the machine")


@pytest.fixture(scope="module")
def services():
    """Services of the machine a page must not reach: an abstract Unix socket, IPv6 loopback, a
    socket file in /run (where D-Bus, PostgreSQL and Docker put theirs)."""
    tag = f"ruota-escape-{os.getpid()}"
    listeners = {}
    abstract = socket.socket(socket.AF_UNIX)
    abstract.bind("\0" + tag)
    listeners["abstract"] = abstract
    run_socket = Path("/run") / f"{tag}.sock"
    if os.access("/run", os.W_OK):
        filed = socket.socket(socket.AF_UNIX)
        filed.bind(str(run_socket))
        run_socket.chmod(0o777)
        listeners["run"] = filed
    try:
        six = socket.socket(socket.AF_INET6)
        six.bind(("::1", 0))
        listeners["ipv6"] = six
    except OSError:
        pass
    stop = threading.Event()
    threads = []
    for listener in listeners.values():
        listener.listen(8)
        threads.append(threading.Thread(target=_serve, args=(listener, stop), daemon=True))
        threads[-1].start()
    yield {"abstract": tag, "run": str(run_socket) if "run" in listeners else None,
           "ipv6": listeners["ipv6"].getsockname()[1] if "ipv6" in listeners else None}
    stop.set()
    for thread in threads:
        thread.join()
    for listener in listeners.values():
        listener.close()
    run_socket.unlink(missing_ok=True)


def _pages(services: dict, root: str) -> dict[str, tuple[str, list[int]]]:
    reach = f"""
        import socket
        def reach(family, address):
            try:
                with socket.socket(family) as s:
                    s.settimeout(3)
                    s.connect(address)
                    return s.recv(100).decode()
            except OSError as error:
                return type(error).__name__
        print("abstract:", reach(socket.AF_UNIX, "\\0{services['abstract']}"))
        print("run:", reach(socket.AF_UNIX, {services['run']!r}) if {services['run']!r} else "no socket")
        print("ipv6:", reach(socket.AF_INET6, ("::1", {services['ipv6']})) if {services['ipv6']!r} else "no ipv6")
        import os
        print("visible:", [p for p in ("/run", "/var/run", "/run/dbus", "/run/postgresql", "/var/run/docker.sock",
                                      "/tmp/.X11-unix", "/run/user") if os.path.exists(p)])
    """
    return {
        # -- the page's channel to the test run ------------------------------------------------------
        "a_clock_lies": compose("Clock", fence("""
            import time
            time.perf_counter = lambda: float("nan")  # the page's process times its blocks with it
        """), fence("print('after')")),
        "b_forged_answer": compose("Forged", fence(FORGE + """\
forge({"ok": True, "error": 12345, "duration": "soon", "printed": "x", "errno": "ENOSPC"})
        """), fence("print('after')")),
        "c_huge_answer": compose("Huge", fence(FORGE + """\
forge({}, size=2**31)  # a header that promises 2 GiB
"""), fence("print('after')")),
        "c_stalled_answer": compose("Stalled", fence(FORGE + """\
import time
forge({}, size=1000)  # a header that promises 1000 bytes, then nothing
time.sleep(60)
""", directives="<!-- run: timeout=3 -->")),
        "d_truncated_log": compose("Truncated", fence("print('x' * 1000)"), fence("""
            import os
            os.ftruncate(1, 0)  # the page's output file, opened by the test run
            print('after the truncation')
        """), fence("print('next block')")),
        # -- files the engine reads from the page's folder --------------------------------------------
        "e_failed_command_link": compose("Link", fence("""
            trap - ERR
            ln -s /etc/shadow .ruota-docs-failed-command
            false
        """, lang="bash", directives="<!-- run: safe -->")),
        "f_failed_command_fifo": compose("Fifo", fence("""
            trap - ERR
            mkfifo .ruota-docs-failed-command
            false
        """, lang="bash", directives="<!-- run: safe -->")),
        # -- the machine's services -----------------------------------------------------------------
        "g_sockets": compose("Sockets", fence(reach)),
        "g_repository_socket": compose("Repository socket", fence(f"""
            import socket
            try:
                with socket.socket(socket.AF_UNIX) as s:
                    s.settimeout(3)
                    s.connect({root!r} + "/dev.sock")
                    print(s.recv(100).decode())
            except OSError as error:
                print(type(error).__name__)
        """)),
        # -- processes outside the namespace -------------------------------------------------------
        "h_signals": compose("Signals", fence("""
            import ctypes, os, signal
            print("processes seen:", sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
            libc = ctypes.CDLL(None, use_errno=True)
            print("ptrace pid 1:", libc.ptrace(16, 1, 0, 0), ctypes.get_errno())  # PTRACE_ATTACH: EPERM
            try:
                os.kill(-1, signal.SIGKILL)  # every process this user may signal, but itself
                print("signalled")
            except ProcessLookupError:
                print("no process to signal")
        """)),
        "h_privileges": compose("Privileges", fence("""
            import re, subprocess
            status = open("/proc/self/status").read()
            print({k: v for k, v in re.findall(r"^(NoNewPrivs|CapEff|CapPrm|CapAmb):\\s*(\\S+)", status, re.M)})
            # a set-user-ID program of the system (mount, su, passwd) gains nothing with no_new_privs
            done = subprocess.run(["mount", "-o", "remount,rw", "/usr"], capture_output=True, text=True)
            print("remount:", done.returncode != 0)
        """)),
        # -- namespaces, shared memory, links --------------------------------------------------------
        "i_nested": compose("Nested", fence(f"""
            set +e
            unshare -rm sh -c 'mount -o remount,rw,bind {root} && touch {root}/nested-write' 2>&1 | tail -1
            unshare -rm sh -c 'touch {root}/nested-write' 2>&1 | tail -1
            test -e {root}/nested-write && echo "WROTE" || echo "still read-only"
        """, lang="bash", directives="<!-- run: safe -->")),
        "j_leave_marks": compose("Marks", fence("""
            for path in ("/dev/shm/ruota-escape-mark", "/tmp/ruota-escape-mark"):
                open(path, "w").write("from another page")
            print("left")
        """)),
        "k_read_marks": compose("Read marks", fence("""
            import os
            print([p for p in ("/dev/shm/ruota-escape-mark", "/tmp/ruota-escape-mark") if os.path.exists(p)])
        """)),
        "l_hard_link": compose("Hard link", fence(f"""
            import os
            for target in ({root!r} + "/docs/es/index.md", "/etc/passwd"):
                try:
                    os.link(target, "linked")
                    print("linked", target)
                    os.unlink("linked")
                except OSError as error:
                    print(type(error).__name__, error.errno)
        """)),
        # -- time ----------------------------------------------------------------------------------
        "m_set_clock": compose("Set clock", fence("""
            import time
            try:
                time.clock_settime(time.CLOCK_REALTIME, 0.0)
                print("clock set")
            except OSError as error:
                print(type(error).__name__)
        """)),
        # -- the terminal --------------------------------------------------------------------------
        "n_terminal": compose("Terminal", fence("""
            import sys
            print("\\x1b]0;owned title\\x07\\x1b[2J\\x1bc")
            raise RuntimeError("\\x1b]0;owned title\\x07\\x1b[2J cleared")
        """)),
        "o_tty": compose("Tty", fence("""
            try:
                open("/dev/tty", "w")
                print("has a terminal")
            except OSError as error:
                print("no terminal:", type(error).__name__)
        """)),
        # -- secrets a page names ------------------------------------------------------------------
        "p_named_secrets": compose("Named secrets", fence("""
            import os
            for name in ("GH_TOKEN", "AWS_SECRET_ACCESS_KEY", "NVIDIA_API_KEY", "HF_TOKEN", "RUOTA_ESCAPE_NAMED"):
                print(name, os.environ.get(name))
        """, directives="<!-- run: env=GH_TOKEN,AWS_SECRET_ACCESS_KEY,RUOTA_ESCAPE_NAMED -->")),
        # -- the disk and the output ------------------------------------------------------------------
        "q_sparse": compose("Sparse", fence("""
            try:
                with open("sparse.bin", "wb") as handle:
                    handle.truncate(100 * 2**30)
                print("made 100 GiB")
            except OSError as error:
                print(type(error).__name__, error.errno)
        """), fence("truncate -s 100G sparse2.bin", lang="bash", directives="<!-- run: safe -->")),
        "r_many_files": compose("Many files", fence("""
            import os
            os.mkdir("many")
            for n in range(20000):
                open(f"many/{n}", "w").close()
            print(len(os.listdir("many")))
        """)),
        "s_flood": compose("Flood", fence("""
            import sys
            for _ in range(64):
                sys.stdout.write("y" * 2**20)  # 64 MiB, no newline
        """), fence("print('after the flood')")),
        # -- other pages' folders, and links the engine might follow when it removes the page's --------
        "u_siblings": compose("Siblings", fence("""
            import os
            print(os.listdir(os.path.dirname(os.getcwd())) == [os.path.basename(os.getcwd())])
        """)),
        "v_links": compose("Links", fence(f"""
            import os
            os.symlink({root!r} + "/docs", "docs-link")
            os.symlink(os.path.dirname(os.getcwd()) + "/ruota-page-decoy", "decoy-link")
            os.symlink("/", "root-link")
            os.mkdir("nested")
            os.symlink({root!r}, "nested/repository")
            print("linked")
        """)),
        "z_last": compose("Last", fence("print('the last page ran')")),
    }


def _bystander() -> subprocess.Popen:
    """A process outside every sandbox, of the user pages run as: a page's ``kill(-1)`` must not reach it."""
    user = {}
    if os.geteuid() == 0:
        from ruota_docs.run.settings import DEFAULT_USER

        user = {"user": pwd.getpwnam(DEFAULT_USER).pw_uid}
    return subprocess.Popen(["sleep", "661"], start_new_session=True, **user)


@pytest.fixture(scope="module")
def attacks(reader_tmp_root, services):
    folder = reader_folder(reader_tmp_root, "escapes")
    tree = DocTree(folder / "project")
    pages = _pages(services, str(tree.root))
    for name, (text, _) in pages.items():
        tree.page(f"es/escape/{name}.md", text, langs=("es",))
    tree.verification.mkdir(exist_ok=True)
    temporary = folder / "tmp"  # the pages' folders, and nothing else: each must be gone after the run
    temporary.mkdir(mode=0o755)
    decoy = temporary / "ruota-page-decoy"  # another page's folder, as a page's process would find it
    decoy.mkdir(mode=0o777)
    (decoy / "kept").write_text("another page's file")
    # a service of the user's with its socket in the repository (git's fsmonitor keeps one in .git)
    in_repository = socket.socket(socket.AF_UNIX)
    in_repository.bind(str(tree.root / "dev.sock"))
    (tree.root / "dev.sock").chmod(0o777)
    in_repository.listen(4)
    stop = threading.Event()
    serving = threading.Thread(target=_serve, args=(in_repository, stop), daemon=True)
    serving.start()
    bystander = _bystander()
    try:
        run = tree.pytest("docs/es/escape", "--isolation", "sandbox", "--color=yes", timeout=300,
                          TMPDIR=str(temporary), RUOTA_ESCAPE_NAMED="named-value", **SECRETS)
        alive_after = bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()
        stop.set()
        serving.join()
        in_repository.close()
    return tree, pages, run, {"bystander alive": alive_after, "temporary": temporary}


def entries(tree: DocTree, name: str) -> list[dict]:
    return tree.entries(f"es/escape/{name}.md")


def outputs(tree: DocTree, name: str) -> list[str]:
    return [e.get("output", "") for e in entries(tree, name)]


@SANDBOX
def test_the_run_ends_and_every_page_leaves_its_folder(attacks):
    tree, _, run, seen = attacks
    assert "INTERNALERROR" not in run.output and "Traceback" not in run.stderr, run
    assert outputs(tree, "z_last") == ["the last page ran\n"], run
    decoy = seen["temporary"] / "ruota-page-decoy"
    assert list(seen["temporary"].glob("ruota-page-*")) == [decoy]  # 20,000 files and a 100 GiB attempt included


@SANDBOX
def test_other_pages_folders_are_out_of_sight_and_links_are_never_followed(attacks):
    """A page sees no other page's folder; removing a page's folder removes its links, never what
    they point at (the repository, another page's folder, the whole machine)."""
    tree, _, _, seen = attacks
    assert outputs(tree, "u_siblings") == ["True\n"]
    assert outputs(tree, "v_links") == ["linked\n"]
    assert (seen["temporary"] / "ruota-page-decoy" / "kept").read_text() == "another page's file"
    assert (tree.docs / "es" / "index.md").exists() and (tree.root / "mkdocs.yml").exists()


# -- the page's channel to the test run ----------------------------------------------------------------
@SANDBOX
def test_a_block_replacing_its_clock_cannot_poison_the_record(attacks):
    """The page's process times a block with time.perf_counter, which the block can replace: a NaN
    duration made the whole record unreadable ("NaN is not a number a record may hold")."""
    tree, _, _, _ = attacks
    lied, after = entries(tree, "a_clock_lies")
    assert lied["outcome"] == "passed" and 0 <= lied["duration"] < 5, lied
    assert after["output"] == "after\n"


@SANDBOX
def test_a_forged_answer_fails_its_block_not_the_run(attacks):
    """A block writes an answer of the wrong shape on its process's answer pipe: the run crashed on it
    (AttributeError: 'int' object has no attribute 'strip')."""
    tree, _, run, _ = attacks
    forged, after = entries(tree, "b_forged_answer")
    assert forged["outcome"] == "failed", forged
    assert forged["reason"] == "the page's process sent an error that is not text, not its answer", forged
    assert after["outcome"] == "skipped" and "ended the page's process" in after["reason"], after
    assert "AttributeError" not in run.output


@SANDBOX
def test_an_answer_over_the_limit_is_refused_unread(attacks):
    tree, _, _, _ = attacks
    huge, after = entries(tree, "c_huge_answer")
    assert huge["reason"] == ("the page's process sent an answer of 2,147,483,648 bytes (at most 67,108,864), "
                              "not its answer"), huge
    assert after["outcome"] == "skipped", after


@SANDBOX
def test_a_promised_answer_that_never_comes_times_out(attacks):
    """A header that announces 2 GiB, then silence: the run read on forever, past the block's timeout."""
    tree, _, _, _ = attacks
    stalled = entries(tree, "c_stalled_answer")[0]
    assert (stalled["outcome"], stalled["reason"]) == ("failed", "timed out after 3 s"), stalled
    assert stalled["duration"] < 10


@SANDBOX
def test_truncating_its_output_file_harms_only_the_block(attacks):
    tree, _, _, _ = attacks
    assert outputs(tree, "d_truncated_log")[1:] == ["after the truncation\n", "next block\n"]


# -- files the engine reads from the page's folder ------------------------------------------------------
@SANDBOX
def test_the_failed_command_file_is_never_read_through_a_link(attacks):
    """The engine (root) read the file in which bash names the failed command, following a link the
    block put there: /etc/shadow's first lines became the block's reason, in the record and on screen."""
    tree, _, run, _ = attacks
    linked = entries(tree, "e_failed_command_link")[0]
    assert linked["reason"] == "the shell block ended with exit status 1", linked
    shadow = Path("/etc/shadow").read_text().splitlines()[0] if os.access("/etc/shadow", os.R_OK) else "root:"
    assert shadow not in run.output and shadow not in tree.ledger_path().read_text()


@SANDBOX
def test_a_fifo_in_place_of_the_failed_command_file_does_not_hang_the_run(attacks):
    tree, _, _, _ = attacks
    fifo = entries(tree, "f_failed_command_fifo")[0]
    assert (fifo["outcome"], fifo["reason"]) == ("failed", "the shell block ended with exit status 1"), fifo


# -- the machine's services, processes, namespaces --------------------------------------------------------
@SANDBOX
def test_no_socket_of_the_machine_is_reachable(attacks):
    tree, _, _, _ = attacks
    said = outputs(tree, "g_sockets")[0].splitlines()
    assert said[0] == "abstract: ConnectionRefusedError"  # abstract sockets belong to the network namespace
    assert said[1] in ("run: FileNotFoundError", "run: no socket")  # /run is not there
    assert said[2] in ("ipv6: ConnectionRefusedError", "ipv6: no ipv6")  # ::1 is the sandbox's own loopback
    assert said[3] == "visible: []"


@SANDBOX
def test_a_socket_file_in_the_repository_is_out_of_reach(attacks):
    """A read-only bind does not stop connect() on a Unix socket file: a service of the user's whose
    socket lies in the repository answered the page."""
    tree, _, _, _ = attacks
    assert outputs(tree, "g_repository_socket") == ["ConnectionRefusedError\n"]


@SANDBOX
def test_no_process_outside_the_page_can_be_signalled_or_traced(attacks):
    tree, _, _, seen = attacks
    said = outputs(tree, "h_signals")[0].splitlines()
    # EPERM; run as a normal user, pid 1 is bwrap's own init, inside the page's namespace and the
    # user's own: tracing it reaches nothing outside the boundary
    assert said[1] == "ptrace pid 1: -1 1" or (os.geteuid() != 0 and said[1] == "ptrace pid 1: 0 0"), said
    assert said[2] == "no process to signal", said
    assert len(eval(said[0].split(": ", 1)[1])) <= 3, said  # noqa: S307 — bwrap, the page's process, itself
    assert seen["bystander alive"]


@SANDBOX
def test_a_page_has_no_capability_and_gains_none(attacks):
    tree, _, _, _ = attacks
    said = outputs(tree, "h_privileges")[0]
    assert said == ("{'CapPrm': '0000000000000000', 'CapEff': '0000000000000000', 'CapAmb': '0000000000000000', "
                    "'NoNewPrivs': '1'}\nremount: True\n"), said


@SANDBOX
def test_a_nested_namespace_cannot_make_the_repository_writable(attacks):
    tree, _, _, _ = attacks
    assert outputs(tree, "i_nested")[0].endswith("still read-only\n")
    assert not (tree.root / "nested-write").exists()


@SANDBOX
def test_shared_memory_and_tmp_are_each_pages_own(attacks):
    tree, _, _, _ = attacks
    assert outputs(tree, "j_leave_marks") == ["left\n"]
    assert outputs(tree, "k_read_marks") == ["[]\n"]
    assert not Path("/dev/shm/ruota-escape-mark").exists()


@SANDBOX
def test_no_hard_link_leaves_the_page_folder(attacks):
    tree, _, _, _ = attacks
    assert outputs(tree, "l_hard_link") == ["OSError 18\nOSError 18\n"]  # EXDEV: another mount


@SANDBOX
def test_the_clock_cannot_be_set_and_there_is_no_terminal(attacks):
    tree, _, _, _ = attacks
    assert outputs(tree, "m_set_clock") == ["PermissionError\n"]
    assert outputs(tree, "o_tty") == ["no terminal: OSError\n"]


# -- the terminal --------------------------------------------------------------------------------------
@SANDBOX
def test_escape_sequences_reach_the_terminal_as_text(attacks):
    """A block printed and raised sequences that retitle and clear the terminal: pytest's report wrote
    them raw. The record keeps what the block printed (JSON writes ESC as \\u001b)."""
    tree, _, run, _ = attacks
    for raw in ("\x1b]0;owned", "\x1b[2J", "\x07", "\x1bc"):
        assert raw not in run.output, raw
    assert "\\x1b]0;owned title\\x07\\x1b[2J cleared" in run.output
    assert entries(tree, "n_terminal")[0]["output"] == "\x1b]0;owned title\x07\x1b[2J\x1bc\n"


# -- secrets a page names ------------------------------------------------------------------------------
@SANDBOX
def test_a_page_cannot_name_the_users_secrets(attacks):
    """``run: env=GH_TOKEN`` handed the user's token to the page, as ``NVIDIA_`` did NVIDIA_API_KEY."""
    tree, _, run, _ = attacks
    assert outputs(tree, "p_named_secrets") == ["GH_TOKEN None\nAWS_SECRET_ACCESS_KEY None\nNVIDIA_API_KEY None\n"
                                                "HF_TOKEN None\nRUOTA_ESCAPE_NAMED named-value\n"]
    record = tree.ledger_path().read_text()
    for value in SECRETS.values():
        assert value not in record and value not in run.output
    assert ("es/escape/p_named_secrets.md names AWS_SECRET_ACCESS_KEY, GH_TOKEN (run: env=), named like a secret: "
            "not passed to the page; to pass it, run with --allow-env AWS_SECRET_ACCESS_KEY --allow-env GH_TOKEN"
            in " ".join(run.output.split()))


def test_the_user_allows_a_secret_by_name(tree):
    tree.page("es/token.md", compose("Token", fence("import os\nprint(os.environ.get('HF_TOKEN'), "
                                                    "os.environ.get('GH_TOKEN'))",
                                                    directives="<!-- run: env=HF_TOKEN,GH_TOKEN -->"))[0],
              langs=("es",))
    run = tree.pytest("docs/es/token.md", "--allow-env", "HF_TOKEN", HF_TOKEN="hf_allowed", GH_TOKEN="ghp_not")
    assert run.returncode == 0, run
    assert tree.entries("es/token.md")[0]["output"] == "hf_allowed None\n"
    again = tree.pytest("docs/es/token.md", RUOTA_DOCS_ALLOW_ENV="HF_TOKEN,GH_TOKEN", HF_TOKEN="hf_2", GH_TOKEN="ghp_2")
    assert again.returncode == 0, again
    assert tree.entries("es/token.md")[0]["output"] == "hf_2 ghp_2\n"


# -- the disk and the output ---------------------------------------------------------------------------
@SANDBOX
def test_huge_files_and_floods_are_bounded(attacks):
    from ruota_docs.records.schema import OUTPUT_LIMIT

    tree, _, _, _ = attacks
    sparse = entries(tree, "q_sparse")
    assert sparse[0]["output"] == "OSError 27\n"  # EFBIG: the file size limit, sparse or not
    assert sparse[1]["reason"] == "the shell block ended with exit status 153 at `truncate -s 100G sparse2.bin`"
    assert outputs(tree, "r_many_files") == ["20000\n"]
    flood, after = outputs(tree, "s_flood")
    assert len(flood) < OUTPUT_LIMIT + 100 and "bytes of output omitted" in flood
    assert after == "after the flood\n"


# -- runs of their own ---------------------------------------------------------------------------------
@SANDBOX
def test_a_fork_bomb_stops_at_the_process_limit_and_ends_with_its_page(tree):
    tree.page("es/bomb.md", compose(
        "Bomb",
        fence("""
            import os
            made = 0
            try:
                while made < 10_000:
                    if os.fork() == 0:
                        os.execvp("sleep", ["sleep", "673"])
                    made += 1
            except BlockingIOError:
                pass
            print("stopped under the limit:", made < 64)
        """),
        fence(":(){ :|:& };:", lang="bash", directives="<!-- run: safe timeout=4 -->"),
    )[0], langs=("es",))
    tree.page("es/calm.md", compose("Calm", fence("print('calm')"))[0], langs=("es",))
    run = tree.pytest("docs/es/bomb.md", "docs/es/calm.md", RUOTA_DOCS_PROCESS_LIMIT="64", timeout=120)
    bomb = tree.entries("es/bomb.md")
    assert bomb[0]["output"] == "stopped under the limit: True\n", run
    # it runs into its time limit, or, as a normal user whose other processes already count towards the
    # limit, cannot fork at all and ends at once: either way it ends with its page
    assert (bomb[1]["outcome"], bomb[1]["reason"]) == ("failed", "timed out after 4 s") or (
        os.geteuid() != 0 and bomb[1]["outcome"] == "passed"), run
    assert tree.entries("es/calm.md")[0]["output"] == "calm\n"
    left = running("sleep", "673")
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []


def test_a_shell_blocks_daemon_ends_with_its_page_in_the_fallback(tree):
    """Without bubblewrap, a shell block's daemon that leaves its session and empties its environment
    (neither the process group nor the session's token finds it) ended with nothing."""
    tree.page("es/shell_daemon.md", compose("Shell daemon", fence("""
        setsid env -i sleep 674 >/dev/null 2>&1 </dev/null &
        (setsid env -i sh -c 'sleep 675 >/dev/null 2>&1 </dev/null &' &)
        sleep 0.3
        echo started
    """, lang="bash", directives="<!-- run: safe -->"), fence("print('next')"))[0], langs=("es",))
    # the reaper is Python, started in the page's folder with HOME there: a block plants a ruota_docs
    # and a .pth of its own that would disarm it
    tree.page("es/shell_planted.md", compose("Planted", fence("""
        import os, site, sys
        fake = "ruota_docs/run/process"
        os.makedirs(fake)
        for folder in ("ruota_docs", "ruota_docs/run", fake):
            open(f"{folder}/__init__.py", "w").close()
        open(f"{fake}/reaper.py", "w").write("import subprocess, sys\\nsys.exit(subprocess.call(sys.argv[1:]))\\n")
        user_site = site.getusersitepackages()
        os.makedirs(user_site)
        open(f"{user_site}/disarm.pth", "w").write("import os; os.kill = lambda *args: None\\n")
        print("planted")
    """), fence("""
        setsid env -i sleep 676 >/dev/null 2>&1 </dev/null &
        echo started
    """, lang="bash", directives="<!-- run: safe -->"))[0], langs=("es",))
    run = tree.pytest("docs/es/shell_daemon.md", "docs/es/shell_planted.md", "--isolation", "user")
    assert run.returncode == 0, run
    assert [e["output"] for e in tree.entries("es/shell_daemon.md")] == ["started\n", "next\n"]
    assert [e["output"] for e in tree.entries("es/shell_planted.md")] == ["planted\n", "started\n"]
    daemons = [("sleep", "674"), ("sleep", "675"), ("sleep", "676")]
    assert survivors(daemons, wait=5) == []


@SANDBOX
def test_the_users_home_is_not_bound_in_even_when_the_run_starts_there(reader_tmp):
    """``cd ~ && python -m pytest site/docs``: Python puts the folder it starts in on sys.path,
    and every folder of sys.path was bound into the sandbox: the home, with .ssh and .netrc."""
    home = reader_tmp / "home"
    for name, text in ((".ssh/id_ed25519", "PRIVATE KEY"), (".netrc", "machine x password y"),
                       (".gitconfig", "[user]")):
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(text)
    for folder in (home, home / ".ssh"):
        folder.chmod(0o755)  # readable by the page's user, if it were there
    (home / ".ssh/id_ed25519").chmod(0o644)
    tree = DocTree(home / "site")
    tree.page("es/home.md", compose("Home", fence(f"""
        import os
        print([p for p in ("{home}/.ssh/id_ed25519", "{home}/.netrc", "{home}/.gitconfig") if os.path.exists(p)])
        print(os.path.exists("{home}/site/mkdocs.yml"))
    """))[0], langs=("es",))
    done = subprocess.run(tree.pytest_args("site/docs/es/home.md"), cwd=home, env=tree.env(HOME=str(home)),
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert tree.entries("es/home.md")[0]["output"] == "[]\nTrue\n"


@pytest.mark.parametrize("isolation", [pytest.param("sandbox", marks=SANDBOX), "user"])
def test_a_page_holds_no_descriptor_of_the_test_run(tree, isolation):
    """Under xdist the test run's worker talks to its controller over its stdin and stdout (execnet):
    a page's process holds only its own empty stdin, its output file and its two pipes."""
    tree.page("es/fds.md", compose("Descriptors", fence("""
        import os
        kinds = {}
        for fd in sorted(map(int, os.listdir("/proc/self/fd"))):
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                continue  # the listing's own, closed by now
            kind = target.split(":")[0] if ":" in target else ("log" if target.endswith(".log") else target)
            kinds[fd] = kind
        print(kinds)
    """))[0], langs=("es",))
    run = tree.pytest("docs/es/fds.md", "-p", "xdist", "-n", "1", "--isolation", isolation)
    assert run.returncode == 0, run
    kinds = eval(tree.entries("es/fds.md")[0]["output"])  # noqa: S307 — the dict the block printed
    assert {fd: kind for fd, kind in kinds.items() if fd <= 2} == {0: "/dev/null", 1: "log", 2: "log"}, kinds
    assert sorted(kind for fd, kind in kinds.items() if fd > 2) == ["pipe", "pipe"], kinds


@pytest.mark.skipif(os.geteuid() != 0, reason="without root, the fallback runs pages as the invoking user: "
                    "no boundary to try (the sandbox's tests cover that case)")
def test_the_fallback_reads_no_other_processs_environment(tree):
    """Without bubblewrap (run as root: pages as the unprivileged user), a block reads the test run's
    environment through /proc: its parent's, the machine's first process, and every other it can list."""
    tree.page("es/environ.md", compose("Environ", fence("""
        import glob, os
        found = []
        for path in ["/proc/1/environ", f"/proc/{os.getppid()}/environ", *glob.glob("/proc/[0-9]*/environ")]:
            try:
                if b"escapes-fallback" in open(path, "rb").read():
                    found.append(path)
            except OSError:
                pass
        print(found)
    """))[0], langs=("es",))
    run = tree.pytest("docs/es/environ.md", "--isolation", "user", GH_TOKEN="ghp_escapes-fallback")
    assert run.returncode == 0, run
    assert tree.entries("es/environ.md")[0]["output"] == "[]\n"
    assert "escapes-fallback" not in tree.ledger_path().read_text()


def test_the_fallbacks_orphans_of_a_killed_page_process_end_too(tree):
    """Without bubblewrap, the page's process was the subreaper that kept a daemon without the
    session's token: killed (a crash, the OOM killer, the block itself), it left that daemon to init."""
    tree.page("es/orphan.md", compose("Orphan", fence("""
        import os, signal, subprocess
        subprocess.Popen(["setsid", "env", "-i", "sleep", "677"])
        os.kill(os.getpid(), signal.SIGKILL)
    """))[0], langs=("es",))
    run = tree.pytest("docs/es/orphan.md", "--isolation", "user")
    assert "the page's process died (SIGKILL)" in run.output, run
    deadline = time.time() + 3
    while running("sleep", "677") and time.time() < deadline:
        time.sleep(0.05)
    left = running("sleep", "677")
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []
