"""run.run_state: the #> updates a run plans, carried between processes and applied at its end."""

from __future__ import annotations

from ruota_docs.run.run_state import OutputUpdate, apply_updates


def update(path, block="es/p.md#0") -> OutputUpdate:
    return OutputUpdate(block, "es/p.md:1", {str(path): [(2, ["#> old"], ["#> new"])]}, diff="-old\n+new", sha256="x")


def test_an_update_survives_its_trip_as_json():
    original = update("/p.md")
    assert OutputUpdate.from_json(original.to_json()) == original


def test_updates_are_applied_once_and_an_identical_one_is_credited(tmp_path):
    snippet = tmp_path / "s.py"
    snippet.write_text("print('new')\n#> old\n", encoding="utf-8")
    first, second = apply_updates([update(snippet), update(snippet, "en/p.md#0")], shown=str)
    assert snippet.read_text(encoding="utf-8") == "print('new')\n#> new\n"
    assert first.error is None and first.changes and second.changes == [] and second.error is None


def test_an_update_that_cannot_be_applied_says_why_naming_the_file_as_shown(tmp_path):
    snippet = tmp_path / "s.py"
    snippet.write_text("print('new')\n#> something else\n", encoding="utf-8")
    (applied,) = apply_updates([update(snippet)], shown=lambda path: "snippets/s.py")
    assert applied.error and "snippets/s.py" in applied.error and str(tmp_path) not in applied.error
    assert snippet.read_text(encoding="utf-8") == "print('new')\n#> something else\n"
