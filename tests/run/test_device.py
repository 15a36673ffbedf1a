"""The machine's description is lazy and cached on disk under a key of what can change it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ruota_docs.run import device
from ruota_docs.run import device as device_module

SHOW = ("import sys, json; from ruota_docs.run import device; d = device.probe(); "
        "print(json.dumps({'torch_imported': 'torch' in sys.modules, 'id': d.machine_id, 'key': device.cache_key()}))")


def probe_in_a_new_process(cache, **env) -> dict:
    variables = {k: v for k, v in os.environ.items() if k not in (device.PROBED_ENV, "RUOTA_DOCS_FAKE_DEVICE")}
    variables.update(XDG_CACHE_HOME=str(cache), **env)
    result = subprocess.run([sys.executable, "-c", SHOW], capture_output=True, text=True, env=variables, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(device.importlib.util.find_spec("torch") is None, reason="torch is not installed here")
def test_a_second_process_reads_the_cache_instead_of_importing_torch(tmp_path):
    first = probe_in_a_new_process(tmp_path)
    assert first["torch_imported"] is True
    assert (tmp_path / "ruota-docs" / "probe.json").exists()
    second = probe_in_a_new_process(tmp_path)
    assert second == {**first, "torch_imported": False}


@pytest.mark.skipif(device.importlib.util.find_spec("torch") is None, reason="torch is not installed here")
def test_what_can_change_the_gpus_changes_the_key(tmp_path):
    plain = probe_in_a_new_process(tmp_path)
    hidden = probe_in_a_new_process(tmp_path, CUDA_VISIBLE_DEVICES="")
    assert hidden["key"] != plain["key"] and hidden["torch_imported"] is True
    again = probe_in_a_new_process(tmp_path, CUDA_VISIBLE_DEVICES="")
    assert again["torch_imported"] is False


def test_a_damaged_or_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "ruota-docs").mkdir()
    (tmp_path / "ruota-docs" / "probe.json").write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(device, "_torch_facts", lambda: {"backend": "cpu", "torch": "x"})
    assert device.gpu_facts() == {"backend": "cpu", "torch": "x"}
    assert json.loads((tmp_path / "ruota-docs" / "probe.json").read_text())[device.cache_key()]["torch"] == "x"
    monkeypatch.setenv("XDG_CACHE_HOME", "/proc/not-a-place-to-write")
    assert device.gpu_facts() == {"backend": "cpu", "torch": "x"}


def test_a_fake_device_never_reads_nor_writes_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("RUOTA_DOCS_FAKE_DEVICE", "rocm gfx1102 AMD Radeon RX 7600 8GiB")
    assert device.gpu_facts()["arch"] == "gfx1102"
    assert not (tmp_path / "ruota-docs").exists()


def test_fake_device_spec(monkeypatch):
    monkeypatch.setenv("RUOTA_DOCS_FAKE_DEVICE", "rocm gfx1102 AMD Radeon RX 7600 8GiB")
    device_module.probe.cache_clear()
    try:
        fake = device_module.probe()
    finally:
        device_module.probe.cache_clear()
    assert (fake.backend, fake.arch, fake.gpu_name, fake.vram_bytes, fake.gpu_count) == (
        "rocm", "gfx1102", "AMD Radeon RX 7600", 8 * 2**30, 1)
    assert fake.machine_id == "rocm-gfx1102"


def test_the_record_names_torch_as_pytorch_names_itself(monkeypatch):
    """CUDA builds of torch may leave the local version (+cu130) out of their package metadata: the
    record's package list then agrees with the torch field, and with what the output tabs print."""
    monkeypatch.delenv(device.PROBED_ENV, raising=False)
    monkeypatch.setattr(device, "gpu_facts", lambda: {"backend": "cuda", "torch": "2.11.0+cu130", "cuda": "13.0"})
    monkeypatch.setattr(device, "_packages", lambda: {"torch": "2.11.0", "numpy": "2.5.2"})
    device_module.probe.cache_clear()
    try:
        machine = device_module.probe()
    finally:
        device_module.probe.cache_clear()
    assert machine.packages == {"torch": "2.11.0+cu130", "numpy": "2.5.2"} and machine.torch == "2.11.0+cu130"
    monkeypatch.setattr(device, "_packages", lambda: {"torch": "2.10.0"})  # another torch than the one imported
    try:
        assert device_module.probe().packages == {"torch": "2.10.0"}
    finally:
        device_module.probe.cache_clear()
