"""``ruota-docs contribute``: from a card owner's machine to a pull request, in one command.

1. **Probe** the machine, **check what the path needs** before anything runs (a git identity, a fork
   to push to, gh or the manual route, free disk, a GPU build of torch: `ruota_docs.run.preflight`),
   say what will happen (which record, which branch), then ask.
2. **Run the suite**, saying which page of how many runs and for how long, reusing what already
   passed here for the same code (``--reuse-record``: ``resuming: 12 of 40 pages already run on
   this machine``). Ctrl-C stops it with the record of every block run so far, which `record check`
   accepts; the next run resumes from it.
3. **Check the record** (`ruota_docs.records.check`): a refused record stops here.
4. **Prepare a branch** that commits only the record, without touching the work tree or the
   checked-out branch (a commit made from HEAD's tree with the record replaced: plumbing only).
5. **Print the exact commands** that push it and open the pull request, and write the pull
   request's body beside them; where ``gh`` is installed and logged in, offer to run them.

Everything up to the push works offline, and nothing is pushed without a yes.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ruota_docs.records import attestations, check, ledger
from ruota_docs.records.verdicts import machine_label
from ruota_docs.run import preflight


class ContributeError(RuntimeError):
    """A step that cannot go on, with what to do about it."""


@dataclass
class Plan:
    root: Path
    record: Path  #: verification/<machine-class>-<fingerprint>.json (this machine's record, as every run names it)
    branch: str  #: records/<machine-class>-<fingerprint>
    label: str  #: the machine as the site names it
    #: what the owner should know before saying yes (edits not committed, no GPU build of torch, …)
    notes: tuple[str, ...] = ()


def _git(root: Path, *args: str, env: dict | None = None, input_text: str | None = None) -> str:
    found = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, env=env, input=input_text)
    if found.returncode != 0:
        raise ContributeError(f"git {' '.join(args)}: {found.stderr.strip() or found.stdout.strip()}")
    return found.stdout.strip()


def plan(root: Path, device) -> Plan:
    """What this machine's contribution is: its record and its branch."""
    from ruota_docs.run.settings import from_environment  # noqa: PLC0415 — the engine's own naming of records

    root = Path(root)
    try:
        _git(root, "rev-parse", "--verify", "HEAD")  # a clone with a commit: the branch starts there
    except ContributeError:
        raise ContributeError(f"{root} is not a git clone with a commit: clone the repository (git clone …) and "
                              "run this in it, so the record goes on a branch of its own") from None
    # the record every run of this machine writes (named with the fingerprint: two owners of one card send
    # two records; a record of this machine named as before keeps its name, or the branch would hold two)
    record = from_environment(root).record_path(device.machine_id)
    branch = f"records/{record.stem}"
    return Plan(root, record, branch, machine_label(device.to_dict()), _notes(root, device))


def _notes(root: Path, device) -> tuple[str, ...]:
    """What the owner should know before the run: what its record would not say as they may think."""
    notes = []
    if device.torch is None:
        notes.append("PyTorch is not installed in this environment: every block that needs it is skipped, and the "
                     "record says so. Install the build of torch for your card first (README: Running the suite on "
                     "your GPU), unless this record is meant to be of the CPU alone.")
    elif device.backend == "cpu":
        notes.append(f"This torch ({device.torch}) sees no GPU: the record will be of the CPU alone. For a card, "
                     "install the ROCm (or CUDA) build of torch first (README: Running the suite on your GPU).")
    changed = [line.split(maxsplit=1)[1] for line in _git(root, "status", "--porcelain", "--", "docs", "snippets",
                                                           "mkdocs.yml").splitlines() if line.strip()]
    if changed:
        notes.append(f"{len(changed)} file(s) of the site differ from the commit the branch starts from "
                     f"({', '.join(changed[:3])}{', …' if len(changed) > 3 else ''}): the suite runs them as they "
                     "are here, and the record check of the pull request compares with the commit, where those "
                     "blocks are stale. Commit or stash them first.")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        notes.append("You are root: the pages run as the unprivileged user ruota-docs-runner, created where missing "
                     "(README: Running the suite on your GPU).")
    return tuple(notes)


def describe(p: Plan) -> str:
    shown = p.record.relative_to(p.root)
    return "\n".join([
        f"This machine: {p.label}.",
        *(f"Note: {note}" for note in p.notes),
        "ruota-docs contribute will:",
        f"  1. run every page's code blocks here (resuming: what passed here for the same code is reused), "
        f"writing {shown};",
        f"  2. check {shown} as the maintainers will (ruota-docs record check);",
        f"  3. commit only {shown} on a branch of its own, {p.branch} (your work tree and branch stay as they are; "
        "a branch of that name from an earlier run is replaced);",
        "  4. print the commands that push it and open the pull request. Nothing is pushed without your yes.",
    ])


