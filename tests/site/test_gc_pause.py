"""site.gc_pause: the records read with the garbage collector paused, then frozen, or, switched off, not."""

from __future__ import annotations

import gc

import pytest

from _support import REPO
from ruota_docs.records import ledger
from ruota_docs.site import gc_pause


@pytest.fixture
def collector():
    was = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()
    (gc.enable if was else gc.disable)()


def test_the_collector_is_off_while_reading_then_on_and_what_was_read_frozen(collector, monkeypatch):
    monkeypatch.delenv("RUOTA_DOCS_NO_SPEEDUPS", raising=False)
    gc.unfreeze()
    with gc_pause.paused():
        assert not gc.isenabled()
        made = [[n] for n in range(1000)]
    assert gc.isenabled() and gc.get_freeze_count() >= len(made)


def test_switched_off_the_collector_is_left_alone_and_the_records_read_the_same(collector, monkeypatch):
    with gc_pause.paused():
        paused = ledger.load_files(REPO / "verification")
    gc.unfreeze()
    monkeypatch.setenv("RUOTA_DOCS_NO_SPEEDUPS", "gc_pause")
    with gc_pause.paused():
        assert gc.isenabled()
        plain = ledger.load_files(REPO / "verification")
    assert gc.get_freeze_count() == 0
    assert [(p.name, r.to_json()) for p, r in plain] == [(p.name, r.to_json()) for p, r in paused] and plain
