"""records.verdicts: what the records say about each block, stale code never green."""

from __future__ import annotations

from _support import record_of
from ruota_docs.records import verdicts
from ruota_docs.records.schema import Record

CUDA = {"backend": "cuda", "gpu_name": "NVIDIA H200", "arch": "sm_90", "machine": "x86_64"}
ROCM = {"backend": "rocm", "gpu_name": "AMD Radeon RX 7600", "arch": "gfx1102", "machine": "x86_64"}
CPU = {"backend": "cpu", "machine": "x86_64"}


def ledger(machine_id: str, machine: dict, *entries: tuple[int, str, str], fingerprint: str | None = None) -> Record:
    data = {"machine_id": machine_id, "machine": machine,
            "blocks": {f"es/p.md#{i}": {"page": "es/p.md", "lang": "es", "index": i, "language": "python",
                                       "sha256": sha, "outcome": outcome} for i, sha, outcome in entries}}
    return record_of(data | ({"fingerprint": fingerprint} if fingerprint else {}))


def test_labels_ids_and_groups():
    assert [verdicts.machine_label(m) for m in (CUDA, ROCM, CPU, {"backend": "rocm"})] == [
        "NVIDIA H200 (CUDA)", "AMD Radeon RX 7600 (ROCm, gfx1102)", "CPU x86_64", "AMD GPU (ROCm)"]
    assert verdicts.record_id(Record(machine_id="rocm-gfx1102", fingerprint="0123456789" * 3)) == "rocm-gfx1102-01234567"
    assert record_of({"machine": ROCM}).machine.group == ("rocm", "gfx1102")
    assert record_of({"machine": CPU}).machine.target == "x86_64"


def test_a_verdict_has_a_result_per_machine_and_the_worst_state_wins():
    index = verdicts.index_ledgers([ledger("cuda", CUDA, (0, "a", "passed")), ledger("cpu", CPU, (0, "a", "error")),
                                    ledger("rocm", ROCM)])
    v = index.verdict("es/p.md", 0, "a")
    assert [(r.machine_id, r.state) for r in v.results] == [("cpu", "failed"), ("cuda", "passed")]
    assert (v.state, v.machines, v.absent) == ("failed", 3, 1)


def test_code_that_changed_since_it_ran_is_stale_never_passed():
    index = verdicts.index_ledgers([ledger("cuda", CUDA, (0, "old", "passed"))])
    v = verdicts.verdict("es/p.md", 0, "new", index)
    assert (v.state, v.only().state, v.only().entry) == ("stale", "stale", None)
    assert verdicts.verdict("es/p.md", 1, "new", index).state == "never"


def test_the_same_code_elsewhere_on_the_page_counts():
    index = verdicts.index_ledgers([ledger("cuda", CUDA, (4, "same", "skipped"))])
    assert index.verdict("es/p.md", 0, "same").state == "skipped"


# -- records in their stored form (what the site reads) ------------------------------------------------------
def full_entry(page: str, index: int, sha: str, outcome: str = "passed", **extra) -> dict:
    lang = page.split("/")[0]
    return {"page": page, "lang": lang, "index": index, "line": 3 + index, "language": "python", "sha256": sha,
            "id": None, "outcome": outcome, "reason": None, "error": None, "duration": 0.5, "output": "",
            "ran_at": "2026-12-01T10:00:00Z", "reused_from": None, "as_root": None, "reason_code": None} | extra


def stored_record(machine_id: str, machine: dict, *entries: dict) -> Record:
    """A record as the site reads it: decoded from its JSON, its results read when asked for."""
    data = {"machine_id": machine_id, "machine": machine, "updated": "2026-12-01T10:00:00Z",
            "blocks": {f"{e['page']}#{e['index']}": e for e in entries}}
    return Record.from_json(record_of(data).to_json())


