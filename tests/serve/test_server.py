"""serve.server: the live preview's watcher, its snapshots of the files and its command line."""

from __future__ import annotations

import time

import pytest

from ruota_docs.serve import server


# -- what changed ----------------------------------------------------------------------------------------------
def test_changes_between_snapshots(tmp_path):
    (tmp_path / "docs").mkdir()
    kept, edited, removed = (tmp_path / "docs" / name for name in ("kept.md", "edited.md", "removed.md"))
    for path in (kept, edited, removed):
        path.write_text("x\n", encoding="utf-8")
    before = server.snapshot([tmp_path / "docs"])
    edited.write_text("longer\n", encoding="utf-8")
    removed.unlink()
    added = tmp_path / "docs" / "added.md"
    added.write_text("y\n", encoding="utf-8")
    # what editors and Python write beside the files: never a change of the site
    for name in (".edited.md.swp", "edited.md~", "#edited.md#", ".hidden.md"):
        (tmp_path / "docs" / name).write_text("z\n", encoding="utf-8")
    (tmp_path / "docs" / "__pycache__").mkdir()
    (tmp_path / "docs" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"\0")
    found = server.changes(before, server.snapshot([tmp_path / "docs"]))
    assert found == {edited.resolve(): "modified", removed.resolve(): "removed", added.resolve(): "added"}


def test_the_command_line_refuses_a_bad_poll(capsys):
    with pytest.raises(SystemExit) as exited:
        server.main(["--poll", "0"])
    assert exited.value.code == 2 and "--poll must be a positive number of seconds" in capsys.readouterr().err


def test_ruota_docs_serve_is_the_same_command(capsys, tmp_path, monkeypatch):
    from ruota_docs.cli import main

    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert exited.value.code == 0 and out.startswith("usage: ruota-docs serve") and "--full" in out
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--poll", "-1"])
    assert exited.value.code == 2 and "ruota-docs serve: error: --poll must be a positive" in capsys.readouterr().err


def test_snapshot_of_a_single_file(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\n", encoding="utf-8")
    taken = server.snapshot([config])
    assert list(taken) == [config.resolve()]
    time.sleep(0.01)
    config.write_text("site_name: y\n", encoding="utf-8")
    assert server.changes(taken, server.snapshot([config])) == {config.resolve(): "modified"}
