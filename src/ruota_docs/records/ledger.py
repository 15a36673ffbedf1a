"""Where records live on disk: reading one, writing one atomically under its lock.

A record is one JSON file per machine, ``verification/<machine-class>-<fingerprint>.json``
(`ruota_docs.records.provenance.record_name`); what it holds is the model of
`ruota_docs.records.schema` (`Record`, its `Result` per block), which reads and writes its
own JSON (`ruota_docs.records.stored`).

A run over some pages replaces the results of the pages it ran in full and keeps every
other result (`ruota_docs.records.schema.merge`). Only the engine writes records, after the
blocks: writing takes an exclusive lock (a file in a private folder of the temporary
directory, not beside the record: see `lock_path`), replaces the file atomically and notes
the SHA-256 of what it wrote in the lock file, so runs that finish together both land, a
run killed mid-write leaves the previous file intact, and the guard that watches records
during blocks (`ruota_docs.run.guard`) tells the engine's writes from a block's. A file that
is not valid JSON, or has another ``kind`` or ``schema``, is an error naming the file: it
is never replaced. What is written holds no host or user name of the machine
(`ruota_docs.records.private_data.scrub_result`).
"""

from __future__ import annotations

import fcntl
import glob
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ruota_docs.records import bounds, listing, private_data, provenance, stored
from ruota_docs.records.schema import BlockRef, Machine, Record, RecordError, Result, merge, now

#: The error of a record that cannot be used as it is (the name records had before).
LedgerError = RecordError


def load(path: Path) -> Record:
    """Read one record; `RecordError` names the file and what is wrong."""
    path = Path(path)
    return Record.from_json(_read_bounded(path), path)


def _read_bounded(path: Path) -> bytes:
    """The record's bytes, its size checked before reading (`ruota_docs.records.bounds`): a link to
    ``/dev/zero`` or a file of gigabytes is refused, named, never read into memory."""
    try:
        raw = bounds.read(path, bounds.MAX_BYTES)
    except (bounds.TooLarge, bounds.NotRegular) as error:
        raise RecordError(f"{path}: {error}: not a record this ruota-docs reads (`ruota-docs record check` says "
                          "why)") from None
    except OSError as error:
        raise RecordError(f"{path}: cannot be read: {error.strerror or error}") from None
    problem = bounds.depth_problem(raw)
    if problem:
        raise RecordError(f"{path}: {problem}")
    return raw


def load_files(directory: Path) -> list[tuple[Path, Record]]:
    """Every record in a folder with the file it was read from, sorted by machine id (a missing
    folder holds none); two records of one machine are an error."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    records: list[tuple[Path, Record]] = []
    seen: dict[tuple[str | None, str | None], Path] = {}
    try:
        paths = listing.records(directory)  # the one list every tool reads: no hidden file, link or device
    except listing.RecordsRefused as refused:
        raise RecordError(f"{refused}") from None
    for path in paths:
        record = load(path)
        key = (record.machine_id, record.fingerprint)
        if key in seen:
            which = f"machine {key[0]!r}" + (f" (fingerprint {key[1][:8]}…)" if key[1] else "")
            raise RecordError(f"{path}: machine_id: {which} already has a record, {seen[key].name}: "
                              "one machine keeps one record (run the suite again, which writes one, or remove the "
                              "other)")
        seen[key] = path
        records.append((path, record))
    return sorted(records, key=lambda item: (str(item[1].machine_id), str(item[1].fingerprint or "")))


def load_all(directory: Path) -> list[Record]:
    """`load_files` without the files."""
    return [record for _, record in load_files(directory)]


def lock_path(path: Path) -> Path:
    """The lock file of the record at ``path``, which also notes the engine's last write.

    It lives outside the records directory (a repository holds records, nothing else), in a
    folder of the temporary directory private to the user who writes records, named after
    the record's absolute path so that two records never share a lock."""
    folder = Path(tempfile.gettempdir()) / f"ruota-docs-locks-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    stat = os.lstat(folder)
    if not os.path.isdir(folder) or os.path.islink(folder) or stat.st_uid != os.getuid():
        raise RecordError(f"{folder}: not a folder of this user's; remove it (records are locked there)")
    digest = hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:16]
    return folder / f"{Path(path).name}.{digest}.lock"


