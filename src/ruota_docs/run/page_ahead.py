"""The next page's process, started while the page before it runs.

Each page runs in a fresh process of its own (`ruota_docs.run.process.session`): an interpreter,
the engine's worker, the site's ``setup`` file (pydantic's imports time-machine, which imports
pytest), all before the page's first block. On a site of many short pages that start is most of
the run, and the run waits for it page after page while the machine's other core is idle. Here,
when a page's process starts, the process of the next page that will run code is started too,
with that page's own sandbox (its network and variables), its own folder and its own settings, as
`ruota_docs.run.process.session.session_for` would start it: when that page comes, it finds its
process ready. The process is the page's own, fresh, used for that page only; one that no block
claims (the page was deselected or stopped) is ended, unused.

What differs from starting it at the page's first block is only when: the next page's interpreter,
worker and ``setup`` file run while the page before it runs its blocks, in another sandbox. A
``setup`` file that takes something only one process may hold at a time (a GPU's memory, a port)
then holds it beside the page before: such a site turns the trick off.

The order of the pages is the run's (after ``-k`` and the plugin's own ordering); an xdist worker
does not know which page comes next to it, and a run of one block per process
(``isolation: block``) has no page process to start: neither starts one ahead.

A speed trick (`ruota_docs.blocks.speedups`, ``page_ahead``): ``RUOTA_DOCS_NO_SPEEDUPS=page_ahead``
starts each page's process at its first block.
"""

from __future__ import annotations

from typing import Any

from ruota_docs.blocks import speedups


def pages_in_order(items: list[Any], block_of) -> list[tuple[str, list[Any]]]:
    """``(page, its test items)`` in the run's order (``block_of``: the block of an item, None for others)."""
    pages: list[tuple[str, list[Any]]] = []
    for item in items:
        block = block_of(item)
        if block is None:
            continue
        if not pages or pages[-1][0] != block.page:
            pages.append((block.page, []))
        pages[-1][1].append(item)
    return pages


def start_next(run, page: str) -> None:
    """Start the process of the first page after ``page`` that will start code in its own process: not
    one whose blocks all skip, nor a translation the run credits with its source's run (the same
    blocks as a page before it, with ``reuse_translations``)."""
    if not speedups.on("page_ahead") or not run.pages:
        return
    from ruota_docs.run.process.session import MachineFault, start_ahead  # noqa: PLC0415
    from ruota_docs.run.sybil.evaluators import page_needs, runs_alone  # noqa: PLC0415

    settings = run.settings
    at = next((n for n, (name, _) in enumerate(run.pages) if name == page), None)
    if at is None:
        return
    seen = {run.pages[n][1][0].example.parsed.signature for n in range(at + 1)}
    for name, items in run.pages[at + 1:]:
        first = items[0].example
        if settings.reuse_translations and first.parsed.signature in seen:
            continue
        seen.add(first.parsed.signature)
        if any(_starts_code(item.example, settings, runs_alone) for item in items):
            network, names = page_needs(first.document, settings.network)
            try:
                start_ahead(name, settings, network, names)
            except MachineFault:
                pass  # the page's first block meets it again, and stops the run there, as without the trick
            return


def _starts_code(example, settings, runs_alone) -> bool:
    """Whether the block starts code in its page's process (not in one of its own, not skipped)."""
    block, evaluator = example.parsed, example.region.evaluator
    would = getattr(evaluator, "would_execute", None)
    return would is not None and would(block, settings.network) and not runs_alone(block, settings)
