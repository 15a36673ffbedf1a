"""The one list of records every tool reads (`ruota_docs.records.listing`): hidden files, links and
anything that is not a regular file are refused, named, by the check, the build and status alike."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from _support import RX7600, run_mkdocs, synthetic_record, write_tree, record_of
from ruota_docs import status
from ruota_docs.cli import main
from ruota_docs.records import ledger, listing

PAGE = "# Página { #page }\n\n```python\nprint('uno')\n```\n"


@pytest.fixture
def project(tmp_path) -> Path:
    root = write_tree(tmp_path / "project", {f"docs/{lang}/p.md": PAGE for lang in ("es", "en", "fr")},
                      site=True, conftest=False)
    (root / "verification").mkdir()
    data = synthetic_record(root, RX7600)
    (root / "verification" / "rocm-gfx1102.json").write_text(record_of(data).to_json(), encoding="utf-8")
    return root


HOSTILE = {
    ".cpu-x86_64.json": ("copy", "a hidden file (its name starts with a dot)"),
    ".r;exit 0;.json": ("copy", "a hidden file (its name starts with a dot)"),
    "link-0000aaaa.json": ("symlink", "a symbolic link"),
    "zero-0000aaaa.json": ("devzero", "a symbolic link"),
    "folder-0000aaaa.json": ("dir", "not a regular file"),
    "Upper Case.json": ("copy", "not a name the engine gives a record"),
}


def _make(folder: Path, name: str, how: str) -> None:
    target = folder / name
    if how == "copy":
        target.write_bytes((folder / "rocm-gfx1102.json").read_bytes())
    elif how == "symlink":
        target.symlink_to(folder / "rocm-gfx1102.json")
    elif how == "devzero":
        target.symlink_to("/dev/zero")
    else:
        target.mkdir()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_tool_refuses_what_is_not_a_record_naming_it(project, name, capsys):
    how, why = HOSTILE[name]
    folder = project / "verification"
    _make(folder, name, how)
    found, refused = listing.folder_records(folder)
    assert found == [folder / "rocm-gfx1102.json"]
    assert [(p.name, w.startswith(why)) for p, w in refused] == [(name, True)]
    # record check on the folder (what make check runs)
    assert main(["--root", str(project), "record", "check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert f"{folder / name}: record: error: {why}" in out
    # status, as `make check` and CI run it
    with pytest.raises(ledger.LedgerError, match=re.escape(f"{name}: {why}")):
        status.compute(project, project / "docs", ["es", "en", "fr"], "verification")
    # the build
    built = run_mkdocs(project)
    assert built.returncode != 0
    assert name in built.stderr and why in built.stderr


def test_the_engine_s_own_records_are_listed(project):
    # the engine's temporary file while it writes a record, and a note, are no record to any tool
    (project / "verification" / ".rocm-gfx1102.json._c9_kppv.tmp").write_text("{")
    (project / "verification" / "README.md").write_text("records\n")
    assert listing.records(project / "verification") == [project / "verification" / "rocm-gfx1102.json"]
    assert listing.records(project / "nowhere") == []


def test_names_pass_through_no_shell(project, tmp_path, capsys, monkeypatch):
    """`record check --from` reads names one per NUL byte, as `git diff -z` writes them: a name that
    is shell syntax is only a name (make record-check passes the list's file, never the names)."""
    folder = project / "verification"
    _make(folder, ".r;exit 0;.json", "copy")
    names = tmp_path / "names"
    names.write_bytes(b"verification/rocm-gfx1102.json\0verification/.r;exit 0;.json\0")
    monkeypatch.chdir(project)
    assert main(["--root", str(project), "record", "check", "--from", str(names)]) == 1
    out = capsys.readouterr().out
    assert "verification/.r;exit 0;.json: record: error: a hidden file" in out
    assert "REFUSED: 2 records" in out
    made = subprocess.run(["make", "-s", "-C", str(Path(__file__).parents[2]), "-n", "record-check",
                           f"RECORDS_FROM={names}"], capture_output=True, text=True)
    assert f'record check --from "{names}"' in made.stdout


def test_a_record_named_by_its_user_outside_the_records_folder_may_have_any_name(project, capsys):
    """`--ledger my.json`: the naming rule is for records in verification/ only; a hidden name never passes."""
    data = (project / "verification" / "rocm-gfx1102.json").read_bytes()
    (project / "my.json").write_bytes(data)
    assert main(["--root", str(project), "record", "check", str(project / "my.json")]) == 0
    (project / ".my.json").write_bytes(data)
    assert main(["--root", str(project), "record", "check", str(project / ".my.json")]) == 1
    (project / "verification" / "my.json").write_bytes(data)
    assert main(["--root", str(project), "record", "check", str(project / "verification" / "my.json")]) == 1
    assert "the file must be named rocm-gfx1102.json" in capsys.readouterr().out