@contextmanager
def locked(path: Path, shared: bool = False) -> Iterator[None]:
    with open(lock_path(path), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextmanager
def _replacing(path: Path, mode: int, binary: bool = False) -> Iterator[IO[Any]]:
    """A handle on a temporary file that replaces ``path`` in one step (fsync, rename) when
    the block ends without error; on any error the temporary file is removed."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(path: Path, record: Record) -> None:
    """Replace ``path`` with ``record``'s JSON (`ruota_docs.records.schema.Record.to_json`) in one step
    (temporary file + rename)."""
    written = stored.encode(record)
    # mkstemp makes the file private (0600); a record is shared like any file of the repository
    with _replacing(path, path.stat().st_mode & 0o777 if path.exists() else 0o644) as handle:
        for line in stored.lines(written):
            handle.write(line)


def replace_bytes(path: Path, content: bytes, mode: int) -> None:
    """Replace ``path`` with exactly ``content`` and ``mode``, in one step."""
    with _replacing(path, mode, binary=True) as handle:
        handle.write(content)


def _note_write(path: Path) -> None:
    """Note, in the lock file (we hold the lock), the hash of what the engine just wrote."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    lock_path(path).write_text(json.dumps({"sha256": digest, "pid": os.getpid(), "written": now()}) + "\n",
                               encoding="utf-8")


def noted_write(path: Path) -> str | None:
    """The SHA-256 of what the engine last wrote at ``path``, as noted in its lock file
    (read it holding the lock, or a write may be in progress)."""
    try:
        noted = json.loads(lock_path(path).read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return None
    return noted.get("sha256") if isinstance(noted, dict) else None


def _remove_leftovers(path: Path) -> None:
    """Temporary files of writers that were killed mid-write (we hold the lock: none is live)."""
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        leftover.unlink(missing_ok=True)


def migrate(path: Path) -> tuple[int, int]:
    """Write the record at ``path`` again as the engine writes it, under its lock (after a hand
    edit, its outputs and reasons are keyed again): ``(bytes before, after)``."""
    path = Path(path)
    with locked(path):
        before = path.stat().st_size
        write_atomic(path, load(path))
        _note_write(path)
    return before, path.stat().st_size


def record(path: Path, results: Mapping[BlockRef, Result], complete_pages: set[str], machine: Machine,
           forget: AbstractSet[str] = frozenset()) -> Record:
    """Merge a run's results into the record at ``path`` under an exclusive lock."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(path):
        _remove_leftovers(path)
        old = load(path) if path.exists() else Record(machine_id=machine.machine_id, machine=machine)
        if old.machine_id not in (None, machine.machine_id):
            raise RecordError(f"{path}: holds machine {old.machine_id!r}, not this machine "
                              f"({machine.machine_id!r}); choose another file with --record")
        if old.fingerprint not in (None, provenance.fingerprint()):
            own_name = provenance.record_name(machine.machine_id)
            raise RecordError(f"{path}: fingerprint: this is the record of another {machine.machine_id} machine "
                              f"(fingerprint {old.fingerprint[:8]}…, this one's {provenance.fingerprint()[:8]}…); "
                              f"write this machine's with --record {path.parent / own_name}")
        scrubbed = {block: private_data.scrub_result(result) for block, result in results.items()}
        merged = merge(old, scrubbed, complete_pages, machine, forget)  # a Machine holds no host or user name
        # this machine's fingerprint and where the record comes from (this run)
        merged = merged.replace(fingerprint=provenance.fingerprint(),
                                provenance=provenance.from_environment(commit=provenance.git_head(path.parent)))
        write_atomic(path, merged)
        _note_write(path)
    return merged
