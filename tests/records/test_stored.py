"""records.stored: a record on disk holds one result per distinct code per page, each output once,
and expands back to the entries the engine wrote."""

from __future__ import annotations

from ruota_docs.records import stored


def entry(lang: str, index: int, *, output: str = "ok\n", reused_from=None, sha="s0") -> dict:
    return {"page": f"{lang}/guides/g.md", "lang": lang, "index": index, "line": 3 + index, "sha256": sha,
            "outcome": "passed", "reason": None, "error": None, "duration": 1.5, "output": output,
            "ran_at": "2026-12-01T10:00:00Z", "id": None, "reused_from": reused_from, "signature": f"sig-{lang}"}


def blocks() -> dict:
    found = [entry("es", 0), entry("en", 0, reused_from="es/guides/g.md"), entry("fr", 0, reused_from="es/guides/g.md"),
             entry("es", 1, sha="s1", output="")]
    return {f"{e['page']}#{e['index']}": e for e in found}


def test_translations_share_one_result_and_an_output_is_stored_once():
    pages, outputs = stored.compact(blocks())
    (name, page), = pages.items()
    assert name == "guides/g.md"
    assert page["signatures"] == {"es": "sig-es", "en": "sig-en", "fr": "sig-fr"}
    first, second = page["results"]
    assert (first["at"], first["credited"]) == ({"es": [0, 3], "en": [0, 3], "fr": [0, 3]}, {"en": "es", "fr": "es"})
    assert outputs == {stored.output_id("ok\n"): "ok\n"} and first["output"] == stored.output_id("ok\n")
    assert "output" not in second and "credited" not in second and "reason" not in second


def test_expand_gives_back_every_entry():
    original = blocks()
    order = tuple(next(iter(original.values())))
    assert stored.expand(*stored.compact(original), order=order) == original


def test_keys_and_positions():
    assert stored.split_page("es/guides/x.md") == ("es", "guides/x.md")
    assert stored.at([3, 12]) == (3, 12) and stored.at(3) == (3, None)
    assert len(stored.output_id("x")) == 16
