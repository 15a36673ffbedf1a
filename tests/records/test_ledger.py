"""The verification record: merging, atomic and locked writes, refusing files it does not understand, scrubbing."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest

from _support import read_ledger, results_of
from ruota_docs.records import ledger, private_data, provenance, schema, stored

MACHINE = schema.Machine(backend="cpu", machine="x86_64", machine_id="cpu-x86_64")


def entry(page: str, index: int, outcome: str = "passed", output: str = "", **extra) -> dict:
    return {"page": page, "lang": page.split("/")[0], "index": index, "line": 3 + 4 * index, "language": "python",
            "sha256": f"{page}-{index}-{outcome}", "id": None, "outcome": outcome, "reason": None, "error": None,
            "duration": 0.1, "output": output, "ran_at": "2026-11-20T10:00:00Z", "reused_from": None,
            "as_root": None, "reason_code": None} | extra


def record(path: Path, entries: list[dict], complete: set[str], machine: schema.Machine, **options):
    """`ledger.record` of results given as entries."""
    return ledger.record(path, results_of(entries), complete, machine, **options)


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_record_round_trip(tmp_path):
    path = tmp_path / "verification" / "cpu-x86_64.json"
    record(path, [entry("es/a.md", 0), entry("es/a.md", 1)], {"es/a.md"}, MACHINE)
    record(path, [entry("es/b.md", 0)], {"es/b.md"}, MACHINE)
    data = read_ledger(path)
    assert list(data["blocks"]) == ["es/a.md#0", "es/a.md#1", "es/b.md#0"]
    assert data["schema"] == schema.SCHEMA and data["kind"] == schema.KIND
    assert ledger.load_all(tmp_path / "verification") == [ledger.load(path)]
    assert ledger.load_all(tmp_path / "nowhere") == []


# -- atomic writes --------------------------------------------------------------------------------------------------
def test_write_leaves_no_temporary_files(tmp_path):
    path = tmp_path / "m.json"
    for n in range(3):
        record(path, [entry("es/a.md", n)], set(), MACHINE)
    assert files(tmp_path) == ["m.json"]


def test_original_intact_when_dump_fails(tmp_path, monkeypatch):
    path = tmp_path / "m.json"
    record(path, [entry("es/a.md", 0)], set(), MACHINE)
    original = path.read_bytes()

    def broken_lines(data):
        yield '{"schema": 2, "kind": "ruota-docs/ledg'  # half a file, then the failure
        raise OSError("disk full")

    monkeypatch.setattr(stored, "lines", broken_lines)
    with pytest.raises(OSError, match="disk full"):
        record(path, [entry("es/a.md", 1)], set(), MACHINE)
    assert path.read_bytes() == original
    assert files(tmp_path) == ["m.json"]


def test_original_intact_when_an_entry_cannot_be_written(tmp_path):
    path = tmp_path / "m.json"
    record(path, [entry("es/a.md", 0)], set(), MACHINE)
    original = path.read_bytes()
    with pytest.raises(TypeError):
        record(path, [entry("es/a.md", 1, duration=object())], set(), MACHINE)
    assert path.read_bytes() == original
    assert files(tmp_path) == ["m.json"]


# -- concurrent runs ----------------------------------------------------------------------------------------------
def _record_many(path: str, worker: int, count: int) -> None:
    for n in range(count):
        record(Path(path), [entry(f"es/w{worker}.md", n, output="x" * 2000)], set(), MACHINE)


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
    blocks = read_ledger(path)["blocks"]
    assert sorted(blocks) == sorted(f"es/w{w}.md#{n}" for w in range(workers) for n in range(count))
    assert files(tmp_path) == ["m.json"]


def test_lock_is_what_makes_concurrent_records_land(tmp_path, monkeypatch):
    """The same race without the lock loses entries: the test above proves something."""
    import contextlib

    monkeypatch.setattr(ledger, "locked", lambda path: contextlib.nullcontext())
    path = tmp_path / "m.json"
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_record_many, args=(str(path), w, 15)) for w in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    try:
        landed = len(read_ledger(path)["blocks"])
    except ledger.LedgerError:
        landed = 0
    if landed == 60:
        pytest.skip("the unlocked race happened not to lose an entry this time")
    assert landed < 60


# -- files it does not understand -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("content", "message"), [
    ('{"schema": 3, "kind": "ruota-docs/ledger", "pages": {', "not valid JSON (line 1, column 54: Expecting property name"),
    ("[1, 2, 3]\n", 'not a ruota-docs record (expected "kind": "ruota-docs/ledger")'),
    ('{"schema": 3, "kind": "someone-else/record", "pages": {}}\n', 'not a ruota-docs record'),
    ('{"schema": 4, "kind": "ruota-docs/ledger", "pages": {}, "reasons": {}, "outputs": {}}\n',
     "schema 4 is newer than this ruota-docs understands (3); upgrade ruota-docs"),
    ('{"schema": 3, "kind": "ruota-docs/ledger", "blocks": {}}\n', '"pages", "reasons" and "outputs" must be objects'),
    ('{"schema": 3, "kind": "ruota-docs/ledger", "pages": {"a.md": {"results": [{}]}}, "reasons": {}, "outputs": {}}\n',
     'pages.a.md: must hold "results", each with its "at"'),
    ('{"schema": 2, "kind": "ruota-docs/ledger", "pages": {}, "outputs": {}}\n',
     "schema 2 is older than the one this ruota-docs reads (3)"),
    ('{"schema": 1, "kind": "ruota-docs/ledger", "blocks": {}}\n', "schema 1 is older than the one this ruota-docs reads (3)"),
    ('{"schema": 3, "kind": "ruota-docs/ledger", "pages": {"a.md": {"results": [{"at": {"es": 0}, "outcome": "great", '
     '"sha256": "x"}]}}, "reasons": {}, "outputs": {}}\n', "pages.a.md.results[0] lacks an outcome or a sha256"),
])
def test_unusable_files_are_refused_and_untouched(tmp_path, content, message):
    path = tmp_path / "cpu-x86_64.json"
    path.write_text(content, encoding="utf-8")
    os.utime(path, (1_000_000_000, 1_000_000_000))
    for call in (lambda: ledger.load(path), lambda: ledger.load_all(tmp_path),
                 lambda: record(path, [entry("es/a.md", 0)], {"es/a.md"}, MACHINE)):
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
    monkeypatch.setattr(private_data.getpass, "getuser", lambda: "alice")
    monkeypatch.setattr(private_data.socket, "gethostname", lambda: "gpu-box-7")


def test_scrub_home_user_host(private):
    text = ("Traceback: File \"/home/alice/src/proj/x.py\", line 3\n"
            "alice@gpu-box-7:~$ ls /tmp/ruota-page-ab_c12/out.txt /home/alicex/kept\n"
            "user alice on gpu-box-7; malice and gpu-box-70 stay\n")
    assert private_data.scrub(text) == ("Traceback: File \"~/src/proj/x.py\", line 3\n"
                                  "<user>@<host>:~$ ls <page-dir>/out.txt /home/alicex/kept\n"
                                  "user <user> on <host>; malice and gpu-box-70 stay\n")
    assert private_data.scrub(None) is None and private_data.scrub("") == ""


def test_short_or_root_user_names_are_not_scrubbed(monkeypatch):
    monkeypatch.setenv("HOME", "/root")
    monkeypatch.setattr(private_data.getpass, "getuser", lambda: "root")
    monkeypatch.setattr(private_data.socket, "gethostname", lambda: "ab")
    assert private_data.scrub("root ab /root/x") == "root ab ~/x"


def test_record_scrubs_what_it_writes(tmp_path, private):
    path = tmp_path / "m.json"
    record(path, [entry("es/a.md", 0, "failed", output="saved to /home/alice/out on gpu-box-7\n",
                               reason="alice has no GPU", error="File /home/alice/x.py")],
                  set(), MACHINE)
    text = path.read_text(encoding="utf-8")
    assert "alice" not in text and "gpu-box-7" not in text
    block = read_ledger(path)["blocks"]["es/a.md#0"]
    assert (block["output"], block["reason"], block["error"]) == ("saved to ~/out on <host>\n", "<user> has no GPU", "File ~/x.py")
    assert list(json.loads(text)["machine"]) == list(schema.MACHINE_FIELDS)  # a machine has no host or user name


# -- what the engine notes beside each write ------------------------------------------------------------------------
def test_each_write_notes_its_hash_under_the_lock(tmp_path):
    """The guard that watches records during blocks tells the engine's writes from a block's by this note."""
    import hashlib

    path = tmp_path / "cpu-x86_64.json"
    record(path, [entry("es/a.md", 0)], {"es/a.md"}, MACHINE)
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
    """Run as the unprivileged user, a page's HOME is inside its temporary directory: the record
    writes it ``~``, like any home, and the rest of the folder ``<page-dir>``."""
    import tempfile

    page = f"{tempfile.gettempdir()}/ruota-page-x1_y"
    assert private_data.scrub(f"cache {page}/home/.cache/miopen, out {page}/out.txt, {page}/homework") == \
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
    record(path, entries, {"es/g.md", "en/g.md", "fr/g.md"}, MACHINE)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["schema"] == 3 and "blocks" not in written
    results = written["pages"]["g.md"]["results"]
    assert [r["at"] for r in results] == [{lang: n for lang in ("en", "es", "fr")} for n in range(3)]
    assert written["pages"]["g.md"]["lines"] == {lang: [3, 7, 11] for lang in ("en", "es", "fr")}
    assert list(written["reasons"].values()) == [{"reason": "requires ROCm", "reason_code": None}]
    assert results[0]["credited"] == {"en": "es", "fr": "es"}
    assert written["outputs"] == {stored.output_id("ran\n"): "ran\n"}  # printed 6 times, stored once
    assert written["pages"]["g.md"]["signatures"] == {"en": "sig-en", "es": "sig-es", "fr": "sig-fr"}
    read = read_ledger(path)["blocks"]
    assert sorted(read) == sorted(f"{lang}/g.md#{n}" for lang in ("es", "en", "fr") for n in range(3))
    assert read["fr/g.md#1"] == copies(1)[2]


def test_copies_that_differ_keep_one_result_each(tmp_path):
    path = tmp_path / "m.json"
    es, en, fr = copies(0)
    fr = fr | {"outcome": "failed", "output": "Traceback\n", "reused_from": None}
    record(path, [es, en, fr], set(), MACHINE)
    results = json.loads(path.read_text(encoding="utf-8"))["pages"]["g.md"]["results"]
    assert [(r["at"], r["outcome"]) for r in results] == [({"en": 0, "es": 0}, "passed"), ({"fr": 0}, "failed")]
    read = read_ledger(path)["blocks"]
    assert (read["fr/g.md#0"]["outcome"], read["fr/g.md#0"]["output"], read["fr/g.md#0"]["reused_from"]) == (
        "failed", "Traceback\n", None)


def test_a_field_entries_gain_is_stored_without_a_change_to_the_format(tmp_path):
    path = tmp_path / "m.json"
    record(path, copies(0, reason_code={"code": "needs", "args": ["rocm"]}), set(), MACHINE)
    assert read_ledger(path)["blocks"]["en/g.md#0"]["reason_code"] == {"code": "needs", "args": ["rocm"]}


# -- where a record comes from ---------------------------------------------------------------------------------------
def test_a_record_says_which_machine_and_where_it_comes_from(tmp_path, monkeypatch):

    for name in ("GITHUB_ACTIONS", "GITHUB_RUN_ID"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "m.json"
    record(path, [entry("es/a.md", 0)], set(), MACHINE)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert list(written)[:6] == ["schema", "kind", "machine_id", "machine", "fingerprint", "provenance"]
    assert written["fingerprint"] == provenance.fingerprint() and len(written["fingerprint"]) == 32
    assert written["provenance"] == {"kind": "sent", "commit": None}  # not in a git work tree
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_RUN_ID", "77")
    monkeypatch.setenv("GITHUB_REPOSITORY", "ruota/ruota-docs")
    monkeypatch.setenv("GITHUB_SHA", "b" * 40)
    monkeypatch.setenv("RUOTA_DOCS_RUNNER_LABELS", "self-hosted, linux, rocm, gfx1102")
    record(path, [entry("es/a.md", 1)], set(), MACHINE)
    assert json.loads(path.read_text(encoding="utf-8"))["provenance"] == {
        "kind": "ci", "run_url": "https://github.com/ruota/ruota-docs/actions/runs/77", "repository": "ruota/ruota-docs",
        "commit": "b" * 40, "runner_labels": ["self-hosted", "linux", "rocm", "gfx1102"]}


def test_fingerprints_hash_the_machine_id(tmp_path):

    one, other = tmp_path / "one", tmp_path / "other"
    one.write_text("4f0c1a2b3c4d5e6f7a8b9c0d1e2f3a4b\n")
    other.write_text("00000000000000000000000000000001\n")
    assert provenance.fingerprint([one]) == provenance.fingerprint([tmp_path / "missing", one])
    assert provenance.fingerprint([one]) != provenance.fingerprint([other])
    assert "4f0c1a2b" not in provenance.fingerprint([one])  # a hash of it, salted: not the id itself


def test_one_machine_keeps_its_fingerprint_across_records(tmp_path, monkeypatch):

    machine_id = tmp_path / "machine-id"
    machine_id.write_text("4f0c1a2b3c4d5e6f7a8b9c0d1e2f3a4b\n")
    monkeypatch.setattr(provenance, "MACHINE_ID_FILES", (str(machine_id),))
    first, again = tmp_path / "first" / "m.json", tmp_path / "again" / "m.json"
    record(first, [entry("es/a.md", 0)], set(), MACHINE)
    first.unlink()  # the file made anew on the same machine, elsewhere too: the same machine
    record(first, [entry("es/a.md", 0)], set(), MACHINE)
    record(again, [entry("es/a.md", 1)], set(), MACHINE)
    prints = {json.loads(p.read_text(encoding="utf-8"))["fingerprint"] for p in (first, again)}
    assert prints == {provenance.fingerprint()} and "4f0c1a2b" not in provenance.fingerprint()
    assert provenance.record_name("rocm-gfx1102") == f"rocm-gfx1102-{provenance.fingerprint()[:8]}.json"
    machine_id.write_text("00000000000000000000000000000001\n")  # another machine
    other = tmp_path / "other" / "m.json"
    record(other, [entry("es/a.md", 0)], set(), MACHINE)
    assert json.loads(other.read_text(encoding="utf-8"))["fingerprint"] not in prints
    with pytest.raises(ledger.LedgerError, match="record of another"):  # nor does it take over the first's file
        record(first, [entry("es/a.md", 0)], set(), MACHINE)


def test_a_site_without_language_folders_is_stored_and_read_back(tmp_path):
    path = tmp_path / "m.json"
    entries = [entry("index.md", 0, lang="es"), entry("guides/a.md", 1, output="x\n", lang="es")]
    record(path, entries, {"index.md", "guides/a.md"}, MACHINE)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["pages"]["index.md"]["folders"] is False
    assert read_ledger(path)["blocks"] == {f"{e['page']}#{e['index']}": e for e in entries}


