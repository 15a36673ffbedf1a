"""records.gpus: GPU names and the gfx targets they have."""

from __future__ import annotations

import pytest

from ruota_docs.records import gpus


@pytest.mark.parametrize("name, arch", [
    ("AMD Radeon RX 7600", "gfx1102"), ("AMD Radeon RX 7600 XT", "gfx1102"), ("AMD Radeon VII", "gfx906"),
    ("AMD Radeon(TM) VII", "gfx906"), ("AMD Radeon RX 6700 XT", "gfx1031"), ("AMD Radeon RX 6600", "gfx1032"),
    ("AMD Instinct MI300X", "gfx942"), ("NVIDIA H200", "sm_90"), ("NVIDIA GH200 480GB", "sm_90"),
    ("NVIDIA A100-SXM4-80GB", "sm_80"), ("NVIDIA A10", "sm_86"), ("NVIDIA GeForce RTX 4090", "sm_89"),
])
def test_gpu_names_and_their_targets(name, arch):
    assert gpus.expected_arch(name)[1] == arch


def test_generic_gpu_names_are_unknown():
    assert gpus.expected_arch("AMD Radeon Graphics") is None
    assert gpus.expected_arch(None) is None