def run_suite(p: Plan, extra: list[str] = ()) -> int:
    """The suite, one page after another with its progress (`ruota_docs.run.page_progress`);
    ``--reuse-record`` makes a second run resume the first.

    Ctrl-C reaches pytest (the terminal sends it to the whole foreground group), which stops and
    writes the record of every block run so far; this process waits for that instead of stopping
    first (``subprocess.call`` would kill pytest a quarter of a second after the interrupt)."""
    command = [sys.executable, "-m", "pytest", "docs", "-p", "no:cacheprovider", "-p", "ruota_docs.run.page_progress",
               "--reuse-record", "--record", str(p.record), *extra]
    print("running:", shlex.join(command), flush=True)
    process = subprocess.Popen(command, cwd=p.root)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # after the start: pytest keeps Python's handler
    try:
        return process.wait()
    finally:
        signal.signal(signal.SIGINT, previous)


def check_record(p: Plan, docs_dir: Path) -> tuple[str, int]:
    """The record check's report (its lines) and exit status."""
    if not p.record.is_file():
        raise ContributeError(f"{p.record}: no record was written; run the suite again (it resumes)")
    reports = check.check_files([p.record], p.root, docs_dir)
    line, status = check.summary(reports)
    lines = [str(problem) for report in reports for problem in report.problems] + [line]
    return "\n".join(lines), status


def prepare_branch(p: Plan, body: str) -> str:
    """A commit on ``p.branch`` holding HEAD's tree with only the record replaced; its id.

    Made with a temporary index, so the work tree, the index and the checked-out branch are
    untouched; a branch of that name is replaced (a later run of the same machine)."""
    relative = p.record.relative_to(p.root).as_posix()
    blob = _git(p.root, "hash-object", "-w", "--", relative)
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, GIT_INDEX_FILE=str(Path(folder) / "index"))
        _git(p.root, "read-tree", "HEAD", env=env)
        _git(p.root, "update-index", "--add", "--cacheinfo", f"100644,{blob},{relative}", env=env)
        tree = _git(p.root, "write-tree", env=env)
    if tree == _git(p.root, "rev-parse", "HEAD^{tree}"):
        raise ContributeError(f"{relative} is already committed as it is: there is nothing to send")
    message = f"Add record for {p.label}\n\n{body}"
    commit = _git(p.root, "commit-tree", tree, "-p", "HEAD", "-F", "-", input_text=message)
    _git(p.root, "branch", "--force", p.branch, commit)
    return commit


def pull_request_body(p: Plan, report: str) -> str:
    data = ledger.load(p.record)
    outcomes: dict[str, int] = {}
    for result in data.results.values():
        outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
    counted = ", ".join(f"{count} {outcome}" for outcome, count in sorted(outcomes.items()))
    origin = data.provenance or {}
    labels = ", ".join(origin.get("runner_labels") or [])
    made = (f"by the records workflow, run {origin['run_url']} (runner labels: {labels})"
            if origin.get("kind") == "ci" else "with `ruota-docs contribute`")
    ci = attestations.state(data, p.record.name, attestations.read())
    if ci == "claimed":  # the attestation was not verified: the record says so of itself, nothing proves it
        made = f"(claimed CI, unverified) {made}"
    known = attestations.commit_known(p.root, origin.get("commit"))
    return "\n".join([
        f"A record of the whole suite on **{p.label}**, made {made}.", "",
        f"- machine: `{data.machine_id}`, fingerprint `{(data.fingerprint or '')[:8]}`",
        f"- commit the suite ran on: `{origin.get('commit') or 'unknown'}`"
        + (" (not in this repository's history)" if known is False else "")
        + f"; provenance: {origin.get('kind', 'sent')}" + (f", {ci}" if ci else ""),
        f"- blocks: {counted}", "",
        "`ruota-docs record check`:", "", "```text", report, "```", "",
    ])


def describe_record(root: Path, record: Path, docs_dir: Path) -> tuple[str, int]:
    """The pull request's body for a record made elsewhere (the records workflow), and the
    record check's exit status."""
    data = ledger.load(record)
    p = Plan(Path(root), Path(record).resolve(), "", machine_label(data.machine))
    report, status = check_record(p, docs_dir)
    return pull_request_body(p, report), status


