"""Evaluating blocks: what every kind shares, and the page's process.

One evaluator per block kind, as Sybil has one per language: :mod:`.python` (Python
blocks with their ``#>`` lines, and doctests), :mod:`.shell` (shell and Windows blocks)
and :mod:`.data` (JSON, TOML, YAML); :func:`ruota_docs.run.sybil.make_sybil` gives each
block the evaluator of its kind. This module holds what they share:

- :class:`BlockEvaluator` — the checks every block goes through before its kind's own
  work (a block that cannot be read, one the author does not run, one only shown,
  requirements this machine does not meet), and the outcome handed to the run's state
  (:meth:`~ruota_docs.run.run_state.RunState.decided`) that the pytest plugin turns into the record;
- :class:`ExecutingEvaluator` — for kinds whose code runs in the page's process: the
  record reused with ``--reuse-record``, translations credited with the identical run
  of their source, the page's session (its sandbox gets the network where a block of the
  page ``requires: network`` and the run allows it, and the variables its blocks name with
  ``run: env=``), and the repository guard where the sandbox cannot run (in it, the
  repository is read-only). A fault of the machine ends the run (`MachineFault`).

The run's state (:class:`~ruota_docs.run.run_state.RunState`: settings, and the record
read at its start) comes from the pytest plugin's ``ruota_run`` fixture.
"""

from __future__ import annotations

import dataclasses
import re
import unittest
from pathlib import Path

import pytest

from ruota_docs.blocks.block import Block
from ruota_docs.records.reason_codes import Reason, reason
from ruota_docs.records.schema import Result
from ruota_docs.run import page_ahead, sandbox
from ruota_docs.run.guard import RepositoryGuard, records_note
from ruota_docs.run.process.session import MachineFault, Outcome, PageSession, session_for
from ruota_docs.run.run_state import RunState
from ruota_docs.run.settings import from_environment
from ruota_docs.run.sybil.parsers import PageProblem

_SESSION = "__ruota_session__"
_GUARD = "__ruota_guard__"
_RECORDED = "__ruota_recorded__"
#: The name of the pytest fixture (and so of the document's namespace entry) holding the run's state.
RUN_FIXTURE = "ruota_run"


def run_of(example, root: Path | None = None) -> RunState:
    """The run's state, which the pytest plugin's fixture put in the document's namespace
    (the environment's where the page is evaluated without the plugin)."""
    found = example.namespace.get(RUN_FIXTURE)
    if not isinstance(found, RunState):  # one for the page, as the fixture gives one for the run
        found = example.namespace[RUN_FIXTURE] = RunState(from_environment(root))
    return found


class BlockEvaluator:
    """A Sybil evaluator for blocks: the checks every kind shares, then :meth:`evaluate`.

    Also the evaluator of kinds that never run (``text``, ``indented``, ``invalid``): the
    shared checks always decide for those. With a ``root`` (the repository), a block that
    writes into it fails, naming the files (see :mod:`ruota_docs.run.guard`).
    """

    #: Whether a block of this kind starts code in the page's process.
    executes = False

    def __init__(self, root: Path | None = None) -> None:
        self.root = root

    def __call__(self, example) -> str | None:
        """Sybil's evaluator contract: None where the block passed, the failure's text where it failed
        (Sybil raises its failure with it); a skip raises `unittest.SkipTest`."""
        block: Block = example.parsed
        if isinstance(block, PageProblem):
            return block.error
        run = run_of(example, self.root)
        outcome = self.outcome(example, block, run)
        run.decide(block.page, block.index, outcome)
        if outcome.status == "skipped":
            raise unittest.SkipTest(outcome.reason)
        return _failure_text(block, outcome) if outcome.status == "failed" else None

    def outcome(self, example, block: Block, run: RunState) -> Outcome:
        if block.error:
            return Outcome("failed", code=reason("problem", message=block.error.split(": ", 1)[-1]), error=block.error)
        if block.generated_by is not None:  # made by an extension from elsewhere: not the page's code
            return Outcome("skipped", code=reason("generated", by=block.generated_by, source=block.generated_from))
        if block.not_run_reason is not None:
            return Outcome("skipped", code=reason("not_run", why=block.not_run_reason))
        if block.shown_only:
            return Outcome("skipped", code=reason("shown_only", kind=block.kind))
        unmet = self.unmet(block, run.settings.network)
        if unmet:
            return Outcome("skipped", code=unmet)
        return self.evaluate(example, block, run)

    def unmet(self, block: Block, network: bool) -> Reason | None:
        """Why this machine cannot run the block; the machine is described only for a block
        that asks something of it."""
        if not block.requirements:
            return None
        from ruota_docs.run import conditions  # noqa: PLC0415 — the machine and ROCm's toolchain, where asked
        from ruota_docs.run.device import probe  # noqa: PLC0415

        return conditions.unmet(block.requirements, probe(), network)

    def would_execute(self, block: Block, network: bool) -> bool:
        """Whether evaluating ``block`` here starts code (rather than skipping or parsing it)."""
        if not self.executes or block.error or block.not_run_reason is not None or block.shown_only:
            return False
        return self.unmet(block, network) is None

    def evaluate(self, example, block: Block, run: RunState) -> Outcome:
        """The kind's own work, once the shared checks let the block through."""
        raise NotImplementedError(f"{block.where}: no evaluator for a {block.kind} block")

    def shown(self, path: str) -> str:
        """``path`` relative to the repository, as a reader finds it."""
        if self.root is None:
            return path
        try:
            return Path(path).resolve().relative_to(Path(self.root).resolve()).as_posix()
        except ValueError:
            return path


