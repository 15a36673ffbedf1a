"""What a run reads at its start and applies at its end, kept out of the evaluators.

The evaluators decide about one block at a time; reading the record and writing pages
belong to the run's boundaries, in the pytest plugin:

- at session start, with ``--reuse-record``, this machine's record is read once
  (:meth:`RunState.read_record`); the evaluators look pages up in it;
- during the run, with ``--update-outputs``, the evaluators only plan the ``#>`` lines a
  block needs (:class:`OutputUpdate`); the plugin gathers the plans (from xdist workers
  too) and applies them once, at session end, before the record is written
  (:func:`apply_updates`): a plan that cannot be applied fails its block there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ruota_docs.records.schema import Result
from ruota_docs.run.settings import Settings

if TYPE_CHECKING:  # imported where the lines are written (`apply_updates`): most runs write none
    from ruota_docs.run import outputs
    from ruota_docs.run.process.session import Outcome


@dataclass(frozen=True)
class OutputUpdate:
    """The ``#>`` lines one block's run rewrites: per file, ``(first line, old lines, new lines)``."""

    block: str  #: the block's record key, ``es/p.md#0``
    where: str  #: ``es/p.md:3``, as the summary names the block
    edits: dict[str, list[tuple[int, list[str], list[str]]]]
    diff: str = ""  #: how the output differed from the #> lines (the block's error, should the update fail)
    sha256: str = ""  #: the hash of the block's code as it is (the record's, should the update fail)

    def to_json(self) -> dict:
        return {"block": self.block, "where": self.where, "edits": self.edits, "diff": self.diff, "sha256": self.sha256}

    @classmethod
    def from_json(cls, data: dict) -> OutputUpdate:
        edits = {path: [(first, list(old), list(new)) for first, old, new in items]
                 for path, items in data["edits"].items()}
        return cls(data["block"], data["where"], edits, data.get("diff", ""), data.get("sha256", ""))


@dataclass
class RunState:
    """One process's view of the run: its settings, and the record read at its start."""

    settings: Settings
    #: This machine's recorded results as the run found them (``--reuse-record``), by ``page#index``;
    #: None: not read, or unreadable.
    recorded: dict[str, Result] | None = None
    #: What the evaluators decided for each block (``page#index``), until the plugin records it.
    decided: dict[str, Outcome] = field(default_factory=dict)
    #: The outcome of each block executed in this run, by (page signature, block index), with its page:
    #: a translation whose blocks are identical to a page already run is credited with that run.
    executed: dict[tuple[str, int], tuple[str, Outcome]] = field(default_factory=dict)
    #: Shows the live line of a block that runs long: ``progress(where, elapsed, done)``; None: nothing shown.
    progress: Callable[[str, float, bool], None] | None = None
    #: The fault of the machine that stopped the run (no space left, …), as the run reports it.
    fault: str | None = None
    #: ``(page, its test items)`` in the order the run runs them (`ruota_docs.run.page_ahead`); empty where unknown.
    pages: list = field(default_factory=list)

    def read_record(self, machine_id: str) -> None:
        """Read this machine's record once (``--reuse-record``); a record that cannot be read reuses nothing."""
        from ruota_docs.records import ledger  # noqa: PLC0415 — only needed with --reuse-record

        try:
            record = ledger.load(self.settings.record_path(machine_id))
            self.recorded = {key: result for key, (_, result) in record.by_key().items()}
        except (OSError, ledger.RecordError):
            self.recorded = None

    def decide(self, page: str, index: int, outcome: Outcome) -> None:
        """The evaluators' outcome for block ``index`` of ``page``."""
        self.decided[f"{page}#{index}"] = outcome

    def take(self, page: str, index: int) -> Outcome | None:
        """The outcome decided for a block, once (None: the engine decided nothing; it failed on the block)."""
        return self.decided.pop(f"{page}#{index}", None)


@dataclass(frozen=True)
class Applied:
    """What applying one block's update did: the changes made, or why none could be."""

    update: OutputUpdate
    changes: list[outputs.Change]
    error: str | None = None


def apply_updates(updates: list[OutputUpdate], shown) -> list[Applied]:
    """Apply the blocks' updates in run order; an update identical to one applied already (the
    same snippet included by a page's translations) is credited with it. ``shown(path)``: the
    path as the summary writes it."""
    from ruota_docs.run import outputs  # noqa: PLC0415 — an update's run only

    done: dict[str, Applied] = {}
    results = []
    for update in updates:
        key = repr(sorted(update.edits.items()))
        if key in done:
            results.append(Applied(update, [], done[key].error))
            continue
        changes: list[outputs.Change] = []
        error = None
        for path, edits in update.edits.items():
            try:
                changes.extend(outputs.edit_file(Path(path), edits))
            except (outputs.UpdateError, OSError) as problem:
                error = str(problem).replace(str(path), shown(path), 1)
                break
        done[key] = applied = Applied(update, changes, error)
        results.append(applied)
    return results
