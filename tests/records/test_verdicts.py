"""records.verdicts: what the records say about each block, stale code never green."""

from __future__ import annotations

from ruota_docs.records import verdicts

CUDA = {"backend": "cuda", "gpu_name": "NVIDIA H200", "arch": "sm_90", "machine": "x86_64"}
ROCM = {"backend": "rocm", "gpu_name": "AMD Radeon RX 7600", "arch": "gfx1102", "machine": "x86_64"}
CPU = {"backend": "cpu", "machine": "x86_64"}


def ledger(machine_id: str, machine: dict, *entries: tuple[int, str, str], fingerprint: str | None = None) -> dict:
    data = {"machine_id": machine_id, "machine": machine,
            "blocks": {f"es/p.md#{i}": {"page": "es/p.md", "index": i, "sha256": sha, "outcome": outcome}
                       for i, sha, outcome in entries}}
    return data | ({"fingerprint": fingerprint} if fingerprint else {})


def test_labels_ids_and_groups():
    assert [verdicts.machine_label(m) for m in (CUDA, ROCM, CPU, {"backend": "rocm"})] == [
        "NVIDIA H200 (CUDA)", "AMD Radeon RX 7600 (ROCm, gfx1102)", "CPU x86_64", "AMD GPU (ROCm)"]
    assert verdicts.record_id({"machine_id": "rocm-gfx1102", "fingerprint": "0123456789" * 3}) == "rocm-gfx1102-01234567"
    assert verdicts.group_of(ROCM) == ("rocm", "gfx1102") and verdicts.target(CPU) == "x86_64"


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
