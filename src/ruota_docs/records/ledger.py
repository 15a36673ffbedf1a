"""The verification record: one JSON file per machine, ``verification/<machine-id>-<fingerprint>.json``
(`ruota_docs.records.provenance.record_name`; records named ``<machine-id>.json`` before are read as well).

In memory (what `load` returns and `record` merges), one entry per page and language:

    {
      "schema": 3,
      "kind": "ruota-docs/ledger",
      "machine_id": "cpu-x86_64",
      "machine": { ... ruota_docs.records.machine.Device.to_dict() ... },
      "updated": "2026-11-29T21:04:05Z",
      "blocks": {
        "es/guides/keras-rx7600.md#3": {
          "page": "es/guides/keras-rx7600.md", "lang": "es", "index": 3, "line": 120,
          "language": "python", "sha256": "…", "id": "train-offline",
          "outcome": "passed" | "failed" | "skipped" | "error",
          "reason": null, "duration": 12.5, "output": "…", "ran_at": "…",
          "reason_code": null | {"code": "requires", "args": {…}}
                             (the reason as data: ruota_docs.records.reason_codes; absent
                              in records written before it existed)
          "reused_from": "es/guides/keras-rx7600.md" | null,
          "signature": "…",  (hash of the page's block sequence)
          "as_root": false,  (true: the code ran as root; false: as an ordinary user;
                              null: no code of the block ran — skipped, or a data block the
                              engine parsed; absent in records written before it existed)
          "tier": "compiled" | "ran" | "checked"  (the evidence tier a passed block reached,
                              `ruota_docs.blocks.tiers`; absent, never null, where it reached none)
          "isolation": "sandbox" (how the code was isolated: "sandbox", bubblewrap; "user",
                              the unprivileged user; "none"; absent where no code ran, and in
                              records written before it existed: ruota_docs.run.sandbox)
        }
      }
    }

On disk (``schema`` 3) the copies of a block in each language share one result, and each
output and reason is stored once (`ruota_docs.records.stored`). Older records are still
read: ``schema`` 1 (the entries as above, one per page and language) and ``schema`` 2 (the
results of ``schema`` 3, each holding its reason and line); the next run or ``ruota-docs
record migrate`` writes them back as ``schema`` 3, and ``record check`` refuses them.

`MACHINE_FIELDS` and `ENTRY_FIELDS` list every field and its type:
``ruota-docs record check`` (`ruota_docs.records.check`) holds a record someone
sends to exactly this schema. The machine holds no host or user name (`scrub_machine`),
and outputs no home folder, user or host name of the machine that ran them (`scrub`).

A run over some pages replaces the entries of the pages it ran in full and keeps
every other entry. Only the engine writes records, after the blocks: writing takes an
exclusive lock (a file in a private folder of the temporary directory, not beside the
record: see `lock_path`), replaces the file atomically and notes the SHA-256 of what it
wrote in the lock file, so runs that finish together both land, a run killed mid-write
leaves the previous file intact, and the guard that watches records during blocks
(`ruota_docs.run.guard`) tells the engine's writes from a
block's. A file that is not valid JSON, or has another ``kind`` or a newer ``schema``, is
an error naming the file: it is never replaced.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import getpass
import glob
import hashlib
import json
import os
import re
import socket
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

from ruota_docs.records import bounds, listing, provenance, stored

try:
    import orjson
except ImportError:  # a dependency: only a broken install lacks it, and then records read slower
    orjson = None

SCHEMA = 3
#: Older formats `load` still reads (and `write_atomic` writes back as `SCHEMA`).
READABLE = (1, 2, 3)
KIND = "ruota-docs/ledger"
#: What a stored record holds in place of ``blocks`` (`ruota_docs.records.stored`).
STORED_PARTS = ("pages", "reasons", "outputs")
OUTCOMES = ("passed", "failed", "skipped", "error")

_TEXT = (str, type(None))
_NUMBER = (int, float)
#: Every field of ``machine`` (see `ruota_docs.records.machine.Device`) and the types it may hold.
MACHINE_FIELDS: dict[str, tuple] = {
    "backend": (str,), "gpu_name": _TEXT, "arch": _TEXT, "vram_bytes": (int, type(None)), "gpu_count": (int,),
    "os": (str,), "machine": (str,), "python": (str,), "torch": _TEXT, "hip": _TEXT, "cuda": _TEXT,
    "packages": (dict,), "machine_id": (str,),
}
#: Every field of a block's entry and the types it may hold; ``as_root``, ``signature``,
#: ``reason_code`` and ``isolation`` may be absent (records written before they existed), ``tier``
#: where a block reached none.
ENTRY_FIELDS: dict[str, tuple] = {
    "page": (str,), "lang": (str,), "index": (int,), "line": (int,), "language": (str,), "sha256": (str,),
    "id": _TEXT, "outcome": (str,), "reason": _TEXT, "error": _TEXT, "duration": _NUMBER, "output": _TEXT,
    "ran_at": (str,), "reused_from": _TEXT, "signature": _TEXT, "as_root": (bool, type(None)),
    "reason_code": (dict, type(None)), "tier": _TEXT, "isolation": _TEXT,
}
OPTIONAL_ENTRY_FIELDS = ("signature", "as_root", "reason_code", "tier", "isolation")


class LedgerError(ValueError):
    """A ledger file that cannot be used as it is."""


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def block_key(page: str, index: int) -> str:
    return f"{page}#{index}"


def empty(machine: dict) -> dict:
    return {"schema": SCHEMA, "kind": KIND, "machine_id": machine.get("machine_id"), "machine": machine,
            "updated": None, "blocks": {}}


def load(path: Path, expand: bool = True) -> dict:
    """Read and validate one ledger. Raises `LedgerError` naming the file.

    ``expand=False`` returns it in the stored form (`to_stored`, an older record converted),
    for readers that work with its results directly (`ruota_docs.records.verdicts.Index`)."""
    path = Path(path)
    raw = _read_bounded(path)
    try:
        data = _decode(raw)
    except json.JSONDecodeError as error:
        raise LedgerError(f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
                          "fix or remove the file — it is never overwritten") from None
    except UnicodeDecodeError:
        raise LedgerError(f"{path}: not UTF-8 text; fix or remove the file — it is never overwritten") from None
    except bounds.BadNumber as error:  # NaN, Infinity, 1e999, an integer of thousands of digits
        raise LedgerError(f"{path}: {bounds.locate(raw, error.token)}: {error}; fix or remove the file — it is never "
                          "overwritten") from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise LedgerError(f"{path}: not a ruota-docs ledger (expected \"kind\": \"{KIND}\")")
    schema = data.get("schema")
    if not isinstance(schema, int) or schema > SCHEMA:
        raise LedgerError(f"{path}: schema {schema!r} is newer than this ruota-docs understands ({SCHEMA}); "
                          "upgrade ruota-docs")
    if schema not in READABLE:
        raise LedgerError(f"{path}: schema {schema!r} is older than any this ruota-docs reads "
                          f"({', '.join(map(str, READABLE))})")
    if schema >= 2:
        _check_parts(path, data)
        if not expand and schema == SCHEMA:
            return data
        data = expanded(data)
    if not isinstance(data.get("blocks"), dict):
        raise LedgerError(f"{path}: \"blocks\" must be an object")
    for key, entry in data["blocks"].items():
        if not isinstance(entry, dict) or entry.get("outcome") not in OUTCOMES or "sha256" not in entry:
            raise LedgerError(f"{path}: entry {key!r} lacks an outcome or a sha256")
    return data if expand else to_stored(data)


def _read_bounded(path: Path) -> bytes:
    """The record's bytes, its size checked before reading (`ruota_docs.records.bounds`): a link to
    ``/dev/zero`` or a file of gigabytes is refused, named, never read into memory."""
    try:
        raw = bounds.read(path, bounds.MAX_BYTES)
    except (bounds.TooLarge, bounds.NotRegular) as error:
        raise LedgerError(f"{path}: {error}: not a record this ruota-docs reads (`ruota-docs record check` says "
                          "why)") from None
    except OSError as error:
        raise LedgerError(f"{path}: cannot be read: {error.strerror or error}") from None
    problem = bounds.depth_problem(raw)
    if problem:
        raise LedgerError(f"{path}: {problem}")
    return raw


def _decode(raw: bytes):
    """A record's JSON: with orjson, a third of the time of the standard library's (a site reads
    a thousand records in every build); a file it refuses is read again by the standard library,
    whose error names the line and column, and which tells text that is not UTF-8 apart."""
    if orjson is not None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return bounds.loads(raw)


def _check_parts(path: Path, data: dict) -> None:
    """A stored record (``schema`` 2 or later) holds what it must to be read; a shape it cannot
    hold is an error naming the field."""
    pages, outputs = data.get("pages"), data.get("outputs")
    reasons = data.get("reasons") if data["schema"] >= 3 else None
    if not isinstance(pages, dict) or not isinstance(outputs, dict) or not isinstance(reasons, (dict, type(None))) \
            or data["schema"] >= 3 and reasons is None:
        wanted = '"pages", "reasons" and "outputs"' if data["schema"] >= 3 else '"pages" and "outputs"'
        raise LedgerError(f"{path}: {wanted} must be objects (schema {data.get('schema')})")
    for name, page in pages.items():
        if not isinstance(page, dict) or not isinstance(page.get("results"), list):
            raise LedgerError(f"{path}: pages.{name}: must hold \"results\", each with its \"at\"")
        for n, result in enumerate(page["results"]):
            if not isinstance(result, dict) or not isinstance(result.get("at"), dict):
                raise LedgerError(f"{path}: pages.{name}: must hold \"results\", each with its \"at\"")
            if result.get("outcome") not in OUTCOMES or "sha256" not in result:
                raise LedgerError(f"{path}: pages.{name}.results[{n}] lacks an outcome or a sha256")


def expanded(data: dict) -> dict:
    """A stored record (``schema`` 2 or later, its parts checked) as entries (``blocks``)."""
    reasons = data.get("reasons") if data["schema"] >= 3 else None
    found = {k: v for k, v in data.items() if k not in STORED_PARTS}
    found["blocks"] = stored.expand(data["pages"], data["outputs"], tuple(ENTRY_FIELDS), reasons)
    return found


def to_stored(data: dict) -> dict:
    """The record as it is written (``schema`` `SCHEMA`): ``blocks`` become ``pages``, ``reasons``
    and ``outputs``."""
    pages, reasons, outputs = stored.compact(data.get("blocks", {}))
    written = {k: v for k, v in data.items() if k != "blocks"}
    written["schema"] = SCHEMA
    return written | {"pages": pages, "reasons": reasons, "outputs": outputs}


def migrate(path: Path) -> tuple[int, int]:
    """Rewrite the record at ``path`` in the current format (under its lock): ``(bytes before, after)``."""
    path = Path(path)
    with _locked(path):
        before = path.stat().st_size
        write_atomic(path, load(path))
        _note_write(path)
    return before, path.stat().st_size


def load_all(directory: Path, expand: bool = True) -> list[dict]:
    """Every ledger in a folder, sorted by machine id; a missing folder holds none (``expand``: see `load`)."""
    return [data for _, data in load_files(directory, expand)]


def load_files(directory: Path, expand: bool = True) -> list[tuple[Path, dict]]:
    """`load_all`, each ledger with the file it was read from."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    ledgers, seen = [], {}
    try:
        paths = listing.records(directory)  # the one list every tool reads: no hidden file, link or device
    except listing.RecordsRefused as refused:
        raise LedgerError(f"{refused}") from None
    for path in paths:
        data = load(path, expand)
        key = (data.get("machine_id"), data.get("fingerprint"))
        if key in seen:
            which = f"machine {key[0]!r}" + (f" (fingerprint {key[1][:8]}…)" if key[1] else "")
            raise LedgerError(f"{path}: machine_id: {which} already has a record, {seen[key].name}: "
                              "one machine keeps one record (run the suite again, which writes one, or remove the "
                              "other)")
        seen[key] = path
        ledgers.append((path, data))
    return sorted(ledgers, key=lambda item: (str(item[1].get("machine_id")), str(item[1].get("fingerprint") or "")))


