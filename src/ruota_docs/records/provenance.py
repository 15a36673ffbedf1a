"""Where a record comes from, and what tells one machine from another.

``provenance`` says how the record reached the repository:

- ``{"kind": "ci", "run_url": "https://github.com/OWNER/REPO/actions/runs/123", "repository": "OWNER/REPO",
  "commit": "<40 hex digits>", "runner_labels": ["self-hosted", "linux", "rocm", "gfx1102"]}`` — written by the
  engine in a GitHub Actions job (``GITHUB_ACTIONS``), the labels from ``RUOTA_DOCS_RUNNER_LABELS`` (the workflow
  sets them: GitHub does not tell a job its runner's labels); the site links the record to its run;
- ``{"kind": "sent", "commit": "<40 hex digits>" | null}`` — run by the card's owner and sent by hand.

``fingerprint`` (32 hex digits) tells two machines of the same kind apart (two RX 7600s are both
``rocm-gfx1102``): a hash of the operating system's machine id, salted so that it matches no other
program's, so the record says *which* machine without saying anything *about* it. It depends on the
machine alone, never on the record file or the run: a record recreated on one machine keeps its
fingerprint, so one machine run twice is never two independent records (they agree independently
only when their fingerprints differ, `ruota_docs.site.groups`). The device needs no part in it: a
record is named by the machine's id (its GPU target) *and* the fingerprint (`record_name`).

`check` is what ``record check`` holds a record's provenance to.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import subprocess
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ruota_docs.records.schema import Machine

KINDS = ("ci", "sent")
_SALT = "ruota-docs machine fingerprint v1:"
_HEX40 = re.compile(r"[0-9a-f]{40}")
_HEX32 = re.compile(r"[0-9a-f]{32}")
_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_RUN_URL = re.compile(r"https://github\.com/(?P<repository>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/actions/runs/\d+(?:/attempts/\d+)?")
MACHINE_ID_FILES = ("/etc/machine-id", "/var/lib/dbus/machine-id")
#: The bit `uuid.getnode` sets in a number it made up (no network card's address was found).
_RANDOM_NODE = 1 << 40


def fingerprint(machine_id_files: Iterable[str | Path] | None = None) -> str:
    """This machine's fingerprint: the salted hash of its machine id, else of its network card's
    address, else of its host name (``machine_id_files``: where to look, `MACHINE_ID_FILES` by default)."""
    # systemd's /etc/machine-id (dbus's copy on older systems) is made once, when the system is
    # installed, and outlives reboots and runs; only the hash is written, so the id stays private
    for name in MACHINE_ID_FILES if machine_id_files is None else machine_id_files:
        try:
            found = Path(name).read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            continue
        if found:
            return hashlib.sha256((_SALT + found).encode()).hexdigest()[:32]
    node = uuid.getnode()
    if not node & _RANDOM_NODE:  # a real address; without one, Python makes up a new number each run
        return hashlib.sha256(f"{_SALT}node:{node:012x}".encode()).hexdigest()[:32]
    return hashlib.sha256(f"{_SALT}host:{socket.gethostname()}".encode()).hexdigest()[:32]


def record_name(machine_id: str, known: str | None = None) -> str:
    """The file name of a machine's record, ``<machine-class>-<fingerprint>.json`` (the fingerprint's
    first 8 digits; this machine's where none is given): what every run and ``contribute`` write."""
    return f"{machine_id}-{(known or fingerprint())[:8]}.json"


def from_environment(env: Mapping[str, str] | None = None, commit: str | None = None) -> dict[str, Any]:
    """The provenance of a record written now: ``ci`` inside a GitHub Actions job, else ``sent``."""
    env = os.environ if env is None else env
    if env.get("GITHUB_ACTIONS") == "true" and env.get("GITHUB_RUN_ID") and env.get("GITHUB_REPOSITORY"):
        server = env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
        labels = [label.strip() for label in env.get("RUOTA_DOCS_RUNNER_LABELS", "").split(",") if label.strip()]
        return {"kind": "ci", "run_url": f"{server}/{env['GITHUB_REPOSITORY']}/actions/runs/{env['GITHUB_RUN_ID']}",
                "repository": env["GITHUB_REPOSITORY"], "commit": env.get("GITHUB_SHA") or commit,
                "runner_labels": labels}
    return {"kind": "sent", "commit": commit}


def check(provenance: object, machine: Machine | None) -> list[tuple[str, str]]:
    """``(field, problem)`` for each way ``provenance`` does not fit the record (``machine``)."""
    if not isinstance(provenance, dict):
        return [("provenance", 'must be an object: {"kind": "ci", …} or {"kind": "sent"}')]
    kind = provenance.get("kind")
    if kind not in KINDS:
        return [("provenance.kind", f"must be ci (written by a CI job) or sent (by hand), not {kind!r}")]
    fields = {"ci": ("kind", "run_url", "repository", "commit", "runner_labels"), "sent": ("kind", "commit")}[kind]
    problems = [(f"provenance.{name}", f"unknown field for {kind}; {kind} holds only: {', '.join(fields)}")
                for name in provenance if name not in fields]
    commit = provenance.get("commit")
    if not (commit is None and kind == "sent") and not (isinstance(commit, str) and _HEX40.fullmatch(commit)):
        problems.append(("provenance.commit",
                         f"must be the 40 lower-case hex digits of the commit the suite ran on, not {commit!r}"))
    if kind == "sent":
        return problems
    return problems + _check_ci(provenance, machine)


def _check_ci(provenance: dict[str, Any], machine: Machine | None) -> list[tuple[str, str]]:
    """The problems of a CI record's repository, run and runner labels."""
    problems = []
    repository, run_url = provenance.get("repository"), provenance.get("run_url")
    if not (isinstance(repository, str) and _REPOSITORY.fullmatch(repository)):
        problems.append(("provenance.repository", f"must be OWNER/REPO, not {repository!r}"))
    match = _RUN_URL.fullmatch(run_url) if isinstance(run_url, str) else None
    if match is None:
        said = "missing" if run_url is None else f"{run_url!r}, which is not one"
        problems.append(("provenance.run_url", "a CI record links to its workflow run, "
                                               f"https://github.com/OWNER/REPO/actions/runs/ID: {said}"))
    elif isinstance(repository, str) and match["repository"].lower() != repository.lower():
        problems.append(("provenance.run_url", f"is a run of {match['repository']}, not of the record's repository "
                                               f"{repository}"))
    return problems + _check_labels(provenance.get("runner_labels"), machine)


def _check_labels(labels: Any, machine: Machine | None) -> list[tuple[str, str]]:
    """A CI record's runner labels: self-hosted, and the machine's gfx target on a ROCm machine."""
    if not (isinstance(labels, list) and labels and all(isinstance(label, str) for label in labels)):
        return [("provenance.runner_labels", f"must list the runner's labels, not {labels!r}")]
    if "self-hosted" not in labels:
        return [("provenance.runner_labels", "the records' workflow runs only on self-hosted runners: "
                                             f"'self-hosted' is not among {labels}")]
    if machine is not None and machine.backend == "rocm" and machine.arch and machine.arch not in labels:
        return [("provenance.runner_labels", f"the job ran on a runner labelled {labels}, "
                                             f"not on one labelled {machine.arch} as this record's machine is")]
    return []


def check_fingerprint(value: object) -> str | None:
    """The problem of a record's ``fingerprint`` (None where it is fine)."""
    if value is None or isinstance(value, str) and _HEX32.fullmatch(value):
        return None
    return f"must be 32 lower-case hex digits (the engine's hash of the machine id), not {value!r}"


def git_head(folder: Path) -> str | None:
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
