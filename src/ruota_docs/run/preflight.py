"""What ``ruota-docs contribute`` checks before it runs anything, so that an owner learns in seconds,
not after the whole suite, what is missing: each check says what it found and, where something is
missing, the command that sets it up.

- **git identity** (needed: the record is committed on a branch of its own);
- **a remote to push to** on GitHub, the owner's fork (needed; ``gh repo fork --remote`` makes one);
- **gh or the manual route**: with ``gh`` logged in, ``contribute`` pushes and opens the pull request;
  without it, it prints the two commands and the page to open (a note, not a stop);
- **free disk** for the models the guides download (needed: `MIN_FREE`);
- **a GPU build of torch** that sees the card (a note: a CPU-only record is still a record).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: Free space the suite needs in the clone's file system (models, caches, the record).
MIN_FREE = 4 * 2**30


@dataclass(frozen=True)
class Finding:
    name: str
    ok: bool
    needed: bool  #: a missing ``needed`` thing stops ``contribute`` before it runs
    message: str

    def __str__(self) -> str:
        mark = "ok" if self.ok else ("MISSING" if self.needed else "note")
        return f"  [{mark}] {self.name}: {self.message}"


def _git(root: Path, *args: str) -> str | None:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def identity(root: Path) -> Finding:
    name = _git(root, "config", "user.name") or os.environ.get("GIT_AUTHOR_NAME")
    email = _git(root, "config", "user.email") or os.environ.get("GIT_AUTHOR_EMAIL") or os.environ.get("EMAIL")
    if name and email:
        return Finding("git identity", True, True, f"{name} <{email}>")
    return Finding("git identity", False, True,
                   "git does not know who you are, and the record is committed in your name: "
                   "git config --global user.name \"Your Name\" && git config --global user.email you@example.org")


def fork_remote(root: Path, owner_of) -> Finding:
    """``owner_of(root, remote)``: the GitHub owner of a remote (`ruota_docs.run.contribute._github_owner`)."""
    remotes = (_git(root, "remote") or "").split()
    owners = {remote: owner_of(root, remote) for remote in remotes}
    if owners.get("origin"):
        return Finding("fork to push to", True, True, f"origin is github.com/{owners['origin']}/…")
    found = [r for r, owner in owners.items() if owner]
    if found:
        return Finding("fork to push to", False, True,
                       f"origin is not on GitHub (GitHub remotes: {', '.join(found)}): push to your fork named "
                       "origin (git remote rename … origin), or make one with: gh repo fork --remote")
    return Finding("fork to push to", False, True,
                   "no remote on GitHub: fork the repository and add it (gh repo fork --remote; or fork it on "
                   "github.com and: git remote add origin https://github.com/YOU/ruota-docs.git)")


def sending(gh_ready) -> Finding:
    if gh_ready():
        return Finding("gh", True, False, "logged in: contribute can push and open the pull request for you")
    return Finding("gh", False, False, "not installed or not logged in: contribute prints the push command and the "
                   "pull request's text; open it on github.com (or install gh and run gh auth login)")


def disk(root: Path, minimum: int = MIN_FREE) -> Finding:
    free = shutil.disk_usage(root).free
    shown = f"{free / 2**30:.1f} GiB free"
    if free >= minimum:
        return Finding("free disk", True, True, shown)
    return Finding("free disk", False, True, f"{shown}; the guides' models and caches need {minimum / 2**30:.0f} GiB: "
                   "free some space first")


def gpu_torch(device) -> Finding:
    if device.torch is None:
        return Finding("GPU build of torch", False, False, "PyTorch is not installed here: every block that needs it "
                       "is skipped. Install the ROCm build for your card first (run-on-your-card page).")
    if device.backend == "cpu":
        return Finding("GPU build of torch", False, False, f"torch {device.torch} sees no GPU: the record will be of "
                       "the CPU alone. Install the ROCm (or CUDA) build of torch for a card's record.")
    return Finding("GPU build of torch", True, False, f"torch {device.torch} sees {device.gpu_name}")


def run(root: Path, device, gh_ready, owner_of, minimum: int = MIN_FREE) -> list[Finding]:
    """Every check, in the order an owner fixes them."""
    return [identity(root), fork_remote(root, owner_of), sending(gh_ready), disk(root, minimum), gpu_torch(device)]


def blocking(found: list[Finding]) -> list[Finding]:
    return [f for f in found if f.needed and not f.ok]