def merge(old: dict, entries: list[dict], complete_pages: set[str], machine: dict,
          forget: set[str] = frozenset()) -> dict:
    """``old`` updated with this run's ``entries``.

    Pages in ``complete_pages`` were run in full: their old entries are dropped first,
    so blocks that no longer exist leave the record. Keys in ``forget`` are blocks this run
    collected and did not run: an old result of theirs would pass for this run's.
    """
    blocks = {k: v for k, v in old.get("blocks", {}).items()
              if v.get("page") not in complete_pages and k not in forget}
    for entry in entries:
        blocks[block_key(entry["page"], entry["index"])] = entry
    merged = empty(machine)
    merged["blocks"] = dict(sorted(blocks.items(), key=lambda kv: (kv[1]["page"], kv[1]["index"])))
    merged["updated"] = now()
    return merged


def lock_path(path: Path) -> Path:
    """The lock file of the record at ``path``, which also notes the engine's last write.

    It lives outside the records folder (a repository holds records, nothing else), in a
    folder of the temporary directory private to the user who writes records, named after
    the record's absolute path so that two records never share a lock."""
    folder = Path(tempfile.gettempdir()) / f"ruota-docs-locks-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    stat = os.lstat(folder)
    if not os.path.isdir(folder) or os.path.islink(folder) or stat.st_uid != os.getuid():
        raise LedgerError(f"{folder}: not a folder of this user's; remove it (records are locked there)")
    digest = hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:16]
    return folder / f"{Path(path).name}.{digest}.lock"