class ExecutingEvaluator(BlockEvaluator):
    """Kinds whose code runs in the page's process; :meth:`execute` runs one block there."""

    executes = True

    def execute(self, session: PageSession, block: Block, timeout: float, run: RunState, page_path: str) -> Outcome:
        """Run the block in the page's process (``page_path``: the page's file)."""
        raise NotImplementedError

    def checked(self, block: Block, outcome: Outcome, run: RunState) -> Outcome:
        """What the kind checks once the block ran without touching the repository."""
        return outcome

    def evaluate(self, example, block: Block, run: RunState) -> Outcome:
        recorded = _recorded(example, block, run, self)
        if recorded is not None:
            return recorded
        settings = run.settings
        key = (block.signature, block.index)
        if settings.reuse_translations and key in run.executed:
            page, earlier = run.executed[key]
            if page != block.page:
                return _credited(earlier, page)
        try:
            timeout = float(block.options.get("timeout", settings.timeout))
            if runs_alone(block, settings):
                outcome = self._isolated(example, block, run, timeout)
            else:
                outcome = self.execute(self._session(example, block, run), block, timeout, run, example.path)
        except MachineFault as fault:
            run.fault = str(fault)
            pytest.exit(f"ruota-docs: {fault}. The run stopped there: the block at {block.page}:{block.line} is "
                        "not recorded; the blocks before it are.", returncode=pytest.ExitCode.INTERNAL_ERROR)
        guard = example.namespace.get(_GUARD)
        written = guard.changes() if guard is not None else []
        bent, notes = guard.records.check() if guard is not None else ([], [])
        if written or bent:
            also = outcome.code.to_record() if outcome.status == "failed" and outcome.code else None
            changed = reason("repository_changed", files=list(written), records=list(bent), notes=list(notes),
                             also=also)
            note = dataclasses.replace(changed, args={**changed.args, "also": None}).english()
            outcome = dataclasses.replace(outcome, status="failed", code=changed,
                                          error="\n".join(x for x in (outcome.error, note) if x))
        elif outcome.status == "passed":
            outcome = self.checked(block, outcome, run)
        run.executed[key] = (block.page, outcome)
        return outcome


    def _isolated(self, example, block: Block, run: RunState, timeout: float) -> Outcome:
        """The block run in a fresh process of its own, ended with it (``run: isolate``, or the
        plugin's ``isolation: block``): nothing the page's other blocks defined is there."""
        network, names = page_needs(example.document, run.settings.network)
        session = PageSession(block.page, settings=run.settings, network=network, names=names)
        session.progress = run.progress
        if self.root is not None and session.isolation != sandbox.SANDBOX and _GUARD not in example.namespace:
            example.namespace[_GUARD] = RepositoryGuard(self.root, skip_paths=(session.workdir, session.log_path))
        try:
            return self.execute(session, block, timeout, run, example.path)
        finally:
            session.close()

    def _session(self, example, block: Block, run: RunState) -> PageSession:
        """The page's session, started at its first executed block."""
        session = example.namespace.get(_SESSION)
        if session is None:
            network, names = page_needs(example.document, run.settings.network)
            session = example.namespace[_SESSION] = session_for(block.page, run.settings, network, names)
            page_ahead.start_next(run, block.page)  # the next page's process starts while this one runs
            session.progress = run.progress
            if self.root is not None and session.isolation != sandbox.SANDBOX:
                example.namespace[_GUARD] = RepositoryGuard(self.root, skip_paths=(session.workdir, session.log_path))
        return session


