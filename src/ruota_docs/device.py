"""What this machine is: the facts requirement directives are checked against.

``probe()`` is cached and cheap after its first call. It never imports a package
that is not installed (``importlib.util.find_spec`` first), so a machine without
torch is simply a CPU machine.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import json
import os
import platform
import re
import sys
from dataclasses import asdict, dataclass, field

#: Distributions whose versions the probe reports when they are installed.
REPORTED_PACKAGES = ("torch", "keras", "tensorflow", "tensorflow-cpu", "diffusers", "transformers", "numpy")


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

    def to_dict(self) -> dict:
        data = asdict(self)
        data["machine_id"] = self.machine_id
        return data


def slug(text: str) -> str:
    """Lower-case ASCII words joined by ``-``: ``NVIDIA H200`` → ``nvidia-h200``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


def _os_name() -> str:
    return {"darwin": "macos", "win32": "windows"}.get(sys.platform, "linux" if sys.platform.startswith("linux") else sys.platform)


def _packages() -> dict[str, str]:
    found = {}
    for name in REPORTED_PACKAGES:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return found


def _torch_facts() -> dict:
    """GPU facts from torch; an empty dict where torch is absent."""
    if os.environ.get("RUOTA_DOCS_FAKE_DEVICE"):
        return _fake_device(os.environ["RUOTA_DOCS_FAKE_DEVICE"])
    if importlib.util.find_spec("torch") is None:
        return {}
    import torch  # noqa: PLC0415 — imported only where installed

    facts: dict = {"torch": torch.__version__}
    hip = getattr(torch.version, "hip", None)
    facts["hip"] = hip
    facts["cuda"] = None if hip else getattr(torch.version, "cuda", None)
    if not torch.cuda.is_available():
        return facts
    props = torch.cuda.get_device_properties(0)
    facts.update(gpu_count=torch.cuda.device_count(), gpu_name=props.name, vram_bytes=int(props.total_memory))
    if hip:
        facts["backend"] = "rocm"
        facts["arch"] = getattr(props, "gcnArchName", "").split(":")[0] or None
    else:
        facts["backend"] = "cuda"
        facts["arch"] = f"sm_{props.major}{props.minor}"
    return facts


def _fake_device(spec: str) -> dict:
    """``RUOTA_DOCS_FAKE_DEVICE="rocm gfx1102 AMD Radeon RX 7600 8GiB"``: lets tests and
    authors preview how pages resolve on hardware they do not have. Never used for ledgers."""
    parts = spec.split()
    backend, arch = parts[0], parts[1] if len(parts) > 1 else None
    size = next((p for p in parts if re.fullmatch(r"\d+GiB", p)), None)
    name = " ".join(p for p in parts[2:] if p != size) or None
    return {
        "backend": backend,
        "arch": arch,
        "gpu_name": name,
        "gpu_count": 1 if backend != "cpu" else 0,
        "vram_bytes": int(size[:-3]) * 2**30 if size else None,
        "fake": True,
    }


#: The test run's probe, handed to its worker processes so each does not import torch again.
PROBED_ENV = "RUOTA_DOCS_PROBED"


def share(device: Device) -> None:
    """Hand ``device`` to child processes started from now on (xdist workers)."""
    data = asdict(device)
    os.environ[PROBED_ENV] = json.dumps(data, sort_keys=True)


@functools.lru_cache(maxsize=1)
def probe() -> Device:
    """Describe this machine. Cached: call it as often as you like.

    A process started by a test run that already probed this machine reads the
    result from its environment instead of importing torch again (about 2 s).
    """
    shared = os.environ.get(PROBED_ENV)
    if shared and not os.environ.get("RUOTA_DOCS_FAKE_DEVICE"):
        try:
            return Device(**json.loads(shared))
        except (TypeError, ValueError):
            pass  # not ours: probe for real
    facts = _torch_facts()
    facts.pop("fake", None)
    return Device(
        backend=facts.get("backend", "cpu"),
        gpu_name=facts.get("gpu_name"),
        arch=facts.get("arch"),
        vram_bytes=facts.get("vram_bytes"),
        gpu_count=facts.get("gpu_count", 0),
        os=_os_name(),
        machine=platform.machine().lower() or "unknown",
        python=platform.python_version(),
        torch=facts.get("torch"),
        hip=facts.get("hip"),
        cuda=facts.get("cuda"),
        packages=_packages(),
    )
