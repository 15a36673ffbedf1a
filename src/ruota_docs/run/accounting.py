"""Every block collected is run exactly once, or the run says so.

pytest-xdist sends each worker the node ids to run; a scheduler that drops some, or a
collection whose ids collide, would otherwise leave blocks silently unrun while the
record kept their old results. The controller learns what was collected (from its own
session, or from each worker's ``workeroutput``) and counts the reports of each test:
a block that was collected and never reported, or reported twice, fails the run, and
its earlier result is not kept in the record.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

@dataclass
class Accounting:
    """What this run collected and what it reported, by node id."""

    collected: dict[str, tuple[str, int] | None] = field(default_factory=dict)  #: node id → (page, index)
    reported: Counter = field(default_factory=Counter)
    known: bool = False  #: whether the collection is known (xdist: once a worker has finished)

    def collect(self, items: list[tuple[str, tuple[str, int] | None]]) -> None:
        """Add one collection: ``(node id, (page, block index) or None for a page problem)``."""
        self.known = True
        for nodeid, key in items:
            self.collected[nodeid] = tuple(key) if key is not None else None

    def report(self, report) -> None:
        """Count a test's report: its call, or a setup that failed or skipped (no call follows)."""
        # counted whatever the test: under xdist the collection is known only at the end
        if report.when == "call" or (report.when == "setup" and not report.passed):
            self.reported[report.nodeid] += 1

    def missing(self) -> list[str]:
        return [nodeid for nodeid in self.collected if not self.reported[nodeid]]

    def duplicated(self) -> list[str]:
        return [nodeid for nodeid, count in self.reported.items() if count > 1]

    def unrun_blocks(self) -> set[tuple[str, int]]:
        """``(page, index)`` of each block collected this run that has no result."""
        return {key for nodeid in self.missing() if (key := self.collected[nodeid]) is not None}

    def problems(self, stopped_early: bool) -> list[str]:
        """What went wrong, one line each; a run stopped early (``-x``, an interrupt) may leave
        blocks unrun, and says so in one line instead of failing on them."""
        lines = []
        missing, duplicated = self.missing(), self.duplicated()
        if missing and not stopped_early:
            lines.append(f"{len(missing)} collected test(s) never ran: " + ", ".join(_shown(missing)))
        if duplicated:
            lines.append(f"{len(duplicated)} test(s) ran more than once: " + ", ".join(_shown(duplicated)))
        return lines


def _shown(nodeids: list[str], limit: int = 10) -> list[str]:
    shown = sorted(nodeids)[:limit]
    return shown + ([f"… and {len(nodeids) - limit} more"] if len(nodeids) > limit else [])
