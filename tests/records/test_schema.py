"""records.schema: the record as one typed model, its JSON read and written byte for byte, its field lists."""

from __future__ import annotations

import dataclasses
import json

import pytest

from _support import REPO
from ruota_docs.records import schema, stored
from ruota_docs.records.schema import BlockRef, Machine, Record, RecordError, Result

MACHINE = Machine(backend="cpu", machine="x86_64", machine_id="cpu-x86_64")


def result(outcome: str = "passed", **fields) -> Result:
    return Result(**{"fence_language": "python", "sha256": f"code-{outcome}", "outcome": outcome, "duration": 0.1,
                     "ran_at": "2026-11-20T10:00:00Z"} | fields)


def results(*found: tuple[str, int, str]) -> dict[BlockRef, Result]:
    return {BlockRef(page, page.split("/")[0], index, 3 + 4 * index): result(outcome) for page, index, outcome in found}


@pytest.mark.realdocs
@pytest.mark.parametrize("name", ["cpu-x86_64.json", "cuda-nvidia-h100-80gb-hbm3-5cab82cc.json"])
def test_a_committed_record_is_written_back_byte_for_byte(name):
    """Decoded into the model and encoded again, each committed record is the file it was."""
    path = REPO / "verification" / name
    record = Record.from_json(path.read_bytes(), path)
    assert len(record.results) > 300 and all(isinstance(r, Result) for r in record.results.values())
    again = Record(machine_id=record.machine_id, machine=record.machine, fingerprint=record.fingerprint,
                   provenance=record.provenance, updated=record.updated, results=dict(record.results))
    assert again.to_json() == path.read_text(encoding="utf-8")
    assert Record.from_json(again.to_json()) == again


def test_a_result_reads_its_fields_as_attributes():
    text = (REPO / "verification" / "cpu-x86_64.json").read_bytes()
    record = Record.from_json(text)
    found = record.results[BlockRef("es/index.md", "es", 0)]
    assert (found.outcome, found.fence_language, found.reused_from) == ("passed", "python", None)
    assert next(b for b in record.results if b.key == "es/index.md#0").line is not None
    assert record.by_key()["en/index.md#0"][1].reused_from == "es/index.md"  # credited with the source's run


def test_merge_replaces_complete_pages_and_keeps_others():
    old = Record(machine_id="cpu-x86_64", machine=MACHINE,
                 results=results(("es/a.md", 0, "passed"), ("es/a.md", 1, "passed"), ("es/a.md", 2, "passed"),
                                 ("es/b.md", 0, "passed")))
    merged = schema.merge(old, results(("es/a.md", 0, "failed")), {"es/a.md"}, MACHINE)
    # a.md ran in full with one block: its blocks 1 and 2 no longer exist
    assert [b.key for b in merged.results] == ["es/a.md#0", "es/b.md#0"]
    assert merged.by_key()["es/a.md#0"][1].outcome == "failed"
    assert merged.by_key()["es/b.md#0"][1] == result()
    assert merged.machine_id == "cpu-x86_64" and merged.updated


def test_merge_partial_run_updates_only_what_ran_and_forgets_what_it_did_not_run():
    old = Record(machine_id="cpu-x86_64", machine=MACHINE,
                 results=results(("es/a.md", 0, "passed"), ("es/a.md", 1, "passed"), ("es/a.md", 3, "passed")))
    merged = schema.merge(old, results(("es/a.md", 1, "skipped"), ("es/a.md", 2, "passed")), set(), MACHINE,
                          forget={"es/a.md#3"})
    assert [b.key for b in merged.results] == ["es/a.md#0", "es/a.md#1", "es/a.md#2"]
    assert merged.by_key()["es/a.md#1"][1].outcome == "skipped"


def test_merge_sorts_by_page_then_index():
    merged = schema.merge(Record(machine_id=None), results(("fr/z.md", 0, "passed"), ("es/a.md", 10, "passed"),
                                                           ("es/a.md", 2, "passed")), set(), MACHINE)
    assert [b.key for b in merged.results] == ["es/a.md#2", "es/a.md#10", "fr/z.md#0"]


