"""The records read with the garbage collector paused, then frozen: the one change the engine
makes to the state of the user's ``mkdocs build`` process.

A site reads a thousand records in every build; each full pass of the collector walks every
object read so far (millions, none of them garbage). Read with the collector paused, and what
was read frozen out of the way of the collections the build makes after, a build of a thousand
records takes a third less CPU time (benchmarks/RESULTS.md, "A budget for cleverness"); the docs
say so (authoring/own-site.md). A speed trick (`ruota_docs.blocks.speedups`, ``gc_pause``):
``RUOTA_DOCS_NO_SPEEDUPS=gc_pause`` leaves the collector alone.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from ruota_docs.blocks import speedups


@contextmanager
def paused() -> Iterator[None]:
    """Run the block with the collector off (as it was after), and freeze what it made."""
    if not speedups.on("gc_pause"):
        yield
        return
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was:
            gc.enable()
