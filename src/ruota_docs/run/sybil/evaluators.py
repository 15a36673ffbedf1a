"""Evaluating blocks: requirements, reuse across languages, and the page's process.

Every evaluation leaves an :class:`~ruota_docs.run.process.session.Outcome` on the
block (``example.parsed.outcome``); the pytest plugin turns those into the
verification record.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tomllib
import unittest
from pathlib import Path

import pytest
import yaml
from sybil.example import SybilFailure

from ruota_docs.blocks import terms
from ruota_docs.run import conditions, outputs
from ruota_docs.blocks.block import Block
from ruota_docs.run.device import os_name, probe
from ruota_docs.blocks.site_config import TagTolerantLoader
from ruota_docs.run.guard import RepositoryGuard, records_note, repository_note
from ruota_docs.run.hints import requirement_hint
from ruota_docs.run.sybil.parsers import PageProblem
from ruota_docs.run.process.session import DEFAULT_TIMEOUT, Outcome, PageSession

_SESSION = "__ruota_session__"
_GUARD = "__ruota_guard__"
_RECORDED = "__ruota_recorded__"
#: Outcomes of executed blocks, keyed by (page signature, block index): a translation whose
#: block sequence is identical to an already-run page is credited with that run.
_EXECUTED: dict[tuple[str, int], tuple[str, Outcome]] = {}


#: Why blocks that are only shown are not run (recorded as their skip reason).
SHOWN_ONLY_REASONS = {
    "text": "output or prose, not code",
    "indented": "an indented code block has no language; readers see it as text",
}


def default_timeout() -> float:
    return float(os.environ.get("RUOTA_DOCS_TIMEOUT", DEFAULT_TIMEOUT))


def reuse_enabled() -> bool:
    return os.environ.get("RUOTA_DOCS_REUSE", "1") not in ("0", "false", "no") and not update_outputs()


def update_outputs() -> bool:
    """``pytest --update-outputs``: rewrite ``#>`` lines from this machine's output."""
    return os.environ.get("RUOTA_DOCS_UPDATE_OUTPUTS", "") not in ("", "0", "false", "no")