def test_the_field_lists_derive_from_the_model():
    names = [f.metadata.get("json") or f.name for f in dataclasses.fields(Result)]
    assert list(schema.ENTRY_FIELDS) == ["page", "lang", "index", "line", "file", *names]
    assert schema.ENTRY_FIELDS["id"] == (str, type(None)) and schema.ENTRY_FIELDS["duration"] == (int, float)
    assert schema.OPTIONAL_FIELDS == ("file", "signature", "as_root", "reason_code", "tier", "isolation")
    assert schema.OMITTED_IF_NULL == ("id", "error", "output", "as_root", "tier", "isolation")
    assert schema.PER_COPY == ("page", "lang", "index", "line", "file", "reused_from", "signature")
    assert schema.REASON_FIELDS == ("reason", "reason_code")
    # what the site shows, which publishing holds to the private-data rules
    assert schema.SHOWN_FIELDS == {"tab": ("output", "error"), "mark": ("reason",)}


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Extended(Result):
    """A result with one more optional field, as a new field is added: one line."""

    comment: str | None = schema._field(optional=True, absent=True)


def test_a_new_optional_field_is_absent_from_the_json_while_unset(monkeypatch):
    """A field added to the model is stored as it is, and left out where unset: records that do
    not use it keep their bytes."""
    monkeypatch.setattr(stored, "_SHARED", (*stored._SHARED, ("comment", "comment")))
    monkeypatch.setattr(stored, "_STORED_KEYS", stored._STORED_KEYS | {"comment"})
    monkeypatch.setattr(stored, "OMITTED_IF_NULL", (*schema.OMITTED_IF_NULL, "comment"))
    monkeypatch.setattr(schema, "_JSON_NAMES", (*schema._JSON_NAMES, ("comment", "comment")))
    monkeypatch.setattr(schema, "_ABSENT_IF_NULL", schema._ABSENT_IF_NULL | {"comment"})
    monkeypatch.setattr(stored, "Result", Extended)
    block = BlockRef("es/a.md", "es", 0, 3)
    unset = Record(machine_id="cpu-x86_64", machine=MACHINE, results={block: Extended(**_fields(result()))})
    assert '"comment"' not in unset.to_json() and "comment" not in unset.to_dict()["blocks"]["es/a.md#0"]
    isolated = Record(machine_id="cpu-x86_64", machine=MACHINE,
                      results={block: Extended(**_fields(result()), comment="a note")})
    written = json.loads(isolated.to_json())
    assert written["pages"]["a.md"]["results"][0]["comment"] == "a note"
    assert Record.from_json(isolated.to_json()).results[block].comment == "a note"


def test_the_evidence_tier_is_absent_where_a_block_reached_none():
    block = BlockRef("es/a.md", "es", 0, 3)
    plain = Record(machine_id="cpu-x86_64", machine=MACHINE, results={block: result()})
    assert '"tier"' not in plain.to_json() and "tier" not in plain.to_dict()["blocks"]["es/a.md#0"]
    compiled = plain.replace(results={block: dataclasses.replace(result(), tier="compiled")})
    assert json.loads(compiled.to_json())["pages"]["a.md"]["results"][0]["tier"] == "compiled"
    assert Record.from_json(compiled.to_json()).results[block].tier == "compiled"


def _fields(found: Result) -> dict:
    return {f.name: getattr(found, f.name) for f in dataclasses.fields(found)}


def test_an_unknown_field_of_a_result_is_refused_naming_it():
    record = Record(machine_id="cpu-x86_64", machine=MACHINE, results=results(("es/a.md", 0, "passed")))
    data = json.loads(record.to_json())
    data["pages"]["a.md"]["results"][0]["mood"] = "fine"
    with pytest.raises(RecordError, match=r"^m.json: pages.a.md.results\[0\].mood: not a field of a result this "
                                          r"ruota-docs knows; upgrade ruota-docs$"):
        Record.from_json(json.dumps(data), "m.json")


def test_an_entry_round_trips_through_the_model():
    block = BlockRef("es/a.md", "es", 2, 11)
    found = result("skipped", reason="requires ROCm", reason_code=None, signature="sig")
    entry = found.to_entry(block)
    assert entry["reason_code"] is None and "signature" in entry
    assert list(entry) == [k for k in schema.ENTRY_FIELDS if k not in ("file", "tier", "isolation")]  # none: absent
    assert Result.from_entry(entry) == found and entry["line"] == 11 and entry["signature"] == "sig"
    with pytest.raises(RecordError, match="^entry es/a.md#2: missing field 'language'$"):
        Result.from_entry({"page": "es/a.md", "index": 2, "sha256": "x", "outcome": "passed"})


