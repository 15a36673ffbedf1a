"""run.guard: blocks that write into the repository are noticed, and records they change are put back."""

from __future__ import annotations

import json

from ruota_docs.run import guard


def project(tmp_path):
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    (tmp_path / "docs" / "es").mkdir(parents=True)
    (tmp_path / "docs" / "es" / "p.md").write_text("# P\n", encoding="utf-8")
    (tmp_path / "verification").mkdir()
    (tmp_path / "verification" / "m.json").write_text('{"machine_id": "m"}', encoding="utf-8")
    return tmp_path


def test_writes_into_the_repository_are_named_with_what_happened(tmp_path):
    root = project(tmp_path)
    watch = guard.RepositoryGuard(root)
    assert watch.changes() == []
    (root / "docs/es/new.md").write_text("x", encoding="utf-8")
    (root / "docs/es/p.md").unlink()
    (root / "site").mkdir()
    (root / "site" / "index.html").write_text("built", encoding="utf-8")  # the site directory is the build's
    assert watch.changes() == ["docs/es/new.md (created)", "docs/es/p.md (deleted)"]
    assert watch.changes() == []  # since the last call


def test_a_record_a_block_changed_is_put_back_and_one_it_made_removed(tmp_path):
    root = project(tmp_path)
    keeper = guard.RecordKeeper(root / "verification")
    (root / "verification" / "m.json").write_text("{}", encoding="utf-8")
    (root / "verification" / "other.json").write_text("{}", encoding="utf-8")
    bent, notes = keeper.check()
    assert bent == ["verification/m.json (modified, put back as it was)", "verification/other.json (created, removed)"]
    assert notes == []
    assert json.loads((root / "verification" / "m.json").read_text(encoding="utf-8")) == {"machine_id": "m"}
    assert not (root / "verification" / "other.json").exists()
    assert keeper.check() == ([], [])


def test_the_notes_say_what_the_block_did():
    assert guard.repository_note(["docs/es/x.md (created)"]).startswith(
        "wrote into the repository instead of its working directory: docs/es/x.md (created) (write relative to")
    assert "verification/m.json" in guard.records_note(["verification/m.json (modified, put back as it was)"], [])
