"""blocks.speedups: the speed tricks by name, and the switch that turns them off."""

from __future__ import annotations

import pytest

from ruota_docs.blocks import speedups


def test_every_trick_is_on_unless_the_switch_names_it(monkeypatch):
    monkeypatch.delenv(speedups.SWITCH, raising=False)
    assert speedups.off() == frozenset() and all(speedups.on(name) for name in speedups.TRICKS)
    monkeypatch.setenv(speedups.SWITCH, " setup_cache, gc_pause ,")
    assert speedups.off() == {"setup_cache", "gc_pause"}
    assert not speedups.on("gc_pause") and speedups.on("render_ahead")
    monkeypatch.setenv(speedups.SWITCH, "all")
    assert speedups.off() == set(speedups.TRICKS)


def test_a_name_no_trick_has_is_an_error_naming_the_tricks(monkeypatch):
    monkeypatch.setenv(speedups.SWITCH, "render_ahaed")
    with pytest.raises(speedups.UnknownSpeedup, match="no speed trick is called render_ahaed; the tricks are "
                                                      "render_ahead, setup_cache"):
        speedups.on("render_ahead")
    monkeypatch.delenv(speedups.SWITCH)
    with pytest.raises(KeyError):
        speedups.on("no_such_trick")


def test_each_trick_names_its_stage_and_module():
    for name, said in speedups.TRICKS.items():
        stage, module = said.split(":", 1)[0].split(" ", 1)
        assert stage in ("blocks", "run", "site", "serve"), name
        assert module.startswith(f"({stage}/") and module.endswith(".py)"), name
