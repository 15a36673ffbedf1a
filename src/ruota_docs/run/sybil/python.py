"""The evaluators of Python blocks: plain Python with its ``#>`` lines, and doctests.

A Python block runs in the page's process and must print what its ``#>`` lines state
(:mod:`ruota_docs.run.outputs`). With ``--update-outputs`` a block whose output differs
passes, and the lines it needs are planned here and written by the pytest plugin when
the run ends (:mod:`ruota_docs.run.run_state`): nothing writes to a page while its
blocks run.
"""

from __future__ import annotations

import dataclasses
import hashlib

from ruota_docs.blocks.block import Block
from ruota_docs.records.reason_codes import reason
from ruota_docs.run.process.session import Outcome, PageSession
from ruota_docs.run.run_state import OutputUpdate, RunState
from ruota_docs.run.sybil.evaluators import ExecutingEvaluator


def _expected(block: Block) -> list:
    """The ``#>`` lines of a block's code (`ruota_docs.run.outputs`, read only where the code holds one:
    most blocks have none, and a run of one page that has none never imports it)."""
    if "#>" not in block.code and ("print(" not in block.code or ('"""' not in block.code
                                                                    and "'''" not in block.code)):
        return []
    from ruota_docs.run import outputs  # noqa: PLC0415

    return outputs.expected(block.code)


def _filename(block: Block) -> str:
    return block.where


def _script(block: Block, page_path: str) -> str:
    """The file a reader would run the block from: the included file it is written in, or the page."""
    first = next((origin for origin in block.code_origins if origin), None)
    return str(first[0]) if first and first[0] else str(page_path)


class PythonEvaluator(ExecutingEvaluator):
    """``python`` blocks: run in the page's namespace; their ``#>`` lines checked."""

    def execute(self, session: PageSession, block: Block, timeout: float, run: RunState, page_path: str) -> Outcome:
        expect = bool(_expected(block))
        return session.run_python(block.code, _filename(block), block.line, timeout, "python", expect=expect,
                                  script=_script(block, page_path))

    def checked(self, block: Block, outcome: Outcome, run: RunState) -> Outcome:
        """A block that ran must also print what its ``#>`` lines state."""
        expected = _expected(block)
        if not expected:
            return outcome
        from ruota_docs.run import outputs  # noqa: PLC0415 — see `_expected`
        printed = "".join(chunk[1] for chunk in outcome.printed or [])
        diff = outputs.mismatch(expected, printed)
        # as pytest-examples checks: only what print(…) called in the block's own code wrote
        by_print = "".join(chunk[1] for chunk in outcome.printed or [] if len(chunk) > 2 and chunk[2])
        if diff is None or outputs.mismatch(expected, by_print) is None or \
                outputs.under_each_print(expected, outcome.printed or [], block.code):
            return outcome
        if run.settings.update_outputs:
            return self._planned(block, expected, outcome, diff)
        line = outputs.first_difference(expected, printed)
        where = self._where(block, line.index) if line else block.where
        return Outcome("failed", outcome.output, outcome.duration, code=reason("output_differs", at=where),
                       error=diff, as_root=outcome.as_root)

    def _planned(self, block: Block, expected: list, outcome: Outcome, diff: str) -> Outcome:
        """``--update-outputs``: the block passes with the ``#>`` lines it printed, to be written at the run's end."""
        from ruota_docs.run import outputs  # noqa: PLC0415 — see `_expected`

        try:
            code, edits = outputs.edits(block.code_origins, block.code, outputs.plan(expected, outcome.printed or [],
                                                                                         block.code))
        except outputs.UpdateError as error:
            at = self._where(block, error.line - 1) if error.line else None
            return Outcome("failed", outcome.output, outcome.duration, error=diff, as_root=outcome.as_root,
                           code=reason("outputs_not_updated", at=at, error=str(error)))
        update = OutputUpdate(f"{block.page}#{block.index}", block.where, edits, diff, block.sha256)
        return dataclasses.replace(outcome, code=reason("outputs_updated"), update=update,
                                   sha256=hashlib.sha256(code.encode()).hexdigest())

    def _where(self, block: Block, index: int) -> str:
        """``file:line`` of line ``index`` of a block's code, as a reader finds it."""
        origin = block.code_origins[index] if index < len(block.code_origins) else None
        if origin is None:
            return block.where
        return f"{self.shown(origin[0])}:{origin[1]}"


class DoctestEvaluator(ExecutingEvaluator):
    """``pycon`` blocks (and Python blocks written as a session, ``>>>``): doctest in the page's namespace."""

    def execute(self, session: PageSession, block: Block, timeout: float, run: RunState, page_path: str) -> Outcome:
        return session.run_python(block.code, _filename(block), block.line, timeout, "doctest",
                                  script=_script(block, page_path))
