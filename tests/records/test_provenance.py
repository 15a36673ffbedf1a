"""records.provenance: where a record comes from (a CI job or sent by hand), and the machine's fingerprint."""

from __future__ import annotations

import re

from ruota_docs.records import provenance
from ruota_docs.records.schema import Machine

COMMIT = "a" * 40
CI_ENV = {"GITHUB_ACTIONS": "true", "GITHUB_RUN_ID": "77", "GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": COMMIT,
          "RUOTA_DOCS_RUNNER_LABELS": "self-hosted, linux,gfx1102,"}
ROCM = Machine(backend="rocm", arch="gfx1102")


def test_a_ci_job_writes_its_run_and_labels_and_elsewhere_a_record_is_sent():
    assert provenance.from_environment(CI_ENV) == {
        "kind": "ci", "run_url": "https://github.com/o/r/actions/runs/77", "repository": "o/r", "commit": COMMIT,
        "runner_labels": ["self-hosted", "linux", "gfx1102"]}
    assert provenance.from_environment({}, commit=COMMIT) == {"kind": "sent", "commit": COMMIT}


def test_a_provenance_that_fits_has_no_problem():
    assert provenance.check(provenance.from_environment(CI_ENV), ROCM) == []
    assert provenance.check({"kind": "sent", "commit": None}, ROCM) == []


def test_problems_name_their_field():
    fields = [field for field, _ in provenance.check({"kind": "ci", "run_url": "https://github.com/x/y/actions/runs/1",
                                                      "repository": "o/r", "commit": "HEAD", "runner_labels": ["linux"],
                                                      "extra": 1}, ROCM)]
    assert fields == ["provenance.extra", "provenance.commit", "provenance.run_url", "provenance.runner_labels"]
    assert provenance.check("ci", ROCM)[0][0] == "provenance"
    assert provenance.check({"kind": "mailed"}, ROCM)[0][0] == "provenance.kind"


def test_a_rocm_record_comes_from_a_runner_labelled_with_its_target():
    labels = provenance.from_environment(CI_ENV | {"RUOTA_DOCS_RUNNER_LABELS": "self-hosted,gfx906"})
    (problem,) = provenance.check(labels, ROCM)
    assert problem[0] == "provenance.runner_labels" and "gfx1102" in problem[1]


def test_the_fingerprint_is_a_salted_hash_of_the_machine_id(tmp_path):
    (tmp_path / "id").write_text("0123456789abcdef\n", encoding="ascii")
    one = provenance.fingerprint([str(tmp_path / "missing"), str(tmp_path / "id")])
    assert re.fullmatch(r"[0-9a-f]{32}", one) and "0123456789abcdef" not in one
    assert one == provenance.fingerprint([str(tmp_path / "id")])
    assert provenance.fingerprint([str(tmp_path / "missing")]) != one  # the network node's, then
    assert provenance.check_fingerprint(one) is None and provenance.check_fingerprint(None) is None
    assert "32 lower-case hex digits" in provenance.check_fingerprint("ABC")


def test_without_a_machine_id_the_fingerprint_is_still_the_machine_s(tmp_path, monkeypatch):
    monkeypatch.setattr(provenance.uuid, "getnode", lambda: 0x0242AC110002)
    assert provenance.fingerprint([tmp_path / "missing"]) == provenance.fingerprint([tmp_path / "missing"])
    # no network card's address: Python would make one up per run, so the host name is hashed
    made_up = iter([0x010000000001, 0x010000000002])
    monkeypatch.setattr(provenance.uuid, "getnode", lambda: next(made_up))
    assert provenance.fingerprint([tmp_path / "missing"]) == provenance.fingerprint([tmp_path / "missing"])


def test_the_commit_that_ran_is_read_as_git_reads_it(tmp_path):
    import subprocess

    def git(*args, cwd=tmp_path / "repo"):
        return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=cwd,
                              capture_output=True, text=True, check=True).stdout.strip()

    (tmp_path / "repo" / "verification").mkdir(parents=True)
    assert provenance.git_head(tmp_path / "repo" / "verification") is None  # no work tree: no git started
    git("init", "-q", "-b", "main")
    assert provenance.git_head(tmp_path / "repo") is None  # no commit yet
    (tmp_path / "repo" / "f").write_text("1")
    git("add", "f")
    git("commit", "-qm", "one")
    folder = tmp_path / "repo" / "verification"
    assert provenance.git_head(folder) == git("rev-parse", "HEAD")  # a branch's own ref file
    git("pack-refs", "--all")
    assert provenance.git_head(folder) == git("rev-parse", "HEAD")  # packed refs
    git("checkout", "-q", "--detach")
    assert provenance.git_head(folder) == git("rev-parse", "HEAD")  # detached
    git("worktree", "add", "-q", str(tmp_path / "other"))
    assert provenance.git_head(tmp_path / "other") == git("rev-parse", "HEAD", cwd=tmp_path / "other")  # asked of git
