"""Records no block can bend: a block that changes, deletes or creates a verification record
fails, naming it, and the record is put back exactly as it was (bytes, mode, times); another
run's write during a block is the engine's, and stays.

The guard is the fallback's (``--isolation user``): in the sandbox the repository is read-only
and no block reaches a record (tests/faults/test_fault_sandbox.py). The blocks that write
records run with ``--run-as-root`` where the tests run as root, so that what stops them is the
guard: as the unprivileged user they cannot write there at all (the last test shows that too).
"""

from __future__ import annotations

import json
import os

import pytest

from _support import reader_folder, stored_form
from faulttree import DocTree, alive, compose, fence, this_machine
from ruota_docs.records import ledger

OTHER = "rocm-gfx906"
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _pages(other: str, mine: str) -> dict[str, tuple[str, list[int]]]:
    return {
        "a_flip": compose("Flip", fence(f"""
            import json
            path = {other!r}
            data = json.load(open(path))
            for page in data["pages"].values():
                for result in page["results"]:
                    if result["outcome"] == "skipped":
                        result["outcome"] = "passed"
                        result.pop("reason", None), result.pop("reason_code", None)
            json.dump(data, open(path, "w"))
            print("flipped")
        """), fence("print('the page goes on')")),
        "b_delete": compose("Delete", fence(f"import os\nos.remove({other!r})")),
        "c_create": compose("Create", fence(f"""
            open({other.replace(OTHER, 'rocm-gfx1102')!r}, "w").write('{{"schema": 1}}')
        """)),
        "d_chmod": compose("Chmod", fence(f"import os\nos.chmod({other!r}, 0o666)")),
        "e_daemon": compose("Daemon", fence(f"""
            import subprocess, time
            # a process that outlives the block and keeps appending to a record
            subprocess.Popen(["setsid", "sh", "-c", "while :; do echo x >> {other}; sleep 0.01; done"])
            time.sleep(0.3)
        """)),
        "f_same_bytes": compose("Same", fence(f"""
            data = open({mine!r}, "rb").read()
            open({mine!r}, "wb").write(data)  # rewritten as it was: nothing bent
        """)),
        # the worker runs this as it exits, after the page's last block was checked
        "g_atexit": compose("Atexit", fence(f"import atexit\natexit.register(lambda: open({other!r}, 'a').write('x'))")),
        "z_last": compose("Last", fence("print('the last page ran')")),
    }


@pytest.fixture(scope="module")
def bent(reader_tmp_root):
    """A project with this machine's record and another machine's (mode 0640), then a run whose
    blocks try to bend them."""
    tree = DocTree(reader_folder(reader_tmp_root, "records") / "project")
    tree.page("es/keep.md", compose("Keep", fence("print('kept')"), fence("print('gpu')", directives="<!-- requires: rocm arch=gfx906 -->"))[0], langs=("es",))
    first = tree.pytest("docs/es/keep.md")
    assert first.returncode == 0, first
    data = tree.ledger()
    data["machine_id"] = OTHER
    data["machine"].update(machine_id=OTHER, backend="rocm", gpu_name="AMD Radeon VII", arch="gfx906", hip="6.3.42131")
    other = tree.ledger_path(OTHER)
    other.write_text(json.dumps(stored_form(data), indent=1), encoding="utf-8")
    other.chmod(0o640)
    os.utime(other, (1_700_000_000, 1_700_000_000))
    before = {p.name: (p.read_bytes(), p.stat().st_mode, p.stat().st_mtime_ns) for p in tree.verification.glob("*.json")}
    pages = _pages(str(other), str(tree.ledger_path()))
    for name, (text, _) in pages.items():
        tree.page(f"es/bend/{name}.md", text, langs=("es",))
    run = tree.pytest("docs/es/bend", "--run-as-root", "--isolation", "user", timeout=300)
    return tree, before, run, pages


def entries(tree: DocTree, name: str) -> list[dict]:
    return tree.entries(f"es/bend/{name}.md")


def test_the_run_fails_and_the_last_page_still_runs(bent):
    tree, _, run, _ = bent
    assert run.returncode == 1, run
    assert entries(tree, "z_last")[0]["outcome"] == "passed"


def test_other_machines_record_is_put_back_byte_for_byte(bent):
    tree, before, _, _ = bent
    other = tree.ledger_path(OTHER)
    content, mode, mtime = before[other.name]
    assert other.read_bytes() == content
    assert other.stat().st_mode == mode and oct(mode & 0o777) == oct(0o640)
    assert other.stat().st_mtime_ns == mtime
    assert not (tree.verification / "rocm-gfx1102.json").exists()
    assert sorted(p.name for p in tree.verification.glob("*.json")) == sorted(before)


@pytest.mark.parametrize("name, what", [
    ("a_flip", "modified, put back as it was"),
    ("b_delete", "deleted, put back as it was"),
    ("c_create", "created, removed"),
    ("d_chmod", "modified, put back as it was"),
])
def test_the_block_fails_naming_the_record(bent, name, what):
    tree, _, run, pages = bent
    failed = entries(tree, name)[0]
    record = "rocm-gfx1102.json" if name == "c_create" else f"{OTHER}.json"
    expected = (f"changed a verification record: verification/{record} ({what}) (only the engine writes records, after "
                "the blocks; if another program changed it meanwhile, such as a page running in parallel, that page fails too)")
    assert (failed["outcome"], failed["reason"]) == ("failed", expected)
    assert f"es/bend/{name}.md:{pages[name][1][0]}: {expected}" in run.stdout


