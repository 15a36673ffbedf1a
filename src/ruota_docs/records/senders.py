"""Who sent each record: what makes two records independent, since a fingerprint is whatever the
sender writes (three made-up fingerprints from one person are one witness).

A record's sender is something the sender cannot choose in the record itself:

- the account of a verified CI run (`ruota_docs.records.attestations`: the deploy job verified the
  record's build-provenance attestation), as ``ci:<account>``;
- else the author of the commit that added the file (``git log --diff-filter=A --format=%ae``), as
  ``git:<e-mail>``;
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


def commit_authors(root: Path, paths: list[Path]) -> dict[Path, str]:
    """For each of ``paths`` (records in the git work tree at ``root``), the e-mail of the author of the
    most recent commit that added it; paths git does not know are left out. One ``git log`` for all."""
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
    try:
        done = subprocess.run(["git", "-C", str(root), "log", "--diff-filter=A", "--no-renames", "--name-only", "-z",
                               "--format=%x01%ae", "--", *folders], capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if done.returncode != 0:
        return {}
    found: dict[Path, str] = {}
    author = None
    for part in done.stdout.decode("utf-8", "replace").split("\0"):
        part = part.strip("\n")
        if part.startswith("\x01"):
            author, _, part = part[1:].partition("\n")
            part = part.strip("\n")
        if part in wanted and wanted[part] not in found and author:
            found[wanted[part]] = author  # newest first: the commit that added the file as it is now
    return found


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
