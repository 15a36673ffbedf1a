"""A machine as a record names it: backend, GPU, target, memory, system and versions.

The probe that fills it in runs with the suite (`ruota_docs.run.device`); records, the
record check and the site read it from JSON.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Device:
    """A description of the machine the suite runs on.

    Attributes:
        backend: ``"rocm"``, ``"cuda"`` or ``"cpu"`` — what PyTorch computes on.
        gpu_name: Marketing name of the first GPU, or ``None``.
        arch: ``gfx…`` target on ROCm (features such as ``:xnack-`` stripped),
            ``sm_XY`` compute capability on CUDA, ``None`` on the CPU.
        vram_bytes: Total memory of the first GPU in bytes, or ``None``.
        gpu_count: How many GPUs PyTorch sees.
        os: ``"linux"``, ``"windows"`` or ``"macos"``.
        machine: CPU architecture (``x86_64``, ``arm64``…).
        python: Python version (``3.11.7``).
        torch: torch version, or ``None`` when torch is not installed.
        hip: HIP version of a ROCm build of torch.
        cuda: CUDA version of a CUDA build of torch.
        packages: Versions of the packages the guides use, when present.
    """

    backend: str
    gpu_name: str | None
    arch: str | None
    vram_bytes: int | None
    gpu_count: int
    os: str
    machine: str
    python: str
    torch: str | None = None
    hip: str | None = None
    cuda: str | None = None
    packages: dict[str, str] = field(default_factory=dict)

    @property
    def machine_id(self) -> str:
        """Names the hardware class: ``cpu-x86_64``, ``cuda-nvidia-h200``, ``rocm-gfx1102``."""
        if self.backend == "rocm" and self.arch:
            return f"rocm-{self.arch}"
        if self.backend == "cuda" and self.gpu_name:
            return "cuda-" + slug(self.gpu_name)
        return f"cpu-{re.sub(r'[^a-z0-9_]+', '-', self.machine.lower()) or 'unknown'}"

    def describe(self) -> str:
        """One phrase naming the machine, as skip reasons quote it: ``CUDA, NVIDIA H200``."""
        label = {"rocm": "ROCm", "cuda": "CUDA", "cpu": "CPU only"}[self.backend]
        if self.gpu_name:
            return f"{label}, {self.gpu_name}"
        return f"{label}, {self.machine}"

    @classmethod
    def from_dict(cls, machine: dict[str, Any]) -> Device:
        """The device a record's ``machine`` names (its derived ``machine_id`` left out)."""
        return cls(**{k: v for k, v in machine.items() if k != "machine_id"})

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["machine_id"] = self.machine_id
        return data


def slug(text: str) -> str:
    """Lower-case ASCII words joined by ``-``: ``NVIDIA H200`` → ``nvidia-h200``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"