def runs_alone(block: Block, settings) -> bool:
    """Whether the block runs in a fresh process of its own rather than in its page's."""
    return bool(block.options.get("isolate") or (settings.block_isolation and not block.options.get("group"))
                or (settings.variant_isolation and block.variant))


def page_needs(document, network_allowed: bool) -> tuple[bool, tuple[str, ...]]:
    """What a page's blocks ask of its sandbox: the network (a block that ``requires: network``,
    in a run that allows it) and the variables of the invoking environment they name (``run: env=``)."""
    network, names = False, set()
    for example in document.examples():
        block = example.parsed
        if not isinstance(block, Block):
            continue
        network = network or (network_allowed and any(r.name == "network" for r in block.requirements))
        names.update(n for n in str(block.options.get("env") or "").split(",") if n)
    return network, tuple(sorted(names))


def _recorded(example, block: Block, run: RunState, evaluator: BlockEvaluator) -> Outcome | None:
    """With ``--reuse-record``: this machine's recorded outcome, where the whole page is unchanged.

    A page is reused only if every block it would execute passed here last time with the
    same code and the same page signature (blocks share one process, so it is all or
    nothing); otherwise the page runs. The record was read once, when the run started.
    """
    if not run.settings.reuse_record:
        return None
    page = example.namespace.get(_RECORDED)
    if page is None:
        page = example.namespace[_RECORDED] = reusable_page(run.recorded, example.document, run.settings.network)
    entry = page.get(block.index) if page else None
    if entry is None:
        return None
    # a result this page ran itself stays its own: only a translation's run is a credit
    return Outcome("passed", entry.output or "", entry.duration or 0.0, as_root=entry.as_root,
                   isolation=entry.isolation, reused_from=entry.reused_from, ran_at=entry.ran_at)


def reusable_page(recorded: dict[str, Result] | None, document, network: bool) -> dict[int, Result] | bool:
    """The recorded results of ``document``'s blocks, by index, where every block it would execute
    passed here with its code and its page as they are now; False where the page must run."""
    if not recorded:
        return False
    reusable = {}
    for example in document.examples():
        block = example.parsed
        evaluator = example.region.evaluator
        if not isinstance(block, Block) or not isinstance(evaluator, BlockEvaluator) \
                or not evaluator.would_execute(block, network):
            continue
        entry = recorded.get(f"{block.page}#{block.index}")
        if not entry or entry.outcome != "passed" or entry.sha256 != block.sha256 \
                or entry.signature != block.signature:
            return False
        reusable[block.index] = entry
    return reusable


def _credited(earlier: Outcome, page: str) -> Outcome:
    """The outcome of the identical block of ``page``, credited to a translation."""
    return dataclasses.replace(earlier, reused_from=page)  # every field, as_root included


#: Characters a block's text may not send to the terminal as they are: C0 controls but newline and
#: tab (ESC starts the sequences that retitle, clear or reprogram a terminal), DEL, C1 controls.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """``text`` with its control characters written out (``\\x1b``): what a block printed or
    raised reaches the user's terminal as text, never as a command to it."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _failure_text(block: Block, outcome: Outcome) -> str:
    return visible(_failure_parts(block, outcome))


def _failure_parts(block: Block, outcome: Outcome) -> str:
    if block.error:
        return block.error
    parts = [f"{block.where}: {outcome.reason or 'failed'}"]
    if outcome.error and outcome.error.strip() != (outcome.reason or "").strip():
        parts.append(outcome.error.rstrip())
    if outcome.output.strip():
        parts.append("--- output ---\n" + outcome.output[-4000:].rstrip())
    from ruota_docs.run.hints import requirement_hint  # noqa: PLC0415 — a failure's text only

    if hint := requirement_hint(outcome.error):
        parts.append(hint)
    if outcome.code is not None and outcome.code.code == "timeout":
        parts.append("a block that needs longer says so above it, <!-- run: timeout=SECONDS -->; "
                     "--block-timeout S changes the default for the run")
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