class BlockEvaluator:
    """The Sybil evaluator for every :class:`~ruota_docs.run.sybil.parsers.Block`.

    With a ``root`` (the repository), a block that writes into it fails, naming the
    files (see :mod:`ruota_docs.run.guard`).
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = root

    def __call__(self, example) -> None:
        block: Block = example.parsed
        if isinstance(block, PageProblem):
            raise SybilFailure(example, block.error)
        outcome = self._outcome(example, block)
        block.outcome = outcome
        if outcome.status == "skipped":
            raise unittest.SkipTest(outcome.reason)
        if outcome.status == "failed":
            raise SybilFailure(example, _failure_text(block, outcome))

    def _outcome(self, example, block: Block) -> Outcome:
        if block.error:
            return Outcome("failed", reason=block.error.split(": ", 1)[-1], error=block.error)
        if block.not_run_reason is not None:
            return Outcome("skipped", reason=f"not run: {block.not_run_reason}")
        if block.shown_only:
            return Outcome("skipped", reason=f"not run: {SHOWN_ONLY_REASONS[block.kind]}")
        if block.kind == "windows" and os_name() != "windows":
            return Outcome("skipped", reason=f"requires Windows; this machine: {terms.OS_LABELS.get(os_name(), os_name())}")
        # the machine is described only for a block that asks something of it
        unmet = conditions.unmet_reason(block.requirements, probe()) if block.requirements else None
        if unmet:
            return Outcome("skipped", reason=unmet)
        if block.kind == "data":
            return _check_data(block)
        recorded = _recorded(example, block)
        if recorded is not None:
            return recorded
        key = (block.signature, block.index)
        if reuse_enabled() and key in _EXECUTED:
            page, earlier = _EXECUTED[key]
            if page != block.page:
                return _credited(earlier, page)
        session = example.namespace.get(_SESSION)
        if session is None:
            session = example.namespace[_SESSION] = PageSession(block.page)
            if self.root is not None:
                example.namespace[_GUARD] = RepositoryGuard(self.root, skip_paths=(session.workdir, session.log_path))
        timeout = float(block.options.get("timeout", default_timeout()))
        expected = outputs.expected(block.code) if block.kind == "python" else []
        if block.kind == "shell" or block.kind == "windows":
            outcome = session.run_shell(_shell_script(block), timeout)
        else:
            outcome = session.run_python(block.code, _filename(block), block.line, timeout, block.kind,
                                         expect=bool(expected), script=_script(block, example.path))
        guard = example.namespace.get(_GUARD)
        written = guard.changes() if guard is not None else []
        bent, notes = guard.records.check() if guard is not None else ([], [])
        if written or bent:
            note = "; ".join(([repository_note(written)] if written else []) + ([records_note(bent, notes)] if bent else []))
            reason = note if outcome.status != "failed" else f"{outcome.reason}; it also {note}"
            outcome = dataclasses.replace(outcome, status="failed", reason=reason,
                                          error="\n".join(x for x in (outcome.error, note) if x))
        elif expected and outcome.status == "passed":
            outcome = self._check_output(block, expected, outcome)
            if guard is not None:
                guard.changes()  # --update-outputs rewrote #> lines: the engine's own writes
        _EXECUTED[key] = (block.page, outcome)
        return outcome


    def _check_output(self, block: Block, expected: list, outcome: Outcome) -> Outcome:
        """A block that ran must also print what its ``#>`` lines state."""
        printed = "".join(text for _, text in outcome.printed or [])
        diff = outputs.mismatch(expected, printed)
        if diff is None:
            return outcome
        if update_outputs():
            try:
                code, changes = outputs.rewrite(block.code_origins, block.code, outputs.plan(expected, outcome.printed or []))
            except (outputs.UpdateError, OSError) as error:
                line = getattr(error, "line", None)
                at = f"{self._where(block, line - 1)}: " if line else ""
                return Outcome("failed", outcome.output, outcome.duration, reason=f"its #> lines cannot be updated: {at}{error}",
                               error=diff, as_root=outcome.as_root)
            outcome.reason = "#> lines updated from this run"
            outcome.updated = [self._shown(c.path) + str(c)[len(c.path):] for c in changes]
            outcome.sha256 = hashlib.sha256(code.encode()).hexdigest()
            return outcome
        line = outputs.first_difference(expected, printed)
        where = self._where(block, line.index) if line else f"{block.page}:{block.line}"
        return Outcome("failed", outcome.output, outcome.duration,
                       reason=f"its output differs from its #> lines (first at {where}; pytest --update-outputs rewrites them)",
                       error=diff, as_root=outcome.as_root)

    def _where(self, block: Block, index: int) -> str:
        """``file:line`` of line ``index`` of a block's code, as a reader finds it."""
        origin = block.code_origins[index] if index < len(block.code_origins) else None
        if origin is None:
            return f"{block.page}:{block.line}"
        return f"{self._shown(origin[0])}:{origin[1]}"

    def _shown(self, path: str) -> str:
        if self.root is None:
            return path
        try:
            return Path(path).resolve().relative_to(Path(self.root).resolve()).as_posix()
        except ValueError:
            return path


def _executes(block: Block) -> bool:
    """Whether evaluating the block starts code (rather than skipping or parsing it)."""
    if block.error or block.not_run_reason is not None or block.kind == "data" or block.shown_only:
        return False
    if block.kind == "windows" and os_name() != "windows":
        return False
    return not block.requirements or conditions.unmet_reason(block.requirements, probe()) is None