def test_a_block_written_in_an_included_markdown_file_is_kept_at_that_file_and_line():
    """The block still belongs to its page (page and index are its identity), but its line is its fence's
    line in the Markdown file an include brought it from, which the record names; a record without such
    blocks holds no ``files`` at all."""
    on_page, included = BlockRef("es/a.md", "es", 0, 3), BlockRef("es/a.md", "es", 1, 12, "snippets/part.md")
    record = Record(machine_id="cpu-x86_64", machine=MACHINE,
                    results={on_page: result(), included: result("failed"),
                             BlockRef("en/a.md", "en", 1, 12, "snippets/part.md"): result("failed")})
    page = json.loads(record.to_json())["pages"]["a.md"]
    assert page["lines"] == {"en": [None, 12], "es": [3, 12]}
    assert page["files"] == {"en": [None, "snippets/part.md"], "es": [None, "snippets/part.md"]}
    again = Record.from_json(record.to_json())
    assert [(b.key, b.line, b.file) for b in again.results] == [
        ("en/a.md#1", 12, "snippets/part.md"), ("es/a.md#0", 3, None), ("es/a.md#1", 12, "snippets/part.md")]
    assert again.to_json() == record.to_json()
    assert included == BlockRef("es/a.md", "es", 1)  # where it is written is not its identity
    entry = again.to_dict()["blocks"]["es/a.md#1"]
    assert (entry["line"], entry["file"]) == (12, "snippets/part.md") and BlockRef.from_entry(entry).file == entry["file"]
    assert "files" not in json.loads(Record(machine_id="m", machine=MACHINE, results={on_page: result()}).to_json())[
        "pages"]["a.md"]


# -- the machine --------------------------------------------------------------------------------------------------
@pytest.mark.realdocs
@pytest.mark.parametrize("name", ["cpu-x86_64.json", "cuda-nvidia-h100-80gb-hbm3-5cab82cc.json"])
def test_a_committed_records_machine_is_read_by_attribute_and_written_back_as_it_was(name):
    raw = json.loads((REPO / "verification" / name).read_text(encoding="utf-8"))["machine"]
    machine = Record.from_json((REPO / "verification" / name).read_bytes()).machine
    assert isinstance(machine, Machine) and machine.machine_id == raw["machine_id"] == machine.named_id
    assert (machine.backend, machine.gpu_name, machine.packages) == (raw["backend"], raw["gpu_name"], raw["packages"])
    assert json.dumps(machine.to_json()) == json.dumps(raw)  # the same fields in the same order


def test_the_machines_fields_and_types_derive_from_the_model():
    assert list(schema.MACHINE_FIELDS) == [f.name for f in dataclasses.fields(Machine)]
    assert schema.MACHINE_FIELDS["vram_bytes"] == (int, type(None)) and schema.MACHINE_FIELDS["packages"] == (dict,)


def test_a_machine_decodes_what_it_knows_and_names_what_it_does_not():
    assert Machine.from_json(None) == Machine() and Machine().machine_id == ""
    partial = Machine.from_json({"backend": "rocm", "arch": "gfx1102"})
    assert (partial.gpu_count, partial.packages, partial.machine_id) == (0, {}, "rocm-gfx1102")
    with pytest.raises(RecordError, match=r"^m.json: machine.hostname: not a field of a machine"):
        Machine.from_json({"backend": "cpu", "hostname": "desk"}, "m.json: machine")
    with pytest.raises(RecordError, match=r"^machine: must be an object, not list"):
        Machine.from_json(["cpu"])


def test_a_machine_is_labelled_and_grouped_from_one_table_of_backends():
    rocm = Machine(backend="rocm", gpu_name="AMD Radeon RX 7600", arch="gfx1102", machine="x86_64")
    cpu = Machine(backend="cpu", machine="x86_64")
    assert [m.label for m in (rocm, cpu, Machine(backend="rocm"))] == [
        "AMD Radeon RX 7600 (ROCm, gfx1102)", "CPU x86_64", "AMD GPU (ROCm)"]
    assert [m.describe() for m in (rocm, cpu)] == ["ROCm, AMD Radeon RX 7600", "CPU only, x86_64"]
    assert (rocm.group, cpu.group) == (("rocm", "gfx1102"), ("cpu", "x86_64"))
    assert sorted(["cpu", "other", "cuda", "rocm"], key=schema.backend_order) == ["rocm", "cuda", "cpu", "other"]
