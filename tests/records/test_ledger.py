"""The verification record: merging, atomic and locked writes, refusing files it does not understand, scrubbing."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest

from ruota_docs.records import ledger

MACHINE = {"backend": "cpu", "gpu_name": None, "machine": "x86_64", "machine_id": "cpu-x86_64"}


def entry(page: str, index: int, outcome: str = "passed", output: str = "", **extra) -> dict:
    return {"page": page, "lang": page.split("/")[0], "index": index, "line": 3 + 4 * index, "language": "python",
            "sha256": f"{page}-{index}-{outcome}", "id": None, "outcome": outcome, "reason": None, "error": None,
            "duration": 0.1, "output": output, "ran_at": "2026-11-20T10:00:00Z", "reused_from": None,
            "as_root": None, "reason_code": None} | extra


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# -- merging ---------------------------------------------------------------------------------------------------
def test_merge_replaces_complete_pages_and_keeps_others():
    old = ledger.empty(MACHINE)
    old["blocks"] = {ledger.block_key(e["page"], e["index"]): e for e in
                     [entry("es/a.md", 0), entry("es/a.md", 1), entry("es/a.md", 2), entry("es/b.md", 0)]}
    merged = ledger.merge(old, [entry("es/a.md", 0, "failed")], {"es/a.md"}, MACHINE)
    # a.md ran in full with one block: its blocks 1 and 2 no longer exist
    assert list(merged["blocks"]) == ["es/a.md#0", "es/b.md#0"]
    assert merged["blocks"]["es/a.md#0"]["outcome"] == "failed"
    assert merged["blocks"]["es/b.md#0"] == entry("es/b.md", 0)
    assert merged["machine_id"] == "cpu-x86_64" and merged["updated"]


def test_merge_partial_run_updates_only_what_ran():
    old = ledger.empty(MACHINE)
    old["blocks"] = {ledger.block_key(e["page"], e["index"]): e for e in [entry("es/a.md", 0), entry("es/a.md", 1)]}
    merged = ledger.merge(old, [entry("es/a.md", 1, "skipped"), entry("es/a.md", 2)], set(), MACHINE)
    assert list(merged["blocks"]) == ["es/a.md#0", "es/a.md#1", "es/a.md#2"]
    assert merged["blocks"]["es/a.md#0"] == entry("es/a.md", 0)
    assert merged["blocks"]["es/a.md#1"]["outcome"] == "skipped"


def test_merge_sorts_by_page_then_index():
    merged = ledger.merge(ledger.empty(MACHINE), [entry("fr/z.md", 0), entry("es/a.md", 10), entry("es/a.md", 2)],
                          set(), MACHINE)
    assert list(merged["blocks"]) == ["es/a.md#2", "es/a.md#10", "fr/z.md#0"]


def test_record_round_trip(tmp_path):
    path = tmp_path / "verification" / "cpu-x86_64.json"
    ledger.record(path, [entry("es/a.md", 0), entry("es/a.md", 1)], {"es/a.md"}, MACHINE)
    ledger.record(path, [entry("es/b.md", 0)], {"es/b.md"}, MACHINE)
    data = ledger.load(path)
    assert list(data["blocks"]) == ["es/a.md#0", "es/a.md#1", "es/b.md#0"]
    assert data["schema"] == ledger.SCHEMA and data["kind"] == ledger.KIND
    assert ledger.load_all(tmp_path / "verification") == [data]
    assert ledger.load_all(tmp_path / "nowhere") == []


# -- atomic writes --------------------------------------------------------------------------------------------------
def test_write_leaves_no_temporary_files(tmp_path):
    path = tmp_path / "m.json"
    for n in range(3):
        ledger.record(path, [entry("es/a.md", n)], set(), MACHINE)
    assert files(tmp_path) == ["m.json"]


def test_original_intact_when_dump_fails(tmp_path, monkeypatch):
    path = tmp_path / "m.json"
    ledger.record(path, [entry("es/a.md", 0)], set(), MACHINE)
    original = path.read_bytes()

    def broken_lines(data):
        yield '{"schema": 2, "kind": "ruota-docs/ledg'  # half a file, then the failure
        raise OSError("disk full")

    monkeypatch.setattr(ledger, "lines", broken_lines)
    with pytest.raises(OSError, match="disk full"):
        ledger.record(path, [entry("es/a.md", 1)], set(), MACHINE)
    assert path.read_bytes() == original
    assert files(tmp_path) == ["m.json"]


def test_original_intact_when_an_entry_cannot_be_written(tmp_path):
    path = tmp_path / "m.json"
    ledger.record(path, [entry("es/a.md", 0)], set(), MACHINE)
    original = path.read_bytes()
    with pytest.raises(TypeError):
        ledger.record(path, [entry("es/a.md", 1, duration=object())], set(), MACHINE)
    assert path.read_bytes() == original
    assert files(tmp_path) == ["m.json"]


# -- concurrent runs ----------------------------------------------------------------------------------------------
def _record_many(path: str, worker: int, count: int) -> None:
    for n in range(count):
        ledger.record(Path(path), [entry(f"es/w{worker}.md", n, output="x" * 2000)], set(), MACHINE)


def test_concurrent_records_all_land(tmp_path):
    path = tmp_path / "m.json"
    workers, count = 4, 15
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_record_many, args=(str(path), w, count)) for w in range(workers)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [p.exitcode for p in processes] == [0] * workers
    blocks = ledger.load(path)["blocks"]
    assert sorted(blocks) == sorted(f"es/w{w}.md#{n}" for w in range(workers) for n in range(count))
    assert files(tmp_path) == ["m.json"]


def test_lock_is_what_makes_concurrent_records_land(tmp_path, monkeypatch):
    """The same race without the lock loses entries: the test above proves something."""
    import contextlib

    monkeypatch.setattr(ledger, "_locked", lambda path: contextlib.nullcontext())
    path = tmp_path / "m.json"
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_record_many, args=(str(path), w, 15)) for w in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    try:
        landed = len(ledger.load(path)["blocks"])
    except ledger.LedgerError:
        landed = 0
    if landed == 60:
        pytest.skip("the unlocked race happened not to lose an entry this time")
    assert landed < 60


# -- files it does not understand -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("content", "message"), [
    ('{"schema": 1, "kind": "ruota-docs/ledger", "blocks": {', "not valid JSON (line 1, column 55: Expecting property name"),
    ("[1, 2, 3]\n", 'not a ruota-docs ledger (expected "kind": "ruota-docs/ledger")'),
    ('{"schema": 1, "kind": "someone-else/record", "blocks": {}}\n', 'not a ruota-docs ledger'),
    ('{"schema": 4, "kind": "ruota-docs/ledger", "pages": {}, "reasons": {}, "outputs": {}}\n',
     "schema 4 is newer than this ruota-docs understands (3); upgrade ruota-docs"),
    ('{"schema": 2, "kind": "ruota-docs/ledger", "blocks": {}}\n', '"pages" and "outputs" must be objects (schema 2)'),
    ('{"schema": 2, "kind": "ruota-docs/ledger", "pages": {"a.md": {"results": [{}]}}, "outputs": {}}\n',
     'pages.a.md: must hold "results", each with its "at"'),
    ('{"schema": 0, "kind": "ruota-docs/ledger", "blocks": {}}\n', "schema 0 is older than any this ruota-docs reads (1, 2, 3)"),
    ('{"schema": 1, "kind": "ruota-docs/ledger", "blocks": []}\n', '"blocks" must be an object'),
    ('{"schema": 1, "kind": "ruota-docs/ledger", "blocks": {"es/a.md#0": {"outcome": "great", "sha256": "x"}}}\n',
     "entry 'es/a.md#0' lacks an outcome or a sha256"),
])
def test_unusable_files_are_refused_and_untouched(tmp_path, content, message):
    path = tmp_path / "cpu-x86_64.json"
    path.write_text(content, encoding="utf-8")
    os.utime(path, (1_000_000_000, 1_000_000_000))
    for call in (lambda: ledger.load(path), lambda: ledger.load_all(tmp_path),
                 lambda: ledger.record(path, [entry("es/a.md", 0)], {"es/a.md"}, MACHINE)):
        with pytest.raises(ledger.LedgerError) as caught:
            call()
        assert str(caught.value).startswith(f"{path}: ")
        assert message in str(caught.value)
    assert path.read_text(encoding="utf-8") == content
    assert path.stat().st_mtime == 1_000_000_000
    assert files(tmp_path) == ["cpu-x86_64.json"]


def test_not_utf8_is_refused(tmp_path):
    path = tmp_path / "m.json"
    path.write_bytes(b'{"x": "\xff"}')
    with pytest.raises(ledger.LedgerError, match="not UTF-8 text"):
        ledger.load(path)
    assert path.read_bytes() == b'{"x": "\xff"}'


# -- nothing published names the machine's owner ------------------------------------------------------------------------
@pytest.fixture
def private(monkeypatch):
    monkeypatch.setenv("HOME", "/home/alice")
    monkeypatch.setattr(ledger.getpass, "getuser", lambda: "alice")
    monkeypatch.setattr(ledger.socket, "gethostname", lambda: "gpu-box-7")


def test_scrub_home_user_host(private):
    text = ("Traceback: File \"/home/alice/src/proj/x.py\", line 3\n"
            "alice@gpu-box-7:~$ ls /tmp/ruota-page-ab_c12/out.txt /home/alicex/kept\n"
            "user alice on gpu-box-7; malice and gpu-box-70 stay\n")
    assert ledger.scrub(text) == ("Traceback: File \"~/src/proj/x.py\", line 3\n"
                                  "<user>@<host>:~$ ls <page-dir>/out.txt /home/alicex/kept\n"
                                  "user <user> on <host>; malice and gpu-box-70 stay\n")
    assert ledger.scrub(None) is None and ledger.scrub("") == ""


def test_short_or_root_user_names_are_not_scrubbed(monkeypatch):
    monkeypatch.setenv("HOME", "/root")
    monkeypatch.setattr(ledger.getpass, "getuser", lambda: "root")
    monkeypatch.setattr(ledger.socket, "gethostname", lambda: "ab")
    assert ledger.scrub("root ab /root/x") == "root ab ~/x"


def test_record_scrubs_what_it_writes(tmp_path, private):
    path = tmp_path / "m.json"
    ledger.record(path, [entry("es/a.md", 0, "failed", output="saved to /home/alice/out on gpu-box-7\n",
                               reason="alice has no GPU", error="File /home/alice/x.py")],
                  set(), MACHINE | {"hostname": "gpu-box-7", "user": "alice"})
    text = path.read_text(encoding="utf-8")
    assert "alice" not in text and "gpu-box-7" not in text
    block = ledger.load(path)["blocks"]["es/a.md#0"]
    assert (block["output"], block["reason"], block["error"]) == ("saved to ~/out on <host>\n", "<user> has no GPU", "File ~/x.py")
    assert "hostname" not in json.loads(text)["machine"]


# -- what the engine notes beside each write ------------------------------------------------------------------------
def test_each_write_notes_its_hash_under_the_lock(tmp_path):
    """The guard that watches records during blocks tells the engine's writes from a block's by this note."""
    import hashlib

    path = tmp_path / "cpu-x86_64.json"
    ledger.record(path, [entry("es/a.md", 0)], {"es/a.md"}, MACHINE)
    assert ledger.noted_write(path) == hashlib.sha256(path.read_bytes()).hexdigest()
    path.write_text(path.read_text().replace('"passed"', '"failed"'))  # not the engine
    assert ledger.noted_write(path) != hashlib.sha256(path.read_bytes()).hexdigest()
    assert ledger.noted_write(tmp_path / "never-written.json") is None


def test_replace_bytes_keeps_exact_content_and_mode(tmp_path):
    path = tmp_path / "r.json"
    path.write_text("old")
    ledger.replace_bytes(path, b'{"exact": "bytes"}\n', 0o640)
    assert path.read_bytes() == b'{"exact": "bytes"}\n'
    assert oct(path.stat().st_mode & 0o777) == oct(0o640)
    assert files(tmp_path) == ["r.json"]


def test_the_pages_home_reads_as_a_home():
    """Run as the unprivileged user, a page's HOME is inside its temporary folder: the record
    writes it ``~``, like any home, and the rest of the folder ``<page-dir>``."""
    import tempfile

    page = f"{tempfile.gettempdir()}/ruota-page-x1_y"
    assert ledger.scrub(f"cache {page}/home/.cache/miopen, out {page}/out.txt, {page}/homework") == \
        "cache ~/.cache/miopen, out <page-dir>/out.txt, <page-dir>/homework"


# -- the stored form: one result per code, each output once ----------------------------------------------------
def copies(index: int, outcome: str = "passed", output: str = "ran\n", **extra) -> list[dict]:
    """The es, en and fr copies of one block, the translations credited with the Spanish run."""
    found = []
    for lang in ("es", "en", "fr"):
        credited = {"reused_from": "es/g.md"} if lang != "es" else {}
        found.append(entry(f"{lang}/g.md", index, outcome, output, sha256=f"code-{index}", signature=f"sig-{lang}")
                     | credited | extra)
    return found


def test_copies_of_a_block_share_one_result_and_outputs_are_stored_once(tmp_path):
    path = tmp_path / "m.json"
    entries = copies(0) + copies(1) + copies(2, "skipped", "", reason="requires ROCm")
    ledger.record(path, entries, {"es/g.md", "en/g.md", "fr/g.md"}, MACHINE)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["schema"] == 3 and "blocks" not in written
    results = written["pages"]["g.md"]["results"]
    assert [r["at"] for r in results] == [{lang: n for lang in ("en", "es", "fr")} for n in range(3)]
    assert written["pages"]["g.md"]["lines"] == {lang: [3, 7, 11] for lang in ("en", "es", "fr")}
    assert list(written["reasons"].values()) == [{"reason": "requires ROCm", "reason_code": None}]
    assert results[0]["credited"] == {"en": "es", "fr": "es"}
    assert written["outputs"] == {ledger.stored.output_id("ran\n"): "ran\n"}  # printed 6 times, stored once
    assert written["pages"]["g.md"]["signatures"] == {"en": "sig-en", "es": "sig-es", "fr": "sig-fr"}
    read = ledger.load(path)["blocks"]
    assert sorted(read) == sorted(f"{lang}/g.md#{n}" for lang in ("es", "en", "fr") for n in range(3))
    assert read["fr/g.md#1"] == copies(1)[2]


def test_copies_that_differ_keep_one_result_each(tmp_path):
    path = tmp_path / "m.json"
    es, en, fr = copies(0)
    fr = fr | {"outcome": "failed", "output": "Traceback\n", "reused_from": None}
    ledger.record(path, [es, en, fr], set(), MACHINE)
    results = json.loads(path.read_text(encoding="utf-8"))["pages"]["g.md"]["results"]
    assert [(r["at"], r["outcome"]) for r in results] == [({"en": 0, "es": 0}, "passed"), ({"fr": 0}, "failed")]
    read = ledger.load(path)["blocks"]
    assert (read["fr/g.md#0"]["outcome"], read["fr/g.md#0"]["output"], read["fr/g.md#0"]["reused_from"]) == (
        "failed", "Traceback\n", None)


def test_a_field_entries_gain_is_stored_without_a_change_to_the_format(tmp_path):
    path = tmp_path / "m.json"
    ledger.record(path, copies(0, reason_code={"code": "needs", "args": ["rocm"]}), set(), MACHINE)
    assert ledger.load(path)["blocks"]["en/g.md#0"]["reason_code"] == {"code": "needs", "args": ["rocm"]}


def test_a_schema_2_record_is_read_and_migrated_with_the_same_entries(tmp_path):
    """Schema 2 kept each result's line, reason and time in the result: read as it was written."""
    path = tmp_path / "cpu-x86_64.json"
    skipped = copies(1, "skipped", "", reason="requires ROCm")
    ledger.record(path, copies(0) + skipped, {"es/g.md", "en/g.md", "fr/g.md"}, MACHINE)
    entries = ledger.load(path)["blocks"]
    written = json.loads(path.read_text(encoding="utf-8"))
    lines = written["pages"]["g.md"].pop("lines")
    reasons = written.pop("reasons")
    for result in written["pages"]["g.md"]["results"]:
        result["at"] = {lang: [n, lines[lang][n]] for lang, n in result["at"].items()}
        why = reasons.get(result.pop("reason", None), {})
        result |= {"reason": why.get("reason"), "reason_code": why.get("reason_code"), "as_root": None,
                   "ran_at": written["pages"]["g.md"]["ran_at"]}
    del written["pages"]["g.md"]["ran_at"]
    path.write_text(json.dumps(written | {"schema": 2}), encoding="utf-8")
    assert ledger.load(path)["blocks"] == entries
    as_stored = ledger.load(path, expand=False)  # what the site indexes: the current stored form
    assert as_stored["schema"] == 3 and "reasons" in as_stored and ledger.expanded(as_stored)["blocks"] == entries
    ledger.migrate(path)
    assert json.loads(path.read_text(encoding="utf-8"))["schema"] == 3 and ledger.load(path)["blocks"] == entries


