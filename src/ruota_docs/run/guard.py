"""Noticing blocks that write into the repository instead of their working directory.

Blocks run in a temporary directory and must write there. A block that writes into the
repository (an absolute path, ``os.chdir`` out of its folder) could overwrite a page,
a snippet or a ledger while the suite runs. The evaluator takes a cheap snapshot of
the repository (path → modification time, size, inode) after each block and compares
it with the one before: any file created, changed or deleted in between fails the
block, naming the files. Nothing is restored: what the block wrote is left for the
author to look at.

Records are different: no block may bend one. `RecordKeeper` keeps a copy (bytes,
mode, owner, times) of every ``<record_dir>/*.json`` taken when the run starts, and
after each block — and again when the page's processes have been killed — a record
created, changed or deleted fails the block, naming it, and is put back exactly as it
was. The engine's own writes (another run finishing meanwhile) are told apart by the
hash the engine notes under the record's lock (`ruota_docs.records.ledger.noted_write`):
they are kept, and become the copy.

Not watched: hidden entries (``.git``, ``.venv``, editor swap files, the ledger's
temporary files), ``__pycache__``, ``*.egg-info``, ``node_modules``, the site directory
named in mkdocs.yml (builds write there), paths git ignores (asked once per run, and
again only when something changed), and the page's own temporary files. A program
other than the block writing into the repository during the block (an editor saving a
page) is reported the same way: the message says so.

The cost is one ``stat`` per watched file per block (benchmarks/RESULTS.md, "Figures behind the code").
"""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ruota_docs.records import ledger
from ruota_docs.records.reason_codes import reason
from ruota_docs.blocks import site_config

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
        site = site_config.read(self.root)
        self.skip = {str(site.site_dir)}
        self.skip.update(str(Path(p).resolve()) for p in skip_paths)
        self.skip.update(str(self.root / p.rstrip("/")) for p in _ignored(str(self.root)))
        self.records = keeper(site.record_dir)
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
                in_records = folder == self.records.folder_path
                for entry in entries:
                    name = entry.name
                    if (name[0] == "." or name in _SKIPPED_NAMES or name.endswith((".egg-info", "~"))
                            or entry.path in self.skip):
                        continue
                    if in_records and name.endswith(".json"):
                        continue  # the records: see RecordKeeper
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


@dataclass(frozen=True)
class Kept:
    """A record as it was: what `RecordKeeper` puts back."""

    content: bytes
    mode: int
    uid: int
    gid: int
    atime_ns: int
    mtime_ns: int
    taken_ns: int  #: when the copy was taken

    @classmethod
    def of(cls, path: Path) -> Kept:
        info = path.stat()
        return cls(path.read_bytes(), info.st_mode & 0o7777, info.st_uid, info.st_gid, info.st_atime_ns,
                   info.st_mtime_ns, time.time_ns())

    def restore(self, path: Path) -> None:
        ledger.replace_bytes(path, self.content, self.mode)
        try:
            os.chown(path, self.uid, self.gid)
        except PermissionError:  # not root: the file is ours anyway
            pass
        os.chmod(path, self.mode)  # after chown, which clears set-id bits
        os.utime(path, ns=(self.atime_ns, self.mtime_ns))


class RecordKeeper:
    """The records of one ledger folder as the run found them, put back when a block changes them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder_path = str(folder)
        self.kept: dict[str, Kept] = {}
        for path in sorted(folder.glob("*.json")):
            try:
                self.kept[path.name] = Kept.of(path)
            except OSError:
                continue
        self.seen = self._stats()

    def _stats(self) -> dict[str, tuple[int, int, int, int]]:
        found = {}
        for path in self.folder.glob("*.json"):
            try:
                info = path.stat()
            except OSError:
                continue
            found[path.name] = (info.st_mtime_ns, info.st_size, info.st_ino, info.st_mode)
        return found

    def check(self) -> tuple[list[str], list[str]]:
        """Records created, changed or deleted since the last check, each put back as it was:
        ``(["verification/x.json (modified)"], [notes])``. Cheap when nothing changed (one stat each)."""
        now = self._stats()
        if now == self.seen:
            return [], []
        bent, notes = [], []
        for name in sorted(now.keys() | self.seen.keys()):
            if now.get(name) == self.seen.get(name):
                continue
            what, note = self._settle(self.folder / name)
            if what:
                done = "removed" if what == "created" else "put back as it was"
                bent.append(f"{os.path.relpath(self.folder / name, self.folder.parent)} ({what}, {done})")
            if note:
                notes.append(note)
        self.seen = self._stats()
        return bent, notes

    def _settle(self, path: Path) -> tuple[str | None, str | None]:
        """Keep an engine's write, put back anything else: ``(what the block did, note)``.
        Decided under the record's lock, so no engine write happens in between."""
        # the lock file stays: removing it while another run waits on it would break the lock
        with ledger.locked(path):
            try:
                current = path.read_bytes()
            except FileNotFoundError:
                current = None
            kept = self.kept.get(path.name)
            noted = ledger.noted_write(path)
            if current is not None and noted == hashlib.sha256(current).hexdigest():
                self.kept[path.name] = Kept.of(path)  # the engine of a run that finished meanwhile
                return None, None
            if kept is not None and current == kept.content and (path.stat().st_mode & 0o7777) == kept.mode:
                return None, None  # rewritten with the same bytes and mode: nothing bent
            what = "created" if kept is None else ("deleted" if current is None else "modified")
            note = None
            if noted and ledger.lock_path(path).stat().st_mtime_ns > (kept.taken_ns if kept else 0):
                note = (f"another run wrote {path.name} during the block, which then changed it: "
                        "that run's results are lost; run it again")
            if kept is None:
                path.unlink(missing_ok=True)
            else:
                kept.restore(path)
        return what, note


_KEEPERS: dict[str, RecordKeeper] = {}


def keeper(folder: Path) -> RecordKeeper:
    """The run's keeper of one ledger folder: its copies are taken at the first page."""
    key = str(folder)
    if key not in _KEEPERS:
        _KEEPERS[key] = RecordKeeper(folder)
    return _KEEPERS[key]


def records_note(bent: list[str], notes: list[str]) -> str:
    """The failure reason for a block that changed a record (the English of its reason code)."""
    return reason("repository_changed", files=[], records=list(bent), notes=list(notes), also=None).english()


def repository_note(changed: list[str]) -> str:
    """The failure reason for a block that wrote into the repository (the English of its reason code)."""
    return reason("repository_changed", files=list(changed), records=[], notes=[], also=None).english()
