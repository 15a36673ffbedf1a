"""The verification record under stress: killed writers, concurrent runs, bad files, other machines.

Every test runs the real commands on a throwaway project. A small pytest plugin written
into the project (``-p faultplug``, see faulttree.FAULT_PLUGIN) slows the ledger write
down or makes two runs reach it together, so the faults happen exactly where they hurt.
"""

from __future__ import annotations

import json
import signal

import pytest

from _support import stored_form
from faulttree import DocTree, compose, fence, this_machine
from ruota_docs.records import ledger, schema, verdicts


def recorded_pages(tree: DocTree, machine: str | None = None) -> dict[str, list[str]]:
    pages: dict[str, list[str]] = {}
    for entry in tree.ledger(machine)["blocks"].values():
        pages.setdefault(entry["page"], []).append(entry["outcome"])
    return pages


def first_run(tree: DocTree, *pages: str) -> bytes:
    """Pages that pass, run once: returns the ledger's bytes."""
    for name in pages:
        tree.page(f"es/{name}.md", compose(name, fence(f"print('{name} ran')"))[0], langs=("es",))
    run = tree.pytest()
    assert run.returncode == 0, run
    return tree.ledger_path().read_bytes()


def test_sigkill_during_the_write_keeps_the_previous_ledger(tree):
    before = first_run(tree, "one")
    tree.page("es/two.md", compose("two", fence("print('two ran')"))[0], langs=("es",))
    proc = tree.spawn_pytest("-p", "faultplug", FAULT_STALL_WRITE="1")
    try:
        tree.wait_for_signal("mid-write")
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        proc.kill()
        proc.wait()
        output = proc.output()
    assert proc.returncode == -signal.SIGKILL, output
    # killed with half of the new ledger in its temporary file: the ledger is the previous one
    leftovers = list(tree.verification.glob(".*.tmp"))
    assert len(leftovers) == 1 and leftovers[0].stat().st_size > 0
    with pytest.raises(json.JSONDecodeError):
        json.loads(leftovers[0].read_text())
    assert tree.ledger_path().read_bytes() == before
    assert set(recorded_pages(tree)) == {"es/one.md"}
    status = tree.status()
    assert status.returncode == 0, status
    assert f"machines: {this_machine()}" in status.stdout
    # the next run writes normally and clears what the killed writer left behind
    again = tree.pytest()
    assert again.returncode == 0, again
    assert set(recorded_pages(tree)) == {"es/one.md", "es/two.md"}
    assert list(tree.verification.glob(".*.tmp")) == []
    assert oct(tree.ledger_path().stat().st_mode & 0o777) == oct(0o644)


