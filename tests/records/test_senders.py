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


def test_outside_git_every_sender_is_unknown(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{}")
    assert senders.senders(tmp_path, [path]) == {path: senders.UNKNOWN}
    assert senders.independent([senders.UNKNOWN, None, senders.UNKNOWN]) == 1
