"""Which ``ci`` records were verified: a record that says it was made by the records workflow is
shown as such only when its build-provenance attestation was verified (``gh attestation verify``
with the records workflow as signer, in the deploy job); any other is "claimed CI, unverified".

The deploy job writes the list it verified, one record per line: its file name, then a tab and the
account the run belongs to (``rocm-gfx1102-0a1b2c3d.json<TAB>owner``). The site's build reads it
from the ``ruota_docs`` plugin's ``verified_records`` option, or ``RUOTA_DOCS_VERIFIED_RECORDS``
(a file path); ``record describe`` from the same variable. Without a list nothing is verified.
A ``ci`` record whose commit is not in the repository's history is flagged either way.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

#: The environment variable naming the list of verified records.
ENV = "RUOTA_DOCS_VERIFIED_RECORDS"
_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,114}\.json")
_ACCOUNT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


class ListError(ValueError):
    """A list of verified records that cannot be used, naming the file and the line."""


def read(path: str | Path | None = None) -> dict[str, str]:
    """File name → account of each verified record in the list at ``path`` (default: `ENV`); {} without one."""
    path = path or os.environ.get(ENV)
    if not path:
        return {}
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ListError(f"{path}: the list of verified records cannot be read: {error}") from None
    found = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        name, _, account = line.partition("\t")
        if not _NAME.fullmatch(name) or (account and not _ACCOUNT.fullmatch(account)):
            raise ListError(f"{path}:{number}: expected a record's file name, a tab and an account, not {line[:80]!r}")
        found[name] = account or "records-workflow"
    return found


def state(data: Any, name: str, verified: dict[str, str]) -> str | None:
    """``"verified"`` or ``"claimed"`` for a ``ci`` record (a `ruota_docs.records.schema.Record`, or its
    JSON object), by its file ``name``; None for any other."""
    origin = data.get("provenance") if isinstance(data, dict) else getattr(data, "provenance", None)
    if (origin or {}).get("kind") != "ci":
        return None
    return "verified" if name in verified else "claimed"


def commit_known(root: Path, commit: str | None) -> bool | None:
    """Whether ``commit`` is in the history of the repository at ``root``; None where git cannot tell."""
    if not commit or not re.fullmatch(r"[0-9a-f]{40}", commit):
        return None
    try:
        done = subprocess.run(["git", "-C", str(root), "cat-file", "-e", f"{commit}^{{commit}}"],
                              capture_output=True, timeout=30)
        inside = subprocess.run(["git", "-C", str(root), "rev-parse", "--is-inside-work-tree"],
                                capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if inside.returncode != 0:
        return None
    return done.returncode == 0


def commit_time(root: Path, commit: str | None) -> int | None:
    """When ``commit`` was committed (seconds since the epoch), where it is in the repository at
    ``root``; None where git cannot tell."""
    if not commit_known(root, commit):
        return None
    try:
        done = subprocess.run(["git", "-C", str(root), "show", "-s", "--format=%ct", str(commit)],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return int(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip().isdigit() else None


#: The workflow that makes ``ci`` records and signs their attestations, as ``gh attestation verify`` names it.
SIGNER = ".github/workflows/records.yml"
_RUN = re.compile(r"https://github\.com/(?P<repository>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/actions/runs/(?P<id>\d+)")


def verify(records: list[Path], repository: str, gh: str = "gh") -> tuple[dict[str, str], list[str]]:
    """``gh attestation verify`` on each ``ci`` record of ``records``, with the records workflow of
    ``repository`` (OWNER/REPO) as signer: ``({file name: account}, [why each other ci record is not verified])``.
    The account is the run's triggering actor (``gh api``), the one a verified run belongs to."""
    import json  # noqa: PLC0415

    verified, refused = {}, []
    for path in records:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # record check refuses it
        origin = data.get("provenance") if isinstance(data, dict) else None
        if not isinstance(origin, dict) or origin.get("kind") != "ci":
            continue
        run = _RUN.fullmatch(str(origin.get("run_url") or ""))
        if run is None or run["repository"] != repository:
            refused.append(f"{path}: provenance.run_url: not a run of {repository}")
            continue
        done = subprocess.run([gh, "attestation", "verify", str(path), "--repo", repository,
                               "--signer-workflow", f"{repository}/{SIGNER}"], capture_output=True, text=True)
        if done.returncode != 0:
            refused.append(f"{path}: gh attestation verify: {(done.stderr or done.stdout).strip()[:300]}")
            continue
        actor = subprocess.run([gh, "api", f"repos/{repository}/actions/runs/{run['id']}",
                                "--jq", ".triggering_actor.login"], capture_output=True, text=True)
        account = actor.stdout.strip()
        if actor.returncode != 0 or not _ACCOUNT.fullmatch(account):
            refused.append(f"{path}: the run {run['id']} names no account (gh api: {actor.stderr.strip()[:200]})")
            continue
        verified[Path(path).name] = account
    return verified, refused


def write(path: Path, verified: dict[str, str]) -> None:
    """The list `read` reads: a file name, a tab and an account per line."""
    Path(path).write_text("".join(f"{name}\t{account}\n" for name, account in sorted(verified.items())),
                          encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """``python -m ruota_docs.records.attestations FOLDER --repo OWNER/REPO --out LIST``: what the deploy
    job runs where GitHub's CLI is (it needs the standard library alone, not the package's dependencies)."""
    import argparse  # noqa: PLC0415

    from ruota_docs.records import listing  # noqa: PLC0415 — the standard library alone, too

    parser = argparse.ArgumentParser(prog="python -m ruota_docs.records.attestations", description=main.__doc__)
    parser.add_argument("folder", help="the records directory (verification/)")
    parser.add_argument("--repo", required=True, metavar="OWNER/REPO")
    parser.add_argument("--out", required=True, metavar="LIST")
    parser.add_argument("--gh", default="gh", help="the GitHub CLI to run (default: gh on PATH)")
    args = parser.parse_args(argv)
    files, refused = listing.folder_records(Path(args.folder))
    for path, why in refused:
        print(f"{path}: record: error: {why}")
    verified, unverified = verify(files, args.repo, args.gh)
    write(Path(args.out), verified)
    for line in unverified:
        print(f"{line}: shown as claimed CI, unverified")
    print(f"verified {len(verified)} of {len(verified) + len(unverified)} ci records; list: {args.out}")
    return 1 if refused else 0


if __name__ == "__main__":
    raise SystemExit(main())
