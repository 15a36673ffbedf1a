"""Where the engine keeps what it remembers between runs: ``$XDG_CACHE_HOME/ruota-docs/``
(``~/.cache/ruota-docs/`` by default). Each file there is keyed on what it depends on, so
deleting the folder is always safe. In the lowest stage so that every stage may use it."""

from __future__ import annotations

import os
import pickle
from pathlib import Path


def path(name: str) -> Path:
    """The file or folder ``name`` in the engine's cache folder (nothing is created)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ruota-docs" / name


def load_pickle(folder: str, digest: str):
    """What `keep_pickle` kept under ``digest`` in ``folder``; None where it is missing, partial or
    cannot be read."""
    try:
        with open(path(folder) / f"{digest}.pickle", "rb") as handle:
            return pickle.load(handle)  # written by this user's own runs, in its own cache
    except Exception:  # noqa: BLE001 — a missing, partial or outdated file: the caller works it out again
        return None


def keep_pickle(folder: str, digest: str, value) -> Path | None:
    """``value`` pickled under ``digest`` in ``folder``, written whole or not at all (a reader never
    meets half a file); the folder, or None where it does not pickle or cannot be written."""
    try:
        data = pickle.dumps(value)
    except Exception:  # noqa: BLE001 — something that does not pickle: not kept
        return None
    where = path(folder)
    try:
        where.mkdir(parents=True, exist_ok=True)
        tmp = where / f".{digest}.{os.getpid()}.tmp"
        tmp.write_bytes(data)
        os.replace(tmp, where / f"{digest}.pickle")
    except OSError:
        return None
    return where


def trim(where: Path, keep: int) -> None:
    """The oldest files of ``where`` removed, once there are more than ``keep``."""
    try:
        kept = sorted(where.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns)
        for old in kept[:-keep]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