@contextmanager
def _locked(path: Path, shared: bool = False):
    with open(lock_path(path), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextmanager
def _replacing(path: Path, mode: int, binary: bool = False):
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


def write_atomic(path: Path, data: dict) -> None:
    """Replace ``path`` with ``data`` in one step (temporary file + rename), in the stored form."""
    # mkstemp makes the file private (0600); a ledger is shared like any file of the repository
    with _replacing(path, path.stat().st_mode & 0o777 if path.exists() else 0o644) as handle:
        for line in lines(to_stored(data) if "blocks" in data else data):
            handle.write(line)


def dumps(written: dict) -> str:
    """A stored record as text (`lines`)."""
    return "".join(lines(written))


def lines(written: dict):
    """A stored record as lines of text: one per result and per output, so a change reads as a
    small diff, without the bytes a fully indented file spends on indentation."""
    dump = lambda value: json.dumps(value, ensure_ascii=False)  # noqa: E731
    yield "{\n"
    for key, value in written.items():
        if key not in STORED_PARTS:
            yield f" {dump(key)}: {dump(value)},\n"
    yield ' "pages": {\n'
    pages = list(written.get("pages", {}).items())
    for n, (name, page) in enumerate(pages):
        rest = "".join(f"{dump(k)}: {dump(v)}, " for k, v in page.items() if k != "results")
        yield f"  {dump(name)}: {{{rest}\"results\": [\n"
        results = page.get("results", [])
        for i, result in enumerate(results):
            comma = "," if i < len(results) - 1 else ""
            yield f"   {json.dumps(result, ensure_ascii=False, separators=(',', ':'))}{comma}\n"
        yield f"  ]}}{',' if n < len(pages) - 1 else ''}\n"
    yield " }"
    for part in STORED_PARTS[1:]:
        if part not in written:
            continue
        yield f',\n {dump(part)}: {{\n'
        found = list(written[part].items())
        for i, (key, value) in enumerate(found):
            yield f"  {dump(key)}: {dump(value)}{',' if i < len(found) - 1 else ''}\n"
        yield " }"
    yield "\n}\n"


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


def record(path: Path, entries: list[dict], complete_pages: set[str], machine: dict,
           forget: set[str] = frozenset()) -> dict:
    """Merge a run's entries into the ledger at ``path`` under an exclusive lock."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _locked(path):
        _remove_leftovers(path)
        old = load(path) if path.exists() else empty(machine)
        if old.get("machine_id") not in (None, machine.get("machine_id")):
            raise LedgerError(f"{path}: holds machine {old.get('machine_id')!r}, not this machine "
                              f"({machine.get('machine_id')!r}); choose another file with --ledger")
        if old.get("fingerprint") not in (None, provenance.fingerprint()):
            own_name = provenance.record_name(str(machine.get("machine_id")))
            raise LedgerError(f"{path}: fingerprint: this is the record of another {machine.get('machine_id')} machine "
                              f"(fingerprint {old['fingerprint'][:8]}…, this one's {provenance.fingerprint()[:8]}…); "
                              f"write this machine's with --ledger {path.parent / own_name}")
        merged = merge(old, [scrub_entry(e) for e in entries], complete_pages, scrub_machine(machine), forget)
        merged = _with_origin(merged, path)
        write_atomic(path, merged)
        _note_write(path)
    return merged


def _with_origin(data: dict, path: Path) -> dict:
    """``data`` with this machine's fingerprint and where the record comes from (this run),
    right after the machine (`ruota_docs.records.provenance`)."""
    origin = {"fingerprint": provenance.fingerprint(),
              "provenance": provenance.from_environment(commit=_git_head(path.parent))}
    head = {k: v for k, v in data.items() if k in ("schema", "kind", "machine_id", "machine")}
    return head | origin | {k: v for k, v in data.items() if k not in head and k not in origin}


def _git_head(folder: Path) -> str | None:
    """The commit checked out where the record is written (None outside a git work tree). Read from
    the repository's own files where they say it plainly (its HEAD, a branch's ref, packed refs): a
    run of one page writes its record in less time than starting git takes; else asked of git."""
    folder = Path(folder).resolve()
    top = next((f for f in (folder, *folder.parents) if (f / ".git").exists()), None)
    if top is None:
        return None
    found = _head_from_files(top / ".git")
    return found if found is not None else _git_rev_parse(folder)


def _head_from_files(git: Path) -> str | None:
    if not git.is_dir():  # a worktree or a submodule: .git names the folder elsewhere
        return None
    try:
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
        if not head.startswith("ref: "):
            return head if re.fullmatch(r"[0-9a-f]{40}", head) else None
        ref = head[5:].strip()
        if (git / ref).is_file():
            found = (git / ref).read_text(encoding="utf-8").strip()
            return found if re.fullmatch(r"[0-9a-f]{40}", found) else None
        for line in (git / "packed-refs").read_text(encoding="utf-8").splitlines():
            sha, _, name = line.partition(" ")
            if name == ref and re.fullmatch(r"[0-9a-f]{40}", sha):
                return sha
    except OSError:
        pass
    return None


def _git_rev_parse(folder: Path) -> str | None:
    try:
        found = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"],
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    head = found.stdout.strip()
    return head if found.returncode == 0 and re.fullmatch(r"[0-9a-f]{40}", head) else None


# -- scrubbing: nothing published names the home folder, the user or the host ------
def _private_words() -> list[tuple[re.Pattern, str]]:
    pairs = []
    home = os.path.expanduser("~")
    if home and home not in ("/", ""):
        pairs.append((re.compile(re.escape(home) + r"(?![\w.-])"), "~"))
    # the page's own folder; HOME inside it (the unprivileged user's) reads as any home does
    page_dir = re.escape(tempfile.gettempdir()) + r"/ruota-page-[A-Za-z0-9_]+"
    pairs.append((re.compile(page_dir + r"/home(?![\w.-])"), "~"))
    pairs.append((re.compile(page_dir), "<page-dir>"))
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = ""
    host = socket.gethostname()
    for word, label in ((host, "<host>"), (user, "<user>")):
        if word and len(word) >= 3 and word not in ("root",):
            pairs.append((re.compile(rf"\b{re.escape(word)}\b"), label))
    return pairs


def scrub(text: str | None) -> str | None:
    if not text:
        return text
    for pattern, label in _private_words():
        text = pattern.sub(label, text)
    return text


def scrub_entry(entry: dict) -> dict:
    return {k: scrub(v) if k in ("output", "reason", "error") else _scrub_all(v) if k == "reason_code" else v
            for k, v in entry.items()}


def _scrub_all(value):
    """Every string in a JSON value scrubbed (a reason code's arguments: file names, messages)."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {k: _scrub_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub_all(v) for v in value]
    return value


def scrub_machine(machine: dict) -> dict:
    return {k: v for k, v in machine.items() if k not in ("hostname", "user")}
