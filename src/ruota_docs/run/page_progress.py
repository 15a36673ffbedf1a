"""Progress page by page, for a run that takes an owner's evening: ``-p ruota_docs.run.page_progress``.

``ruota-docs contribute`` loads it (`ruota_docs.run.contribute.run_suite`). It says:

- once collected, with ``--reuse-record`` and a record of this machine: how many pages already ran
  here with the same code (``resuming: 12 of 40 pages already run on this machine``), which the run
  keeps rather than running again (`ruota_docs.run.sybil.evaluators.reusable_page`);
- as each page starts: ``page 13 of 40: es/guides/x.md (12 min 5 s so far)``.

A run of one process only: xdist's workers would report their pages out of order, so under xdist
it says nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import pytest



def elapsed(seconds: float) -> str:
    """``12 min 5 s``, ``1 h 2 min``, ``8 s``."""
    whole = int(seconds)
    hours, minutes, secs = whole // 3600, whole % 3600 // 60, whole % 60
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"


@dataclass(eq=False)  # a plugin: pluggy keeps plugins in sets
class PageProgress:
    """The run's pages in run order, which node ids belong to which, and how far the run is."""

    terminal: Any  #: pytest's terminal reporter
    order: list[str] = field(default_factory=list)
    page_of: dict[str, str] = field(default_factory=dict)  #: node id → page (``es/guides/x.md``)
    started: float = field(default_factory=time.monotonic)
    current: str | None = None
    count: int = 0

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        from ruota_docs.run import pytest_plugin  # noqa: PLC0415 — the engine's plugin, loaded by then
        from ruota_docs.run.sybil.compat import example_of  # noqa: PLC0415 — Sybil, loaded by then

        documents = {}
        for item in session.items:
            block = pytest_plugin.block_of(item)
            if block is None:
                continue
            if block.page not in documents:
                self.order.append(block.page)
                documents[block.page] = example_of(item).document
            self.page_of[item.nodeid] = block.page
        state = pytest_plugin.run_state(session.config)
        if state.settings.reuse_record and state.recorded is not None and self.order:
            from ruota_docs.run.sybil.evaluators import reusable_page  # noqa: PLC0415

            # a page whose blocks all skip here is one too, once the record holds it
            recorded = {key.rpartition("#")[0] for key in state.recorded}
            done = sum(1 for page, document in documents.items() if page in recorded
                       and reusable_page(state.recorded, document, state.settings.network) is not False)
            self.terminal.write_line(f"resuming: {done} of {len(self.order)} pages already run on this machine "
                                     "with the same code (their results are kept, not run again)")

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        """Before each test's setup, outside pytest's capture: a line as a new page starts."""
        page = self.page_of.get(nodeid)
        if page is None or page == self.current:
            return
        self.current = page
        self.count += 1
        self.terminal.write_line(f"page {self.count} of {len(self.order)}: {page} "
                                 f"({elapsed(time.monotonic() - self.started)} so far)")


@pytest.hookimpl(trylast=True)  # after the terminal reporter is registered
def pytest_configure(config: pytest.Config) -> None:
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    if terminal is None or hasattr(config, "workerinput") or config.getoption("numprocesses", default=None):
        return  # no terminal, or xdist: pages run in several processes at once, out of order
    config.pluginmanager.register(PageProgress(terminal), "ruota-docs-page-progress")
