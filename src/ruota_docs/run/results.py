"""A block's outcome as the record's `ruota_docs.records.schema.Result`: where the run hands over.

The evaluators decide an `ruota_docs.run.process.session.Outcome` for each block (what the
run needs of it: the lines it printed, the ``#>`` update it plans); the pytest plugin turns
it into the record's typed result here, with the block's identity (`block_ref`) and the evidence
tier it reached (`ruota_docs.blocks.tiers`).
"""

from __future__ import annotations

from pathlib import PurePath

from ruota_docs.blocks import tiers
from ruota_docs.blocks.block import Block
from ruota_docs.records import reason_codes
from ruota_docs.records.schema import BlockRef, Result, now
from ruota_docs.run.process.session import Outcome


def block_ref(block: Block) -> BlockRef:
    """Which block of which page's copy ``block`` is, and where its fence is written: on the page, or at
    its own line in the Markdown file an include brought it from."""
    found = block.written_in
    if found and not PurePath(found[0]).is_absolute():  # a file outside the project is not named in a record
        return BlockRef(block.page, block.lang, block.index, found[1], found[0])
    return BlockRef(block.page, block.lang, block.index, block.line)


def result_of(block: Block, outcome: Outcome | None, problem: str | None, duration: float) -> Result:
    """The record's result for ``block``: its ``outcome``; None where the engine itself failed on the
    block (``problem``: what it raised; ``duration``: how long the attempt took)."""
    if outcome is None:
        code = reason_codes.reason("problem", message=problem) if problem is not None else None
        return Result(fence_language=block.fence_language, sha256=block.sha256, block_id=block.block_id,
                      outcome="error", reason=code.english() if code else None,
                      reason_code=code.to_record() if code else None, duration=round(duration, 4), ran_at=now(),
                      signature=block.signature)
    code = outcome.code
    return Result(fence_language=block.fence_language, sha256=outcome.sha256 or block.sha256, block_id=block.block_id,
                  outcome=outcome.status, reason=code.english() if code else outcome.reason,
                  reason_code=code.to_record() if code else None, error=outcome.error,
                  duration=round(outcome.duration, 4), output=outcome.output, ran_at=outcome.ran_at or now(),
                  reused_from=outcome.reused_from, signature=block.signature, as_root=outcome.as_root,
                  isolation=outcome.isolation,
                  tier=tiers.derive(block.evidence, block.requirements, outcome.status))