def test_stored_records_give_the_verdicts_their_entries_give():
    timeout = {"code": "timeout", "args": {"seconds": 2.0}}
    cuda = [full_entry(f"{lang}/p.md", 0, "a", output="ran\n", reused_from=None if lang == "es" else "es/p.md")
            for lang in ("es", "en")]
    cuda += [full_entry("es/p.md", 1, "b", "skipped", reason="timed out after 2 s", reason_code=timeout)]
    cpu = [full_entry("es/p.md", 0, "a", "error", error="boom"), full_entry("en/p.md", 0, "old")]
    records = [stored_record("cuda", CUDA, *cuda), stored_record("cpu", CPU, *cpu)]
    index = verdicts.index_ledgers(records)
    es, en = index.verdict("es/p.md", 0, "a"), index.verdict("en/p.md", 0, "a")
    assert [(r.machine_id, r.state) for r in es.results] == [("cpu", "failed"), ("cuda", "passed")]
    assert [(r.machine_id, r.state) for r in en.results] == [("cpu", "stale"), ("cuda", "passed")]  # en ran older code
    assert es is not en  # the cpu record holds them differently: each its own verdict
    passed = es.by_state("passed")[0]
    assert (passed.entry.output, passed.credited, passed.entry.ran_at) == ("ran\n", {"en": "es"}, "2026-12-01T10:00:00Z")
    skipped = index.verdict("es/p.md", 1, "b").only().entry
    assert (skipped.reason, skipped.reason_code) == ("timed out after 2 s", timeout)  # read from the table


def test_copies_held_alike_by_every_record_share_one_verdict():
    entries = [full_entry(f"{lang}/p.md", 0, "a") for lang in ("es", "en", "fr")]
    index = verdicts.index_ledgers([stored_record("cuda", CUDA, *entries), stored_record("rocm", ROCM, *entries[:2])])
    es, en, fr = (index.verdict(f"{lang}/p.md", 0, "a") for lang in ("es", "en", "fr"))
    assert es is en and fr is not es  # the rocm record has no fr copy
    assert [r.machine_id for r in fr.results] == ["cuda"]


def test_a_site_without_language_folders_is_read_from_stored_records():
    entries = [full_entry("guide.md", 0, "a") | {"lang": "en"}, full_entry("other/guide.md", 0, "a") | {"lang": "en"}]
    index = verdicts.index_ledgers([stored_record("cuda", CUDA, entries[0]), stored_record("cpu", CPU, *entries)])
    assert [r.machine_id for r in index.verdict("guide.md", 0, "a").results] == ["cpu", "cuda"]
    assert [r.machine_id for r in index.verdict("other/guide.md", 0, "a").results] == ["cpu"]
    assert index.verdict("guide.md", 0, "new").state == "stale"


def test_a_result_is_read_only_where_a_reader_asks():
    skipped = full_entry("es/p.md", 0, "a", "skipped", reason="requires ROCm",
                         reason_code={"code": "requires", "args": {"terms": ["rocm"], "machine": ["CPU only, x86_64"]}})
    index = verdicts.index_ledgers([stored_record("cpu", CPU, skipped), stored_record("h200", CUDA, skipped)])
    cpu, h200 = index.verdict("es/p.md", 0, "a").results
    assert cpu._entry is None and cpu.ran_at == "2026-12-01T10:00:00Z"  # when it ran, without reading the result
    assert cpu.reason_key == h200.reason_key  # the same reason: one key in every record
    assert cpu.entry.reason == "requires ROCm" and cpu._entry is not None


def test_a_record_whose_block_changed_is_stale_beside_those_that_hold_it_alike():
    entries = [full_entry(f"{lang}/p.md", 0, "a") for lang in ("es", "en")]
    changed = [full_entry(f"{lang}/p.md", 0, "old") for lang in ("es", "en")]
    index = verdicts.index_ledgers([stored_record("a-cuda", CUDA, *entries), stored_record("b-cpu", CPU, *changed),
                                    stored_record("c-rocm", ROCM, *entries)])
    es, en = index.verdict("es/p.md", 0, "a"), index.verdict("en/p.md", 0, "a")
    assert [(r.machine_id, r.state) for r in es.results] == [("a-cuda", "passed"), ("b-cpu", "stale"),
                                                             ("c-rocm", "passed")]
    assert es is en
