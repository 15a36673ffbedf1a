"""records.stored: a record on disk holds one result per distinct code per page, each output
and reason once, and expands back to the entries the engine wrote."""

from __future__ import annotations

from ruota_docs.records import stored
from ruota_docs.records.schema import BlockRef

REQUIRES = {"code": "requires", "args": {"terms": ["rocm"], "machine": ["CPU only, x86_64"]}}


def entry(lang: str, index: int, *, output: str = "ok\n", reused_from=None, sha="s0", **extra) -> dict:
    return {"page": f"{lang}/guides/g.md", "lang": lang, "index": index, "line": 3 + index, "language": "python",
            "sha256": sha,
            "outcome": "passed", "reason": None, "error": None, "duration": 1.5, "output": output,
            "ran_at": "2026-12-01T10:00:00Z", "id": None, "reused_from": reused_from, "signature": f"sig-{lang}",
            "as_root": False, "reason_code": None} | extra


def blocks() -> dict:
    skip = {"outcome": "skipped", "reason": "requires ROCm; this machine: CPU only, x86_64", "reason_code": REQUIRES,
            "as_root": None, "output": "", "ran_at": "2026-12-01T10:00:09Z"}
    found = [entry("es", 0), entry("en", 0, reused_from="es/guides/g.md"), entry("fr", 0, reused_from="es/guides/g.md"),
             entry("es", 1, sha="s1", output=""), entry("es", 2, sha="s2", **skip), entry("en", 2, sha="s3", **skip)]
    return {f"{e['page']}#{e['index']}": e for e in found}


def test_translations_share_one_result_and_an_output_and_a_reason_are_stored_once():
    pages, reasons, outputs = stored.compact(blocks())
    (name, page), = pages.items()
    assert name == "guides/g.md"
    assert page["signatures"] == {"es": "sig-es", "en": "sig-en", "fr": "sig-fr"}
    assert page["lines"] == {"en": [3, None, 5], "es": [3, 4, 5], "fr": [3]}
    assert page["ran_at"] == "2026-12-01T10:00:00Z"  # held by most results: they leave it out
    first, second, third, fourth = (next(r for r in page["results"] if r["sha256"] == sha) for sha in ("s0", "s1", "s2", "s3"))
    assert (first["at"], first["credited"]) == ({"es": 0, "en": 0, "fr": 0}, {"en": "es", "fr": "es"})
    assert outputs == {stored.output_id("ok\n"): "ok\n"} and first["output"] == stored.output_id("ok\n")
    assert "output" not in second and "credited" not in second and "reason" not in second and "ran_at" not in second
    assert third["reason"] == fourth["reason"] and list(reasons) == [third["reason"]]  # two blocks, one reason
    assert reasons[third["reason"]] == {"reason_code": REQUIRES}  # its English is the code's: not stored
    assert third["reason"] == stored.reason_id(reasons[third["reason"]])
    assert third["ran_at"] == "2026-12-01T10:00:09Z" and "as_root" not in third  # null: left out


def entries(pages: dict, outputs: dict, reasons: dict) -> dict:
    """What `stored.expand` reads back, as entries."""
    return {block.key: result.to_entry(block) for block, result in stored.expand(pages, outputs, reasons).items()}


def test_expand_gives_back_every_entry():
    original = blocks()
    pages, reasons, outputs = stored.compact(original)
    assert entries(pages, outputs, reasons) == original
    assert list(stored.expand(pages, outputs, reasons))[:2] == [BlockRef("en/guides/g.md", "en", 0),
                                                                BlockRef("en/guides/g.md", "en", 2)]


def test_a_reason_whose_english_is_not_its_code_s_keeps_its_english():
    old = {"reason": "skipped by hand", "reason_code": None}
    made = {"reason": "requires ROCm", "reason_code": {"code": "timeout", "args": {"seconds": 2.0}}}
    original = {"es/g.md#0": entry("es", 0, **old) | {"page": "es/g.md"},
                "es/g.md#1": entry("es", 1, sha="s1", **made) | {"page": "es/g.md"}}
    pages, reasons, outputs = stored.compact(original)
    assert sorted(map(sorted, map(dict.items, reasons.values())), key=str) == sorted(
        map(sorted, map(dict.items, [old, made])), key=str)
    assert entries(pages, outputs, reasons) == original
    assert stored.english({"reason_code": {"code": "timeout", "args": {"seconds": 2.0}}}) == "timed out after 2 s"
    assert stored.english({"reason_code": {"code": "nonsense"}}) is None


def test_keys_and_positions():
    assert stored.split_page("es/guides/x.md") == ("es", "guides/x.md")
    assert len(stored.output_id("x")) == 16 and len(stored.reason_id(REQUIRES)) == 16
    page = {"lines": {"es": [3, None]}}
    assert (stored.line_of(page, "es", 0), stored.line_of(page, "es", 1), stored.line_of(page, "en", 0)) == (3, None, None)