def test_the_page_goes_on_after_a_bent_record(bent):
    tree, _, _, _ = bent
    assert [e["outcome"] for e in entries(tree, "a_flip")] == ["failed", "passed"]
    assert entries(tree, "a_flip")[0]["output"] == "flipped\n"


def test_a_process_left_running_is_caught_and_stopped(bent):
    tree, before, run, _ = bent
    failed = entries(tree, "e_daemon")[0]
    assert failed["outcome"] == "failed"
    assert failed["reason"].startswith(f"changed a verification record: verification/{OTHER}.json (modified, put back as it was)")
    # killed with the page; whatever it appended after the block's check is put back at the page's end
    assert tree.ledger_path(OTHER).read_bytes() == before[f"{OTHER}.json"][0]


def test_a_record_bent_as_the_page_ends_fails_the_run(bent):
    tree, before, run, _ = bent
    assert entries(tree, "g_atexit")[0]["outcome"] == "passed"  # nothing changed while the block ran
    assert "ERROR docs/es/bend/g_atexit.md::sybil:ruota,block:0,line:3" in run.stdout  # its teardown
    assert (f"es/bend/g_atexit.md: a process it started changed a verification record: verification/{OTHER}.json "
            "(modified, put back as it was)") in run.stdout
    assert tree.ledger_path(OTHER).read_bytes() == before[f"{OTHER}.json"][0]


def test_rewriting_the_same_bytes_bends_nothing(bent):
    tree, _, _, _ = bent
    assert entries(tree, "f_same_bytes")[0]["outcome"] == "passed"


def test_this_machines_record_holds_the_run(bent):
    """The engine's own write comes after the blocks, and keeps what was recorded before."""
    tree, _, _, _ = bent
    pages = {e["page"] for e in tree.ledger()["blocks"].values()}
    assert {"es/keep.md", "es/bend/a_flip.md", "es/bend/z_last.md"} <= pages
    assert tree.ledger()["machine_id"] == this_machine()


def test_another_runs_write_during_a_block_is_not_blamed(tree):
    """Run A's block waits until run B has written the same record: A's guard sees the
    engine's write (its hash is noted under the lock), keeps it, and both runs land."""
    tree.page("es/quick.md", compose("Quick", fence("print('quick ran')"))[0], langs=("es",))
    first = tree.pytest("docs/es/quick.md")
    assert first.returncode == 0, first
    path = tree.ledger_path()
    fallback = {"RUOTA_DOCS_ISOLATION": "user"}  # the guard's case: the block reads beside the sandbox
    tree.signals.chmod(0o777)  # the block (as the unprivileged user) says when it is inside
    waiting = compose("Wait", fence(f"""
        import os, time
        start = open({str(path)!r}, "rb").read()
        open(os.path.join({str(tree.signals)!r}, "inside-block"), "w").write("1")
        deadline = time.time() + 60
        while open({str(path)!r}, "rb").read() == start and time.time() < deadline:
            time.sleep(0.05)
        print("saw the other run's write:", open({str(path)!r}, "rb").read() != start)
    """), fence("print('after')"))[0]
    tree.page("es/wait.md", waiting, langs=("es",))
    tree.page("es/quick.md", compose("Quick", fence("print('quick ran again')"))[0], langs=("es",))
    slow = tree.spawn_pytest("docs/es/wait.md", **fallback)
    try:
        tree.wait_for_signal("inside", timeout=120)
    except AssertionError:
        slow.kill()
        slow.wait()
        raise AssertionError(slow.output()) from None
    quick = tree.pytest("docs/es/quick.md", **fallback)
    slow.wait(timeout=120)
    output = slow.output()
    assert quick.returncode == 0, quick
    assert slow.returncode == 0, output
    wait = tree.entries("es/wait.md")
    assert [e["outcome"] for e in wait] == ["passed", "passed"], wait
    assert wait[0]["output"] == "saw the other run's write: True\n"
    assert tree.entries("es/quick.md")[0]["output"] == "quick ran again\n"
    assert "changed a verification record" not in output


@pytest.mark.root(reason="the unprivileged user exists only where the suite runs as root")
def test_as_the_unprivileged_user_a_block_cannot_write_records(tree):
    tree.page("es/one.md", compose("One", fence("print('one')"))[0], langs=("es",))
    assert tree.pytest().returncode == 0
    before = tree.ledger_path().read_bytes()
    text, lines = compose("Write", fence(f"open({str(tree.ledger_path())!r}, 'a').write('x')"))
    tree.page("es/write.md", text, langs=("es",))
    run = tree.pytest("docs/es/write.md", "--isolation", "user")
    assert run.returncode == 1, run
    failed = tree.entries("es/write.md")[0]
    assert failed["reason"] == f"PermissionError: [Errno 13] Permission denied: '{tree.ledger_path()}'"
    assert failed["as_root"] is False
    assert "changed a verification record" not in run.stdout
    earlier = tree.root / "earlier.json"
    earlier.write_bytes(before)
    kept = {k: v for k, v in ledger.load(earlier).to_dict()["blocks"].items() if k.startswith("es/one.md")}
    assert kept and {k: v for k, v in tree.ledger()["blocks"].items() if k.startswith("es/one.md")} == kept


def test_no_daemon_is_left(bent):
    """The record-appending daemon of e_daemon died with its page."""
    import subprocess

    listed = subprocess.run(["pgrep", "-f", f"echo x >> {bent[0].ledger_path(OTHER)}"], capture_output=True, text=True)
    pids = [int(p) for p in listed.stdout.split()]
    assert not [p for p in pids if alive(p)]