def commands(p: Plan, body_file: Path, remote: str = "origin") -> list[list[str]]:
    """The commands that send the branch: push to the owner's fork, open the pull request (from the
    fork's branch, ``OWNER:branch``, as GitHub names a branch of another repository)."""
    title = f"Add record for {p.label}"
    owner = _github_owner(p.root, remote)
    head = f"{owner}:{p.branch}" if owner else p.branch
    return [["git", "-C", str(p.root), "push", remote, f"{p.branch}:{p.branch}"],
            ["gh", "pr", "create", "--head", head, "--title", title, "--body-file", str(body_file)]]


def _github_owner(root: Path, remote: str) -> str | None:
    """The owner of ``remote`` where it is a GitHub repository (``git@github.com:alice/ruota-docs.git``,
    ``https://github.com/alice/ruota-docs``)."""
    try:
        url = _git(root, "remote", "get-url", remote)
    except ContributeError:
        return None
    match = re.match(r"(?:https?://|ssh://)?(?:[^@/]+@)?github\.com[:/]([^/]+)/[^/]+?(?:\.git)?/?$", url)
    return match[1] if match else None


def gh_ready() -> bool:
    """``gh`` is installed and logged in (it then pushes and opens the pull request itself)."""
    if shutil.which("gh") is None:
        return False
    return subprocess.run(["gh", "auth", "status"], capture_output=True, text=True).returncode == 0


def contribute(root: Path, docs_dir: Path, device, ask=input, extra: list[str] = (), suite=run_suite,
               gh=gh_ready, out=print) -> int:
    """The whole path (see the module); ``ask(question)`` answers the questions (``input``)."""
    try:
        p = plan(root, device)
    except ContributeError as error:
        out(f"ruota-docs contribute: {error}")
        return 2
    if not _ready(p, device, gh, out):
        return 2
    out(describe(p))
    if ask("Go on? [y/N] ").strip().lower() not in ("y", "yes"):
        out("Nothing done.")
        return 1
    status = suite(p, list(extra))
    if status not in (0, 1):  # 1: some blocks failed, which the record says; anything else stopped the run
        out(_stopped(p, status))
        return status
    try:
        sends = _commit(p, docs_dir, out)
    except ContributeError as error:
        out(f"ruota-docs contribute: {error}")
        return 2
    return _send(sends, gh, ask, out) if sends else 1


def _ready(p: Plan, device, gh, out) -> bool:
    """What the path needs, checked before anything runs (`ruota_docs.run.preflight`); False where
    something is missing (said, with what to do)."""
    out("Before anything runs:")
    found = preflight.run(p.root, device, gh, _github_owner)
    for finding in found:
        out(str(finding))
    if preflight.blocking(found):
        out("Set up what is MISSING above, then run ruota-docs contribute again: nothing ran.")
        return False
    return True


def _stopped(p: Plan, status: int) -> str:
    """What to do after a run that stopped (exit status 2: interrupted, Ctrl-C)."""
    shown = p.record.relative_to(p.root)
    if status == 2 and p.record.is_file():
        return (f"The run was interrupted: {shown} keeps every block run so far. Run ruota-docs contribute again: "
                "it resumes (pages already run here with the same code are not run again).")
    return f"The suite stopped (exit status {status}); run ruota-docs contribute again: it resumes."


def _commit(p: Plan, docs_dir: Path, out) -> list[list[str]] | None:
    """Check the record, commit it on its branch, and say how to send it: the commands, or None
    where the check refused the record (said)."""
    report, refused = check_record(p, docs_dir)
    out(report)
    if refused:
        out("The record check refused the record: nothing was committed. Fix what it names and run this again.")
        return None
    body = pull_request_body(p, report)
    body_file = Path(_git(p.root, "rev-parse", "--absolute-git-dir")) / "ruota-docs-pull-request.md"
    body_file.write_text(body, encoding="utf-8")
    commit = prepare_branch(p, body)
    sends = commands(p, body_file)
    out(f"\nBranch {p.branch} (commit {commit[:12]}) holds only {p.record.relative_to(p.root)}.")
    out("To send it (origin: your fork of the repository; `gh repo fork --remote` makes one):")
    for command in sends:
        out("  " + shlex.join(command))
    return sends


def _send(sends: list[list[str]], gh, ask, out) -> int:
    """Where gh is logged in, push and open the pull request on a yes."""
    offer = "gh is logged in: push the branch and open the pull request now? [y/N] "
    if gh() and ask(offer).strip().lower() in ("y", "yes"):
        for command in sends:
            if subprocess.call(command) != 0:
                out(f"{shlex.join(command)} failed: the branch is still there; run the commands above again.")
                return 1
        return 0
    out("Nothing was pushed.")
    return 0
