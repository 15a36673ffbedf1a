"""ci provenance shown only when verified (`ruota_docs.records.attestations`), tested up to GitHub's
boundary: a stand-in `gh` on PATH answers as GitHub's CLI would for a verified and a forged record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from _support import record_of
from ruota_docs.records import attestations

REPO = "ruota-docs/ruota-docs"
GH = """#!/bin/sh
# stand-in for GitHub's CLI: logs its arguments; verifies only records named in $GOOD
echo "$@" >> "$GH_LOG"
if [ "$1" = attestation ]; then
  case " $GOOD " in *" $(basename "$3") "*) exit 0;; esac
  echo "Error: verifying with issuer \\"sigstore.dev\\": no matching attestations found" >&2; exit 1
fi
if [ "$1" = api ]; then echo "card-owner"; exit 0; fi
exit 2
"""


def record(folder: Path, name: str, run: str | None) -> Path:
    provenance = {"kind": "ci", "run_url": run, "commit": "0" * 40} if run else {"kind": "sent", "commit": None}
    path = folder / name
    path.write_text(json.dumps({"provenance": provenance}), encoding="utf-8")
    return path


@pytest.fixture
def gh(tmp_path, monkeypatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "gh").write_text(GH)
    (bin_dir / "gh").chmod(0o755)
    log = tmp_path / "gh.log"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GH_LOG", str(log))
    monkeypatch.setenv("GOOD", "rocm-gfx1102-0000aaaa.json")
    return log


def test_only_attested_ci_records_are_listed_with_their_run_s_account(tmp_path, gh):
    folder = tmp_path / "verification"
    folder.mkdir()
    run = f"https://github.com/{REPO}/actions/runs/42"
    record(folder, "rocm-gfx1102-0000aaaa.json", run)
    record(folder, "rocm-gfx1102-0000bbbb.json", run)  # a hand-made claim: no attestation
    record(folder, "rocm-gfx1102-0000cccc.json", "https://github.com/someone/else/actions/runs/1")
    record(folder, "cpu-x86_64.json", None)  # sent: nothing to verify
    out = tmp_path / "verified.txt"
    done = subprocess.run([sys.executable, "-m", "ruota_docs.records.attestations", str(folder), "--repo", REPO,
                           "--out", str(out)], capture_output=True, text=True, env=os.environ)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == "rocm-gfx1102-0000aaaa.json\tcard-owner\n"
    assert attestations.read(out) == {"rocm-gfx1102-0000aaaa.json": "card-owner"}
    assert "0000bbbb.json: gh attestation verify: Error: verifying" in done.stdout
    assert f"0000cccc.json: provenance.run_url: not a run of {REPO}" in done.stdout
    assert "verified 1 of 3 ci records" in done.stdout
    calls = gh.read_text().splitlines()
    assert calls[0] == (f"attestation verify {folder / 'rocm-gfx1102-0000aaaa.json'} --repo {REPO} "
                        f"--signer-workflow {REPO}/.github/workflows/records.yml")
    assert f"api repos/{REPO}/actions/runs/42 --jq .triggering_actor.login" in calls


def test_a_ci_record_is_claimed_unless_listed_and_a_bad_list_is_named(tmp_path, monkeypatch):
    ci = {"provenance": {"kind": "ci"}}
    assert attestations.state(ci, "a.json", {}) == "claimed"
    assert attestations.state(ci, "a.json", {"a.json": "x"}) == "verified"
    assert attestations.state({"provenance": {"kind": "sent"}}, "a.json", {}) is None
    bad = tmp_path / "list"
    bad.write_text("../../etc/passwd\tx\n")
    with pytest.raises(attestations.ListError, match=f"{bad}:1: expected a record's file name"):
        attestations.read(bad)
    monkeypatch.setenv(attestations.ENV, str(bad))
    with pytest.raises(attestations.ListError):
        attestations.read()
    monkeypatch.delenv(attestations.ENV)
    assert attestations.read() == {}


def test_a_commit_not_in_the_history_is_flagged(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q",
                    "--allow-empty", "-m", "x"], check=True)
    head = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert attestations.commit_known(tmp_path, head) is True
    assert attestations.commit_known(tmp_path, "673aa75a5a" + "0" * 30) is False
    assert attestations.commit_known(tmp_path / "nowhere", head) is None


def test_record_check_flags_a_commit_not_in_the_history(tmp_path):
    from _support import RX7600, synthetic_record, write_tree
    from ruota_docs.records import check

    root = write_tree(tmp_path / "p", {f"docs/{lang}/p.md": "# P { #p }\n\n```python\nprint(1)\n```\n"
                                       for lang in ("es", "en", "fr")}, conftest=False)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q",
                    "--allow-empty", "-m", "x"], check=True)
    data = synthetic_record(root, RX7600)
    data["provenance"] = {"kind": "sent", "commit": "673aa75a5a" + "0" * 30}
    (root / "verification").mkdir()
    path = root / "verification" / "rocm-gfx1102.json"
    path.write_text(record_of(data).to_json(), encoding="utf-8")
    report = check.check_file(path, root, root / "docs")
    assert [(p.where, p.severity) for p in report.problems] == [("provenance.commit", "warning")]
    assert report.problems[0].message.startswith(f"{'673aa75a5a' + '0' * 30} is not in this repository's history")


def test_record_check_refuses_a_record_written_before_the_commit_that_ran_it(tmp_path):
    """A commit of 2026-12-01 cannot have run on 2026-11-28: the record's time is made up."""
    from _support import RX7600, synthetic_record, write_tree
    from ruota_docs.records import check

    root = write_tree(tmp_path / "p", {f"docs/{lang}/p.md": "# P { #p }\n\n```python\nprint(1)\n```\n"
                                       for lang in ("es", "en", "fr")}, conftest=False)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q",
                    "--allow-empty", "-m", "x"], check=True,
                   env=dict(os.environ, GIT_COMMITTER_DATE="2026-12-01T12:00:00Z", GIT_AUTHOR_DATE="2026-12-01T12:00:00Z"))
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert attestations.commit_time(root, head) == 1796126400  # 2026-12-01T12:00:00Z
    (root / "verification").mkdir()
    path = root / "verification" / "rocm-gfx1102.json"
    # two minutes before the commit: within the clock skew allowed between machines
    for when, problems in (("2026-11-28T09:30:00Z", [("record.updated", "error")]), ("2026-12-01T11:58:00Z", [])):
        data = synthetic_record(root, RX7600, when=when)
        data["provenance"] = {"kind": "sent", "commit": head}
        path.write_text(record_of(data).to_json(), encoding="utf-8")
        report = check.check_file(path, root, root / "docs")
        assert [(p.where, p.severity) for p in report.problems] == problems, [str(p) for p in report.problems]
        if problems:
            assert report.problems[0].message == (f"2026-11-28T09:30:00Z is before the commit the suite ran on ({head[:12]}, "
                                                  "committed 2026-12-01T12:00:00Z): no run precedes its code")