def test_two_runs_at_once_both_land(tree):
    first_run(tree, "kept")
    for name in ("left", "right"):
        tree.page(f"es/{name}.md", compose(name, fence(f"print('{name} ran')"))[0], langs=("es",))
    # both runs wait for each other at the ledger write, then write within the same second
    procs = [tree.spawn_pytest("-p", "faultplug", f"docs/es/{name}.md", FAULT_BARRIER="2", FAULT_WRITE_DELAY="0.5")
             for name in ("left", "right")]
    outputs = [(p.wait(timeout=120), p.output())[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    ready = sorted(float(p.read_text()) for p in tree.signals.glob("ready-*"))
    written = sorted(float(p.read_text()) for p in tree.signals.glob("written-*"))
    assert len(ready) == 2 and len(written) == 2
    assert ready[1] < written[0], "the runs did not overlap: the test proves nothing"
    pages = recorded_pages(tree)
    assert pages == {"es/kept.md": ["passed"], "es/left.md": ["passed"], "es/right.md": ["passed"]}


@pytest.mark.parametrize("content, message", [
    ('{"schema": 1, "kind": "ruota-docs/ledger", "blocks": {"es/one.md#0": {"outcome": "pa',
     "not valid JSON (line 1, column 82: Unterminated string starting at); fix or remove the file — it is never overwritten"),
    (None, f"schema {schema.SCHEMA + 1} is newer than this ruota-docs understands ({schema.SCHEMA}); upgrade ruota-docs"),
], ids=["corrupt-json", "newer-schema"])
def test_unusable_ledger_is_never_overwritten(tree, content, message):
    good = first_run(tree, "one")
    if content is None:  # written by a newer ruota-docs
        data = json.loads(good)
        data["schema"] = schema.SCHEMA + 1
        content = json.dumps(data)
    path = tree.ledger_path()
    path.write_text(content, encoding="utf-8")
    bad = path.read_bytes()
    expected = f"{path}: {message}"

    run = tree.pytest()
    assert run.returncode == 1, run
    assert f"verification record NOT written: {expected}" in run.stdout
    assert "1 passed" in run.stdout  # the blocks themselves ran
    assert path.read_bytes() == bad

    status = tree.status()
    assert status.returncode == 2, status
    assert status.stderr.strip() == f"ruota-docs: {expected}"

    build = tree.build()
    assert build.returncode == 1, build
    assert f"ruota_docs: {expected}" in build.stderr
    assert "Traceback" not in build.output
    assert path.read_bytes() == bad


def test_ledgers_of_two_machines(tree):
    # machine A's ledger arrives with a pull: the same page, run on an AMD Radeon VII
    first_run(tree, "one")
    other = "rocm-gfx906" if this_machine() != "rocm-gfx906" else "cuda-nvidia-h200"
    data = tree.ledger()
    data["machine_id"] = other
    data["machine"].update(machine_id=other, backend="rocm", gpu_name="AMD Radeon VII", arch="gfx906", vram_bytes=16 * 2**30,
                           gpu_count=1, hip="6.4.43482", cuda=None, torch="2.7.0+rocm6.3")  # never this machine's torch
    if other.startswith("cuda"):
        data["machine"].update(backend="cuda", gpu_name="NVIDIA H200", arch="sm_90", hip=None, cuda="13.0",
                               torch="2.11.0+cu130")
    for entry in data["blocks"].values():
        entry["output"] = "one ran on the other machine\n"
    tree.ledger_path(other).write_text(json.dumps(stored_form(data), indent=1), encoding="utf-8")
    theirs = tree.ledger_path(other).read_bytes()
    tree.ledger_path().unlink()

    # machine B (this one) runs: it writes its own file and leaves A's alone
    run = tree.pytest()
    assert run.returncode == 0, run
    assert tree.ledger_path(other).read_bytes() == theirs
    assert recorded_pages(tree) == {"es/one.md": ["passed"]}

    # pointed at A's file by mistake, B refuses to write into it
    wrong = tree.pytest("--record", str(tree.ledger_path(other)))
    assert wrong.returncode == 1, wrong
    assert (f"verification record NOT written: {tree.ledger_path(other)}: holds machine {other!r}, "
            f"not this machine ({this_machine()!r})") in wrong.stdout
    assert tree.ledger_path(other).read_bytes() == theirs

    status = tree.status()
    assert status.returncode == 0, status
    theirs_id, mine_id = (verdicts.record_id(ledger.load(tree.ledger_path(m))) for m in (other, this_machine()))
    assert f"machines: {', '.join(sorted([mine_id, theirs_id]))}" in status.stdout
    assert f"  {theirs_id}: 1 passed, 0 failed" in status.stdout
    assert f"  {mine_id}: 1 passed, 0 failed" in status.stdout

    build = tree.build()
    assert build.returncode == 0, build
    html = tree.html("one.md")
    label = "AMD Radeon VII" if other.startswith("rocm") else "NVIDIA H200"  # tabs name a card by its model
    assert label in html
    assert "one ran on the other machine" in html
    assert "one ran\n" in html  # this machine's output, in its own tab
    assert html.count("ruota-outputs") == 1 and 'data-tabs="0:2"' in html
