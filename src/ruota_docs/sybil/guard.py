"""Noticing blocks that write into the repository instead of their working directory.

Blocks run in a temporary folder and must write there. A block that writes into the
repository (an absolute path, ``os.chdir`` out of its folder) could overwrite a page,
a snippet or a ledger while the suite runs. The evaluator takes a cheap snapshot of
the repository (path → modification time, size, inode) after each block and compares
it with the one before: any file created, changed or deleted in between fails the
block, naming the files. Nothing is restored: what the block wrote is left for the
author to look at.

Not watched: hidden entries (``.git``, ``.venv``, editor swap files), ``__pycache__``,
``*.egg-info``, ``node_modules``, the site and ledger folders named in mkdocs.yml
(other runs and builds write there), paths git ignores (asked once per run, and again
only when something changed), and the page's own temporary files. A program other
than the block writing into the repository during the block (an editor saving a
page) is reported the same way: the message says so.

The cost is one ``stat`` per watched file per block: about 1 ms for this repository.
"""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

from ..site_config import load_mkdocs_config

_SKIPPED_NAMES = frozenset({"__pycache__", "node_modules", "venv"})

Snapshot = dict[str, tuple[int, int, int]]


@functools.lru_cache(maxsize=8)
def _ignored(root: str) -> frozenset[str]:
    """Paths under ``root`` that git ignores (folders end with ``/``); empty outside git."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z"],
            cwd=root, capture_output=True, timeout=30, check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(p for p in listed.decode("utf-8", "surrogateescape").split("\0") if p)


def _not_ignored(root: Path, paths: list[str]) -> list[str]:
    """``paths`` (relative to ``root``) less those git ignores, such as a folder another
    test creates meanwhile; all of them outside git."""
    try:
        ignored = subprocess.run(
            ["git", "check-ignore", "-z", "--stdin"], cwd=root, capture_output=True, timeout=30,
            input="\0".join(paths).encode("utf-8", "surrogateescape"),
        )
    except (OSError, subprocess.SubprocessError):
        return paths
    if ignored.returncode not in (0, 1):  # 128: not a git work tree
        return paths
    dropped = set(ignored.stdout.decode("utf-8", "surrogateescape").split("\0"))
    return [p for p in paths if p not in dropped]


class RepositoryGuard:
    """Snapshots of one repository tree, and what changed between two of them."""

    def __init__(self, root: Path, skip_paths=()) -> None:
        self.root = Path(root).resolve()
        config = load_mkdocs_config(self.root)
        plugin = next((p["ruota_docs"] for p in config.get("plugins") or [] if isinstance(p, dict) and "ruota_docs" in p), None)
        outputs = [config.get("site_dir", "site"), (plugin or {}).get("ledger_dir", "verification")]
        self.skip = {str((self.root / p).resolve()) for p in outputs}
        self.skip.update(str(Path(p).resolve()) for p in skip_paths)
        self.skip.update(str(self.root / p.rstrip("/")) for p in _ignored(str(self.root)))
        self.last = self.snapshot()

    def snapshot(self) -> Snapshot:
        found: Snapshot = {}
        stack = [str(self.root)]
        while stack:
            folder = stack.pop()
            try:
                entries = os.scandir(folder)
            except OSError:
                continue
            with entries:
                for entry in entries:
                    name = entry.name
                    if name[0] == "." or name in _SKIPPED_NAMES or name.endswith((".egg-info", "~")) or entry.path in self.skip:
                        continue
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(entry.path)
                            continue
                        stat = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    found[entry.path] = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        return found

    def changes(self) -> list[str]:
        """What changed since the last call (or since the guard was made): ``docs/x.md (created)``."""
        before, after = self.last, self.snapshot()
        self.last = after
        if before == after:
            return []
        changed = {}
        for path in sorted(before.keys() | after.keys()):
            if path not in before:
                what = "created"
            elif path not in after:
                what = "deleted"
            elif before[path] != after[path]:
                what = "modified"
            else:
                continue
            changed[os.path.relpath(path, self.root)] = what
        return [f"{path} ({changed[path]})" for path in _not_ignored(self.root, list(changed))]


def repository_note(changed: list[str]) -> str:
    """The failure reason for a block that wrote into the repository."""
    shown = ", ".join(changed[:10]) + (f" and {len(changed) - 10} more" if len(changed) > 10 else "")
    return (f"wrote into the repository instead of its working directory: {shown} "
            "(write relative to the current directory, a temporary folder; "
            "if another program changed these files meanwhile, run the page again)")