def test_an_old_format_record_is_read_and_written_back_in_the_new_one(tmp_path):
    path = tmp_path / "cpu-x86_64.json"
    old = ledger.empty(MACHINE) | {"schema": 1, "updated": "2026-11-20T10:00:00Z"}
    old["blocks"] = {ledger.block_key(e["page"], e["index"]): e for e in copies(0) + copies(1)}
    path.write_text(json.dumps(old, indent=1), encoding="utf-8")
    before = ledger.load(path)
    assert sorted(before["blocks"]) == sorted(old["blocks"])
    size, after_size = ledger.migrate(path)
    assert size == len(json.dumps(old, indent=1).encode()) and after_size < size / 2
    assert json.loads(path.read_text(encoding="utf-8"))["schema"] == 3
    after = ledger.load(path)
    assert after["blocks"] == before["blocks"]


# -- where a record comes from ---------------------------------------------------------------------------------------
def test_a_record_says_which_machine_and_where_it_comes_from(tmp_path, monkeypatch):
    from ruota_docs.records import provenance

    for name in ("GITHUB_ACTIONS", "GITHUB_RUN_ID"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "m.json"
    ledger.record(path, [entry("es/a.md", 0)], set(), MACHINE)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert list(written)[:6] == ["schema", "kind", "machine_id", "machine", "fingerprint", "provenance"]
    assert written["fingerprint"] == provenance.fingerprint() and len(written["fingerprint"]) == 32
    assert written["provenance"] == {"kind": "sent", "commit": None}  # not in a git work tree
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_RUN_ID", "77")
    monkeypatch.setenv("GITHUB_REPOSITORY", "ruota/ruota-docs")
    monkeypatch.setenv("GITHUB_SHA", "b" * 40)
    monkeypatch.setenv("RUOTA_DOCS_RUNNER_LABELS", "self-hosted, linux, rocm, gfx1102")
    ledger.record(path, [entry("es/a.md", 1)], set(), MACHINE)
    assert json.loads(path.read_text(encoding="utf-8"))["provenance"] == {
        "kind": "ci", "run_url": "https://github.com/ruota/ruota-docs/actions/runs/77", "repository": "ruota/ruota-docs",
        "commit": "b" * 40, "runner_labels": ["self-hosted", "linux", "rocm", "gfx1102"]}


def test_fingerprints_hash_the_machine_id(tmp_path):
    from ruota_docs.records import provenance

    one, other = tmp_path / "one", tmp_path / "other"
    one.write_text("4f0c1a2b3c4d5e6f7a8b9c0d1e2f3a4b\n")
    other.write_text("00000000000000000000000000000001\n")
    assert provenance.fingerprint([one]) == provenance.fingerprint([tmp_path / "missing", one])
    assert provenance.fingerprint([one]) != provenance.fingerprint([other])
    assert "4f0c1a2b" not in provenance.fingerprint([one])  # a hash of it, salted: not the id itself


def test_one_machine_keeps_its_fingerprint_across_records(tmp_path, monkeypatch):
    from ruota_docs.records import provenance

    machine_id = tmp_path / "machine-id"
    machine_id.write_text("4f0c1a2b3c4d5e6f7a8b9c0d1e2f3a4b\n")
    monkeypatch.setattr(provenance, "MACHINE_ID_FILES", (str(machine_id),))
    first, again = tmp_path / "first" / "m.json", tmp_path / "again" / "m.json"
    ledger.record(first, [entry("es/a.md", 0)], set(), MACHINE)
    first.unlink()  # the file made anew on the same machine, elsewhere too: the same machine
    ledger.record(first, [entry("es/a.md", 0)], set(), MACHINE)
    ledger.record(again, [entry("es/a.md", 1)], set(), MACHINE)
    prints = {json.loads(p.read_text(encoding="utf-8"))["fingerprint"] for p in (first, again)}
    assert prints == {provenance.fingerprint()} and "4f0c1a2b" not in provenance.fingerprint()
    assert provenance.record_name("rocm-gfx1102") == f"rocm-gfx1102-{provenance.fingerprint()[:8]}.json"
    machine_id.write_text("00000000000000000000000000000001\n")  # another machine
    other = tmp_path / "other" / "m.json"
    ledger.record(other, [entry("es/a.md", 0)], set(), MACHINE)
    assert json.loads(other.read_text(encoding="utf-8"))["fingerprint"] not in prints
    with pytest.raises(ledger.LedgerError, match="record of another"):  # nor does it take over the first's file
        ledger.record(first, [entry("es/a.md", 0)], set(), MACHINE)


def test_a_site_without_language_folders_is_stored_and_read_back(tmp_path):
    path = tmp_path / "m.json"
    entries = [entry("index.md", 0, lang="es"), entry("guides/a.md", 1, output="x\n", lang="es")]
    ledger.record(path, entries, {"index.md", "guides/a.md"}, MACHINE)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["pages"]["index.md"]["folders"] is False
    assert ledger.load(path)["blocks"] == {ledger.block_key(e["page"], e["index"]): e for e in entries}


def test_the_commit_that_ran_is_read_as_git_reads_it(tmp_path):
    import subprocess

    def git(*args, cwd=tmp_path / "repo"):
        return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=cwd,
                              capture_output=True, text=True, check=True).stdout.strip()

    (tmp_path / "repo" / "verification").mkdir(parents=True)
    assert ledger._git_head(tmp_path / "repo" / "verification") is None  # no work tree: no git started
    git("init", "-q", "-b", "main")
    assert ledger._git_head(tmp_path / "repo") is None  # no commit yet
    (tmp_path / "repo" / "f").write_text("1")
    git("add", "f")
    git("commit", "-qm", "one")
    folder = tmp_path / "repo" / "verification"
    assert ledger._git_head(folder) == git("rev-parse", "HEAD")  # a branch's own ref file
    git("pack-refs", "--all")
    assert ledger._git_head(folder) == git("rev-parse", "HEAD")  # packed refs
    git("checkout", "-q", "--detach")
    assert ledger._git_head(folder) == git("rev-parse", "HEAD")  # detached
    git("worktree", "add", "-q", str(tmp_path / "other"))
    assert ledger._git_head(tmp_path / "other") == git("rev-parse", "HEAD", cwd=tmp_path / "other")  # asked of git
