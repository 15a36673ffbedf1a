"""Who sent each record: what makes two records independent, since a fingerprint is whatever the
sender writes (three made-up fingerprints from one person are one witness).

A record's sender is something the sender cannot choose in the record itself:

- the account of a verified CI run (`ruota_docs.records.attestations`: the deploy job verified the
  record's build-provenance attestation), as ``ci:<account>``;
- else the author of the commit that added the file (``git log --diff-filter=A --format=%ae``), as
  ``git:<e-mail>``. A pull request's commits may each name any author, so records that came in
  together, through one commit of the main line's history (a merge, or a commit made on it),
  share one sender: the first of their authors, in the order of their e-mails;
- else unknown (not committed, or no git): ``None``. Unknown senders are never independent of
  anyone: they count as one sender together.

Two records are independent when their fingerprints differ *and* their senders are known and differ
(`ruota_docs.site.groups.Group.confirmed`). Nothing is written into a record: senders are found when
a tool reads the records, and shown only as a count.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

#: The sender of records whose sender is not known (counted as one).
UNKNOWN = "unknown"


def _added_by(root: Path, wanted: dict[str, Path], folders: list[str], *options: str) -> dict[Path, str]:
    """For each file of ``wanted`` (its path in the repository → the caller's path), the ``%``-format
    ``options[-1]`` of the most recent commit that added it, in the log ``options`` select."""
    try:
        done = subprocess.run(["git", "-C", str(root), "log", "--diff-filter=A", "--no-renames", "--name-only", "-z",
                               *options, "--", *folders], capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if done.returncode != 0:
        return {}
    found: dict[Path, str] = {}
    commit = None
    for part in done.stdout.decode("utf-8", "replace").split("\0"):
        part = part.strip("\n")
        if part.startswith("\x01"):
            commit, _, part = part[1:].partition("\n")
            part = part.strip("\n")
        if part in wanted and wanted[part] not in found and commit:
            found[wanted[part]] = commit  # newest first: the commit that added the file as it is now
    return found


def commit_authors(root: Path, paths: list[Path]) -> dict[Path, str]:
    """For each of ``paths`` (records in the git work tree at ``root``), the e-mail of the author of the
    most recent commit that added it, the same for every record that came into the main line's history
    in one commit (one pull request); paths git does not know are left out."""
    if not paths:
        return {}
    root = Path(root).resolve()
    wanted = {}
    for path in paths:
        try:
            wanted[Path(path).resolve().relative_to(root).as_posix()] = Path(path)
        except ValueError:
            continue
    folders = sorted({name.rsplit("/", 1)[0] if "/" in name else "." for name in wanted})
    authors = _added_by(root, wanted, folders, "--format=%x01%ae")
    # the main line's commit that brought each record in: a merge's diff against its first parent
    arrived = _added_by(root, wanted, folders, "--first-parent", "-m", "--format=%x01%H")
    together: dict[str, list[str]] = {}
    for path, commit in arrived.items():
        if path in authors:
            together.setdefault(commit, []).append(authors[path])
    return {path: min(together[arrived[path]]) if path in arrived else author for path, author in authors.items()}


def senders(root: Path, paths: list[Path], verified: dict[str, str] | None = None) -> dict[Path, str]:
    """The sender of each record of ``paths``: ``ci:<account>`` for those in ``verified`` (file name →
    account), else ``git:<e-mail>`` of the commit that added it, else `UNKNOWN`."""
    verified = verified or {}
    authors = commit_authors(root, [p for p in paths if Path(p).name not in verified])
    return {Path(p): f"ci:{verified[Path(p).name]}" if Path(p).name in verified
            else f"git:{authors[Path(p)]}" if Path(p) in authors else UNKNOWN for p in paths}


def independent(senders_found: list[str | None]) -> int:
    """How many independent senders ``senders_found`` holds: distinct known ones, plus one for all unknown."""
    known = {s for s in senders_found if s and s != UNKNOWN}
    return len(known) + (1 if any(not s or s == UNKNOWN for s in senders_found) else 0)