def _recorded(example, block: Block) -> Outcome | None:
    """With ``--reuse-ledger``: this machine's recorded outcome, where the whole page is unchanged.

    A page is reused only if every block it would execute passed here last time with the
    same code and the same page signature (blocks share one process, so it is all or
    nothing); otherwise the page runs.
    """
    path = os.environ.get("RUOTA_DOCS_REUSE_LEDGER")
    if not path:
        return None
    page = example.namespace.get(_RECORDED)
    if page is None:
        page = example.namespace[_RECORDED] = _reusable_page(Path(path), example.document)
    entry = page.get(block.index) if page else None
    if entry is None:
        return None
    outcome = Outcome("passed", entry.get("output") or "", entry.get("duration") or 0.0, as_root=entry.get("as_root"))
    outcome.reused_from = entry.get("reused_from") or block.page
    outcome.ran_at = entry.get("ran_at")
    return outcome


def _reusable_page(path: Path, document) -> dict | bool:
    from ruota_docs.records import ledger  # noqa: PLC0415 — only needed with --reuse-ledger

    try:
        recorded = ledger.load(path)["blocks"]
    except (OSError, ledger.LedgerError):
        return False
    reusable = {}
    for _, region in document.regions:
        block = region.parsed
        if not isinstance(block, Block) or not _executes(block):
            continue
        entry = recorded.get(ledger.block_key(block.page, block.index))
        if not entry or entry.get("outcome") != "passed" or entry.get("sha256") != block.sha256 \
                or entry.get("signature") != block.signature:
            return False
        reusable[block.index] = entry
    return reusable


def _credited(earlier: Outcome, page: str) -> Outcome:
    """The outcome of the identical block of ``page``, credited to a translation."""
    credited = dataclasses.replace(earlier)  # every field, as_root included
    credited.reused_from = page
    return credited


def _filename(block: Block) -> str:
    return f"{block.page}:{block.line}"


def _script(block: Block, page_path: str) -> str:
    """The file a reader would run the block from: the included file it is written in, or the page."""
    first = next((origin for origin in block.code_origins if origin), None)
    return str(first[0]) if first and first[0] else str(page_path)


def _shell_script(block: Block) -> str:
    """``console`` blocks show prompts: only the lines after ``$ `` are commands."""
    if block.language.lower() not in ("console", "shell-session"):
        return block.code
    return "\n".join(line[2:] for line in block.code.splitlines() if line.startswith("$ "))


def _check_data(block: Block) -> Outcome:
    """Parse a data block. YAML may use tags (MkDocs' ``!ENV``, ``!relative``,
    ``!!python/name:``): an excerpt of a mkdocs.yml is valid YAML."""
    what = block.data_format or block.language
    try:
        if what == "json":
            json.loads(block.code)
        elif what == "toml":
            tomllib.loads(block.code)
        else:
            list(yaml.load_all(block.code, Loader=TagTolerantLoader))  # noqa: S506 — builds no objects
    except Exception as error:  # noqa: BLE001 — every parser error is the block's failure
        return Outcome("failed", reason=f"invalid {what}: {error}".splitlines()[0], error=str(error))
    return Outcome("passed", reason=f"valid {what}")


def _failure_text(block: Block, outcome: Outcome) -> str:
    if block.error:
        return block.error
    parts = [f"{block.page}:{block.line}: {outcome.reason or 'failed'}"]
    if outcome.error and outcome.error.strip() != (outcome.reason or "").strip():
        parts.append(outcome.error.rstrip())
    if outcome.output.strip():
        parts.append("--- output ---\n" + outcome.output[-4000:].rstrip())
    if hint := requirement_hint(outcome.error):
        parts.append(hint)
    return "\n".join(parts)


def teardown_page(namespace: dict) -> None:
    """Sybil's teardown: end the page's process and remove its working directory."""
    session = namespace.pop(_SESSION, None)
    if session is not None:
        session.close()
    guard = namespace.pop(_GUARD, None)
    if guard is not None:  # a process the page left running may have changed a record until killed
        bent, notes = guard.records.check()
        if bent:
            # the page's blocks are reported already: this fails its teardown, and so the run
            pytest.fail(f"{session.page if session else 'the page'}: a process it started {records_note(bent, notes)}",
                        pytrace=False)
