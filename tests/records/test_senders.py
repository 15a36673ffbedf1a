"""Who sent each record (`ruota_docs.records.senders`): the author of the commit that added it, or a
verified CI run's account; never something the record says of itself."""

from __future__ import annotations

import subprocess
from pathlib import Path

from ruota_docs.records import senders


def git(root: Path, *args: str, author: str = "a") -> None:
    subprocess.run(["git", "-C", str(root), "-c", f"user.name={author}", "-c", f"user.email={author}@example.org",
                    *args], check=True, capture_output=True)


def test_the_sender_is_the_author_of_the_commit_that_added_the_record(tmp_path):
    folder = tmp_path / "verification"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    names = [folder / f"rocm-gfx1102-{n:08x}.json" for n in range(4)]
    for n, path in enumerate(names[:3]):  # one person, three made-up fingerprints
        path.write_text("{}")
        git(tmp_path, "add", str(path))
        git(tmp_path, "commit", "-qm", f"record {n}", author="one")
    names[3].write_text("{}")
    git(tmp_path, "add", str(names[3]))
    git(tmp_path, "commit", "-qm", "another", author="two")
    names[0].write_text('{"changed": 1}')  # a later edit by someone else does not change who sent it
    git(tmp_path, "commit", "-qam", "edit", author="three")
    uncommitted = folder / "cpu-x86_64.json"
    uncommitted.write_text("{}")
    found = senders.senders(tmp_path, [*names, uncommitted], verified={names[3].name: "owner"})
    assert [found[p] for p in names] == ["git:one@example.org"] * 3 + ["ci:owner"]
    assert found[uncommitted] == senders.UNKNOWN
    assert senders.independent([found[p] for p in names[:3]]) == 1
    assert senders.independent(list(found.values())) == 3  # one, the CI run's owner, and the unknown ones together


def test_records_that_came_in_through_one_pull_request_have_one_sender(tmp_path):
    """A pull request whose commits name made-up authors, one record each, is still one sender; a record
    committed on the main line by someone else, and a later pull request of its own, are others."""
    folder = tmp_path / "verification"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(tmp_path)], check=True)
    (tmp_path / "README").write_text("x")
    git(tmp_path, "add", "README")
    git(tmp_path, "commit", "-qm", "start", author="maintainer")
    git(tmp_path, "checkout", "-qb", "records")
    forged = [folder / f"rocm-gfx1102-{n:08x}.json" for n in range(3)]
    for path, author in zip(forged, ("zed", "yan", "xia")):  # three "people" in one pull request
        path.write_text("{}")
        git(tmp_path, "add", str(path))
        git(tmp_path, "commit", "-qm", f"record of {author}", author=author)
    git(tmp_path, "checkout", "-q", "main")
    folder.mkdir(exist_ok=True)  # git leaves no empty folder behind
    direct = folder / "rocm-gfx1102-0000000a.json"
    direct.write_text("{}")
    git(tmp_path, "add", str(direct))
    git(tmp_path, "commit", "-qm", "a record on the main line", author="owner")
    git(tmp_path, "merge", "-q", "--no-ff", "-m", "Merge pull request #7", "records", author="maintainer")
    git(tmp_path, "checkout", "-qb", "other")
    later = folder / "rocm-gfx1102-0000000b.json"
    later.write_text("{}")
    git(tmp_path, "add", str(later))
    git(tmp_path, "commit", "-qm", "another pull request", author="wu")
    git(tmp_path, "checkout", "-q", "main")
    git(tmp_path, "merge", "-q", "--no-ff", "-m", "Merge pull request #8", "other", author="maintainer")
    found = senders.senders(tmp_path, [*forged, direct, later])
    assert {found[p] for p in forged} == {"git:xia@example.org"}
    assert (found[direct], found[later]) == ("git:owner@example.org", "git:wu@example.org")
    assert senders.independent(list(found.values())) == 3


def test_outside_git_every_sender_is_unknown(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{}")
    assert senders.senders(tmp_path, [path]) == {path: senders.UNKNOWN}
    assert senders.independent([senders.UNKNOWN, None, senders.UNKNOWN]) == 1
