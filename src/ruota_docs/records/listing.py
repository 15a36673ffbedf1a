"""The records of a folder: the one list that ``record check``, the site's build, ``status``,
``make check`` and CI's records job all read, so that no tool sees a record another one skips.

A record in the folder is a regular file named as the engine names it
(``<machine-class>[-<fingerprint>].json``: lower-case letters, digits, ``.``, ``_``, ``-``). Anything
else there that a reader could take for a record — a hidden file, a symbolic link (to ``/dev/zero``,
to a file outside the repository), a folder, a device, a name with other characters — is refused,
named, rather than skipped by one tool and read by another.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

#: The names the engine gives records (`ruota_docs.records.provenance.record_name`), at most 120 characters.
NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,114}\.json")


#: Characters a file name may hold that a terminal or a log must not get raw: control characters (a
#: newline would start a line of its own, "accepted: …"), lone surrogates, bidirectional and zero-width ones.
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029"
                         "\u2060-\u2069\ufeff]")


def shown(path: object) -> str:
    """A file's name as a report writes it: as it is, or, where it holds a character a terminal or a
    log must not get raw, escaped as a JSON string (``"rocm\\naccepted.json"``)."""
    text = str(path)
    return json.dumps(text) if _UNSHOWABLE.search(text) else text


class RecordsRefused(ValueError):
    """Entries of a records directory that are not records a tool may read: ``problems`` is
    ``[(path, why)]``, each named."""

    def __init__(self, problems: list[tuple[Path, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{shown(path)}: {why}" for path, why in problems))


def file_problem(path: Path, *, in_folder: bool = True) -> str | None:
    """Why ``path`` is not a record a tool may read, or None. Never follows a link.

    ``in_folder``: the file is in the site's records directory, where its name must be one the engine
    gives; a record named on the command line elsewhere (``--ledger my.json``) may have any
    name but a hidden one."""
    name = path.name
    if name.startswith("."):
        return ("a hidden file (its name starts with a dot): every tool must see the same records, so a record "
                "is never hidden; rename it as the engine names records, or remove it")
    try:
        info = os.lstat(path)
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if stat.S_ISLNK(info.st_mode):
        return "a symbolic link: a record is a regular file, read as it is (replace the link with the file)"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file: a record is a regular file"
    if in_folder and not NAME.fullmatch(name):
        return ("not a name the engine gives a record: <machine-class>-<fingerprint>.json, in lower-case letters, "
                "digits, '.', '_' and '-', at most 120 characters")
    return None


def _candidate(name: str) -> bool:
    """An entry a reader could take for a record (a glob of ``*.json`` takes hidden ones too): what
    the folder may not hold unless it is a record. Other entries (a README, the engine's temporary
    ``.<record>.json.<random>.tmp`` while it writes one) are no record to any tool."""
    return name.lower().endswith(".json")


def folder_records(folder: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """``(records, refused)`` of ``folder``: its records, sorted by name, and each entry that could be
    taken for one but is not, with why. A missing folder holds none."""
    folder = Path(folder)
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return [], []
    except NotADirectoryError:
        return [], [(folder, "not a folder: the records directory must be one")]
    records, refused = [], []
    for name in names:
        if not _candidate(name):
            continue
        path = folder / name
        problem = file_problem(path)
        if problem is None:
            records.append(path)
        else:
            refused.append((path, problem))
    return records, refused


def records(folder: Path) -> list[Path]:
    """The records of ``folder`` (`folder_records`); raises `RecordsRefused` naming every entry
    that is not one."""
    found, refused = folder_records(folder)
    if refused:
        raise RecordsRefused(refused)
    return found


def named(names: list[str], records_folder: Path | None = None) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The records named on a command line: a folder stands for its records (`folder_records`);
    a file is checked as a record, its name held to the engine's only inside ``records_folder``."""
    found, refused = [], []
    folder = Path(records_folder).resolve() if records_folder else None
    for name in names:
        path = Path(name)
        if path.is_dir() and not path.is_symlink():
            more, bad = folder_records(path)
            found += more
            refused += bad
            continue
        in_folder = folder is not None and path.parent.resolve() == folder
        problem = file_problem(path, in_folder=in_folder)
        if problem is None:
            found.append(path)
        else:
            refused.append((path, problem))
    return found, refused


def read_names(source: str) -> list[str]:
    """File names listed one per NUL byte (``git diff -z``) in the file ``source`` (``-``: standard
    input): names pass through no shell, whatever characters they hold."""
    import sys  # noqa: PLC0415 — only for "-"

    raw = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    return [os.fsdecode(part) for part in raw.split(b"\0") if part]
