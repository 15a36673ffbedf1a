"""records.machine: the machine a record describes, its id and its words."""

from __future__ import annotations

from _support import CPU_DEVICE as CPU
from _support import H200, RADEON_VII


# -- the machines ---------------------------------------------------------------------------------
def test_machine_ids_and_descriptions():
    assert [d.machine_id for d in (RADEON_VII, H200, CPU)] == ["rocm-gfx906", "cuda-nvidia-h200", "cpu-x86_64"]
    assert [d.describe() for d in (RADEON_VII, H200, CPU)] == ["ROCm, AMD Radeon VII", "CUDA, NVIDIA H200", "CPU only, x86_64"]
    assert H200.to_dict()["machine_id"] == "cuda-nvidia-h200"
