"""records.check_cache: a set of records the build's check accepted is not checked again, until a record, a
page it read or the blocks the check is given change."""

from __future__ import annotations

import pytest

from _support import RX7600, record_of, synthetic_record, write_tree
from ruota_docs.blocks.collect import page_blocks
from ruota_docs.records import check, check_cache

PAGE = "# Página { #page }\n\n```python\nprint(2 + 2)\n#> 4\n```\n\n```python\nprint('dos')\n```\n"


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RUOTA_DOCS_NO_SPEEDUPS", raising=False)
    root = write_tree(tmp_path / "site", {f"docs/{lang}/p.md": PAGE for lang in ("es", "en", "fr")}, conftest=False)
    write_record(root, synthetic_record(root, RX7600, lambda block: ("passed", "4\n" if "#>" in block.code else "dos\n",
                                                                     None)))
    return root


def write_record(root, data) -> None:
    folder = root / "verification"
    folder.mkdir(exist_ok=True)
    (folder / "rocm-gfx1102.json").write_text(record_of(data).to_json(), encoding="utf-8")


def build_check(root, built=None) -> list[check.Report]:
    """The check a build runs: cached, with the pages' blocks as the build rendered them."""
    return check.check_files(sorted((root / "verification").glob("*.json")), root, root / "docs", cached=True,
                             built=built)


def test_an_accepted_set_is_remembered_and_not_checked_again(site, monkeypatch):
    first = build_check(site)
    assert [r.remembered for r in first] == [False] and first[0].entries == 6 and not first[0].problems
    read = []
    monkeypatch.setattr(check, "check_file", lambda *a, **k: read.append(a) or check.Report(str(a[0])))
    again = build_check(site)
    assert [r.remembered for r in again] == [True] and read == []


def test_a_changed_page_is_checked_again(site):
    assert not build_check(site)[0].remembered
    page = site / "docs" / "es" / "p.md"
    page.write_text(PAGE.replace("print('dos')", "print('tres')"), encoding="utf-8")
    report = build_check(site)[0]
    assert not report.remembered
    assert [p.message.split(",")[0] for p in report.problems] == [
        "stale: the code of block 1 (line 8) has changed since it ran"]


def test_a_changed_record_is_checked_again_and_a_refused_one_never_remembered(site):
    assert not build_check(site)[0].remembered
    # the same machine's record, now with an output its block's #> line does not state
    write_record(site, synthetic_record(site, RX7600, lambda block: ("passed", "5\n" if "#>" in block.code else "dos\n",
                                                                     None)))
    for _ in range(2):
        report = build_check(site)[0]
        assert not report.remembered
        assert {(p.rule, p.where) for p in report.problems if p.severity == "error"} == {
            ("agreement", f"{lang}/p.md#0.output") for lang in ("es", "en", "fr")}


def test_the_blocks_a_build_rendered_are_part_of_the_key(site):
    docs = site / "docs"
    built = {f"{lang}/p.md": page_blocks(site, docs, docs / lang / "p.md", shown_only=True) for lang in ("es", "en", "fr")}
    assert not build_check(site, built)[0].remembered
    assert build_check(site, built)[0].remembered
    built["fr/p.md"][1].code = "print('otro')\n"  # the build rendered another block than the file holds now
    report = build_check(site, built)[0]
    assert not report.remembered and report.stale == 1


def test_the_switch_turns_it_off(site, monkeypatch):
    monkeypatch.setenv("RUOTA_DOCS_NO_SPEEDUPS", "check_cache")
    assert [build_check(site)[0].remembered for _ in range(2)] == [False, False]
    assert check_cache.key([], site, site / "docs", site / "verification") is None


def test_record_check_on_the_command_line_checks_every_time(site):
    build_check(site)
    reports = check.check_files(sorted((site / "verification").glob("*.json")), site, site / "docs")
    assert [r.remembered for r in reports] == [False] and reports[0].entries == 6
