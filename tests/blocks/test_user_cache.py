"""The engine's cache folder (ruota_docs.blocks.user_cache)."""

from pathlib import Path

from ruota_docs.blocks import user_cache
from ruota_docs.run import device, toolchain, unprivileged


def test_the_cache_follows_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert user_cache.path("probe.json") == tmp_path / "ruota-docs" / "probe.json"
    assert not (tmp_path / "ruota-docs").exists()  # naming a path creates nothing


def test_without_xdg_cache_home_it_is_under_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert user_cache.path("x") == Path(tmp_path) / ".cache" / "ruota-docs" / "x"


def test_every_cache_of_the_engine_lives_there(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "ruota-docs"
    assert device._cache_file().parent == folder
    assert toolchain.cache_path().parent == folder
    assert unprivileged._checks_file().parent == folder
