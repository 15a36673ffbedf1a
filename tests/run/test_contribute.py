"""``ruota-docs contribute``: the owner's path, up to the push (which is never made here)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from _support import RX7600, record_of, synthetic_record, write_tree
from ruota_docs.records import ledger, provenance
from ruota_docs.records.schema import Machine
from ruota_docs.run import contribute, preflight

PAGE = "# Página { #p }\n\n```python\nprint('uno')\n```\n"
DEVICE = Machine(**{k: v for k, v in RX7600.items() if k != "machine_id"})


def git(root, *args) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def clone(tmp_path, monkeypatch):
    # an owner with room for the models: the disk check itself is tested in test_preflight.py,
    # and these tests must not depend on how full the machine running them is
    roomy = shutil.disk_usage(tmp_path)._replace(free=preflight.MIN_FREE * 2)
    monkeypatch.setattr(preflight.shutil, "disk_usage", lambda path: roomy)
    root = write_tree(tmp_path / "clone", {f"docs/{lang}/p.md": PAGE for lang in ("es", "en", "fr")}, conftest=False)
    (root / "notes.txt").write_text("the owner's own work\n")
    git(root, "init", "-q", "-b", "main")
    # the owner's set-up that contribute checks first: an identity and their fork (never pushed to here)
    git(root, "config", "user.name", "Owner")
    git(root, "config", "user.email", "owner@example.org")
    git(root, "remote", "add", "origin", "https://github.com/owner/ruota-docs.git")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    (root / "notes.txt").write_text("the owner's own work, changed and not committed\n")
    return root


def fake_suite(private: str = ""):
    """A suite run that writes the record the engine would (a synthetic one for the clone's pages)."""
    calls = []

    def suite(p, extra):
        calls.append((p.record, extra))
        data = synthetic_record(p.root, RX7600)
        if private:
            data["blocks"]["es/p.md#0"]["output"] = private
        p.record.parent.mkdir(exist_ok=True)
        ledger.write_atomic(p.record, record_of(data | {"fingerprint": provenance.fingerprint()}))
        return 0
    suite.calls = calls
    return suite


def answers(*replies):
    asked = []

    def ask(question):
        asked.append(question)
        return replies[len(asked) - 1] if len(asked) <= len(replies) else "n"
    ask.asked = asked
    return ask


def test_it_says_what_it_will_do_and_does_nothing_without_a_yes(clone):
    said, suite = [], fake_suite()
    assert contribute.contribute(clone, clone / "docs", DEVICE, ask=answers("n"), suite=suite, out=said.append) == 1
    plan = next(line for line in said if line.startswith("This machine:"))  # after the checks (their own test)
    assert plan.startswith("This machine: AMD Radeon RX 7600 (ROCm, gfx1102).\n")
    assert "ruota-docs contribute will:" in plan and "Note: PyTorch" not in plan
    assert f"records/rocm-gfx1102-{provenance.fingerprint()[:8]}" in plan
    assert said[-1] == "Nothing done." and suite.calls == []


def test_the_branch_holds_only_the_record_and_nothing_is_pushed(clone):
    said, suite, ask = [], fake_suite(), answers("y", "y")
    before = (git(clone, "rev-parse", "HEAD"), git(clone, "branch", "--show-current"), git(clone, "status", "--porcelain"))
    code = contribute.contribute(clone, clone / "docs", DEVICE, ask=ask, suite=suite, gh=lambda: False, out=said.append)
    assert code == 0, said
    name = f"rocm-gfx1102-{provenance.fingerprint()[:8]}"
    branch = f"records/{name}"
    assert suite.calls == [(clone / "verification" / f"{name}.json", [])]
    # only the record, on top of HEAD; the owner's branch, index and uncommitted work untouched
    assert git(clone, "diff", "--name-only", "HEAD", branch) == f"verification/{name}.json"
    assert git(clone, "rev-parse", f"{branch}^") == before[0]
    assert (git(clone, "rev-parse", "HEAD"), git(clone, "branch", "--show-current")) == before[:2]
    assert git(clone, "status", "--porcelain") == before[2] + "\n?? verification/"
    assert git(clone, "log", "-1", "--format=%s", branch) == "Add record for AMD Radeon RX 7600 (ROCm, gfx1102)"
    body = (clone / ".git" / "ruota-docs-pull-request.md").read_text(encoding="utf-8")
    assert "accepted: 1 record, 3 entries (0 stale); 0 errors, 0 warnings" in body and "`rocm-gfx1102`" in body
    assert f"  git -C {clone} push origin {branch}:{branch}" in said
    assert (f"  gh pr create --head owner:{branch} --title 'Add record for AMD Radeon RX 7600 (ROCm, gfx1102)' "
            f"--body-file {clone / '.git' / 'ruota-docs-pull-request.md'}") in said
    assert said[-1] == "Nothing was pushed." and len(ask.asked) == 1  # no gh: the push is not even offered


def test_with_gh_logged_in_the_push_is_offered_and_a_no_pushes_nothing(clone, monkeypatch):
    said, ask = [], answers("y", "n")
    ran = []
    monkeypatch.setattr(contribute.subprocess, "call", lambda command, **kw: ran.append(command) or 0)
    code = contribute.contribute(clone, clone / "docs", DEVICE, ask=ask, suite=fake_suite(), gh=lambda: True, out=said.append)
    assert code == 0
    assert ask.asked[1] == "gh is logged in: push the branch and open the pull request now? [y/N] "
    assert ran == [] and said[-1] == "Nothing was pushed."
    assert contribute.contribute(clone, clone / "docs", DEVICE, ask=answers("y", "y"), suite=fake_suite(),
                                 gh=lambda: True, out=said.append) == 0
    assert [command[:2] for command in ran] == [["git", "-C"], ["gh", "pr"]]


def test_a_refused_record_is_not_committed(clone):
    said = []
    code = contribute.contribute(clone, clone / "docs", DEVICE, ask=answers("y"), suite=fake_suite("saved in /home/alice/x\n"),
                                 gh=lambda: False, out=said.append)
    assert code == 1
    assert any("a home directory (/home/<a…>)" in line for line in said)
    assert said[-1].startswith("The record check refused the record: nothing was committed.")
    assert git(clone, "branch", "--list", "records/*") == ""


def test_an_interrupted_suite_is_resumed_by_running_again(clone):
    said = []
    code = contribute.contribute(clone, clone / "docs", DEVICE, ask=answers("y"), suite=lambda p, extra: 2, out=said.append)
    assert code == 2 and said[-1] == "The suite stopped (exit status 2); run ruota-docs contribute again: it resumes."
    command = []

    class Started:
        def __init__(self, cmd, cwd=None):
            command.extend(cmd)

        def wait(self):
            return 0

    p = contribute.plan(clone, DEVICE)
    monkey = contribute.subprocess.Popen
    try:
        contribute.subprocess.Popen = Started
        assert contribute.run_suite(p, ["-x"]) == 0
    finally:
        contribute.subprocess.Popen = monkey
    assert command[1:] == ["-m", "pytest", "docs", "-p", "no:cacheprovider", "-p", "ruota_docs.run.page_progress",
                           "--reuse-record", "--record", str(p.record), "-x"]


def test_a_record_of_this_machine_named_as_before_is_the_one_it_sends(clone):
    """make test goes on writing to an earlier ``<machine-class>.json`` of this machine: the branch
    updates that file, and never adds a second record of one machine beside it."""
    earlier = clone / "verification" / "rocm-gfx1102.json"
    earlier.parent.mkdir()
    ledger.write_atomic(earlier, record_of(synthetic_record(clone, RX7600) | {"fingerprint": provenance.fingerprint()}))
    git(clone, "-c", "user.name=t", "-c", "user.email=t@example.com", "add", "verification")
    git(clone, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "an earlier record")
    p = contribute.plan(clone, DEVICE)
    assert p.record == earlier and p.branch == "records/rocm-gfx1102"


def test_what_the_record_would_not_say_is_said_before_the_run(clone):
    (clone / "docs" / "es" / "p.md").write_text(PAGE + "\nEdited.\n", encoding="utf-8")
    cpu_only = Machine("cpu", None, None, None, 0, "linux", "x86_64", "3.11.2", torch=None)
    notes = "\n".join(contribute.plan(clone, cpu_only).notes)
    assert "PyTorch is not installed" in notes
    assert "1 file(s) of the site differ from the commit" in notes and "docs/es/p.md" in notes
    assert "notes.txt" not in notes  # the owner's own files are theirs


def test_outside_a_git_clone_it_says_what_to_do(tmp_path):
    with pytest.raises(contribute.ContributeError, match="is not a git clone with a commit: clone the repository"):
        contribute.plan(tmp_path, DEVICE)


@pytest.mark.parametrize(("url", "head"), [
    ("git@github.com:alice/ruota-docs.git", "alice:records/x"), ("https://github.com/alice/ruota-docs", "alice:records/x"),
    ("ssh://git@github.com/alice/ruota-docs.git", "alice:records/x"), ("/srv/git/ruota-docs", "records/x"),
])
def test_the_pull_request_is_opened_from_the_forks_branch(clone, url, head):
    git(clone, "remote", "set-url", "origin", url)
    p = contribute.Plan(clone, clone / "verification" / "x.json", "records/x", "CPU x86_64")
    assert contribute.commands(p, clone / "body.md")[1][3:5] == ["--head", head]


def test_record_describe_says_an_unverified_ci_claim_is_one(clone, monkeypatch, tmp_path):
    """`record describe` (the pull request's body) says "claimed CI, unverified" unless the record is in
    the list of verified records, and flags a commit that is not in the repository's history."""
    data = synthetic_record(clone, RX7600)
    data["provenance"] = {"kind": "ci", "run_url": "https://github.com/o/r/actions/runs/13371337",
                          "repository": "o/r", "commit": "673aa75a5a" + "0" * 30,
                          "runner_labels": ["self-hosted", "linux", "rocm", "gfx1102"]}
    record = tmp_path / "rocm-gfx1102.json"
    record.write_text(record_of(data).to_json(), encoding="utf-8")
    monkeypatch.delenv("RUOTA_DOCS_VERIFIED_RECORDS", raising=False)
    body, _ = contribute.describe_record(clone, record, clone / "docs")
    assert "made (claimed CI, unverified) by the records workflow, run https://github.com/o/r/actions/runs/13371337" in body
    assert f"`{'673aa75a5a' + '0' * 30}` (not in this repository's history); provenance: ci, claimed" in body
    listed = tmp_path / "verified.txt"
    listed.write_text("rocm-gfx1102.json\tcard-owner\n")
    monkeypatch.setenv("RUOTA_DOCS_VERIFIED_RECORDS", str(listed))
    body, _ = contribute.describe_record(clone, record, clone / "docs")
    assert "made by the records workflow, run" in body and "provenance: ci, verified" in body


@pytest.fixture
def no_identity(monkeypatch, tmp_path):
    """A user who never told git who they are (no global or system configuration, no variables)."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-gitconfig"))
    for name in ("EMAIL", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(name, raising=False)


def test_what_the_path_needs_is_checked_before_anything_runs(clone, no_identity):
    """No identity and no fork: contribute says so, with the commands that set them up, and runs nothing."""
    git(clone, "config", "--unset", "user.name")
    git(clone, "config", "--unset", "user.email")
    git(clone, "remote", "remove", "origin")
    said, ran = [], []
    code = contribute.contribute(clone, clone / "docs", DEVICE, ask=answers("y"), suite=lambda p, e: ran.append(p),
                                 gh=lambda: False, out=said.append)
    assert code == 2 and ran == []
    text = "\n".join(said)
    assert "[MISSING] git identity: git does not know who you are" in text
    assert 'git config --global user.name "Your Name"' in text
    assert "[MISSING] fork to push to: no remote on GitHub" in text and "gh repo fork --remote" in text
    assert "[note] gh: not installed or not logged in" in text
    assert "nothing ran" in said[-1]


def test_a_full_disk_stops_contribute_before_the_suite(clone, monkeypatch):
    full = shutil.disk_usage(clone)._replace(free=preflight.MIN_FREE // 2)
    monkeypatch.setattr(preflight.shutil, "disk_usage", lambda path: full)
    said, ran = [], []
    code = contribute.contribute(clone, clone / "docs", DEVICE, ask=answers("y"), suite=lambda p, e: ran.append(p),
                                 gh=lambda: False, out=said.append)
    assert code == 2 and ran == []
    assert "[MISSING] free disk: 2.0 GiB free; the guides' models and caches need 4 GiB" in "\n".join(said)
    assert "nothing ran" in said[-1]


# -- the run itself: interrupted with Ctrl-C, then resumed ------------------------------------------------------------
def _pages(slow_flag) -> dict[str, str]:
    """Three pages in three languages; page b's block waits while ``slow_flag`` exists (a file the
    page can read: the repository is readable in the sandbox), so that it can be interrupted."""
    slow = (f"import pathlib, time\nwhile pathlib.Path({str(slow_flag)!r}).exists():\n    time.sleep(0.2)\n"
            "print('b done')")
    pages = {"a.md": "print('a')", "b.md": slow, "c.md": "print('c')"}
    return {f"docs/{lang}/{name}": f"# {name[0]} {{ #{name[0]} }}\n\n<!-- run: timeout=300 -->\n```python\n{code}\n```\n"
            for lang in ("es", "en", "fr") for name, code in pages.items()}


def _run_like_contribute(root, record) -> tuple[subprocess.Popen, list[str]]:
    """`contribute.run_suite` in a process of its own session, as a terminal runs it (so that a signal
    to the group is Ctrl-C); its output lines as they come."""
    import sys
    import threading

    from _support import clean_env

    script = ("import sys\nfrom pathlib import Path\nfrom ruota_docs.run import contribute\n"
              f"p = contribute.Plan(Path({str(root)!r}), Path({str(record)!r}), 'records/x', 'this machine')\n"
              "sys.exit(contribute.run_suite(p, []))\n")
    process = subprocess.Popen([sys.executable, "-c", script], cwd=root, env=clean_env(PYTHONUNBUFFERED="1"),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(process.stdout.readline, "")), daemon=True).start()
    return process, lines


def _wait_for(lines, text, process, seconds=180):
    import time

    deadline = time.monotonic() + seconds
    while not any(text in line for line in lines):
        assert process.poll() is None or time.monotonic() < deadline, "".join(lines)[-3000:]
        assert time.monotonic() < deadline, f"no {text!r} after {seconds} s:\n" + "".join(lines)[-3000:]
        time.sleep(0.1)


def test_ctrl_c_keeps_a_valid_record_and_the_next_run_resumes(tmp_path):
    import os
    import re
    import signal
    import time

    from ruota_docs.records import check

    slow_flag = tmp_path / "site" / "slow"  # in the site: pages see it (the sandbox has a /tmp of its own)
    root = write_tree(tmp_path / "site", _pages(slow_flag))
    slow_flag.write_text("")
    record = root / "run.json"  # a record at a path the user chose: any name
    process, lines = _run_like_contribute(root, record)
    _wait_for(lines, "page 4 of 9: es/b.md", process)  # pages a (es, en, fr) ran; b's block waits
    time.sleep(2)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole foreground group
    assert process.wait(timeout=120) == 2, "".join(lines)[-3000:]
    said = "".join(lines)
    assert re.search(r"page 1 of 9: es/a\.md \((\d+ min )?\d+ s so far\)", said), said[-3000:]
    kept = ledger.load(record)
    assert {ref.key for ref, r in kept.results.items() if r.outcome == "passed"} >= {"es/a.md#0", "en/a.md#0", "fr/a.md#0"}
    assert not any(ref.page.endswith("b.md") and r.outcome == "passed" for ref, r in kept.results.items())
    assert check.summary(check.check_files([record], root, root / "docs"))[1] == 0  # accepted as it is

    slow_flag.unlink()
    process, lines = _run_like_contribute(root, record)
    assert process.wait(timeout=300) == 0, "".join(lines)[-3000:]
    said = "".join(lines)
    assert "resuming: 3 of 9 pages already run on this machine with the same code" in said, said[-3000:]
    assert "page 9 of 9: fr/c.md" in said
    done = ledger.load(record)
    assert {r.outcome for r in done.results.values()} == {"passed"} and len(done.results) == 9
    assert done.by_key()["es/a.md#0"][1].ran_at == kept.by_key()["es/a.md#0"][1].ran_at  # kept, not run again
    reports = check.check_files([record], root, root / "docs")
    assert check.summary(reports)[1] == 0, [str(p) for r in reports for p in r.problems]
