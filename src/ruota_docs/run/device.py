"""This machine as the engine sees it: the facts that requirement directives are checked against.

The ``probe()`` function is lazy and cached. Nothing calls it until a block has a requirement or a
record is written. Its GPU facts come from importing torch, which takes seconds (see
benchmarks/RESULTS.md), so they are also kept on disk, in
``$XDG_CACHE_HOME/ruota-docs/probe.json`` (``~/.cache`` by default). The cache key combines
everything that could change those facts:

- the interpreter;
- the installed torch build (its files);
- the GPU device nodes and the driver versions;
- the boot ID;
- the environment variables that hide or rename GPUs.

When the key no longer matches, the machine is probed again. The ``probe()`` function never imports
a package that is not installed (it asks ``importlib.util.find_spec`` first), so a machine
without torch is simply a CPU machine.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import re
import sys
from dataclasses import asdict
from pathlib import Path

from ruota_docs.blocks import user_cache
from ruota_docs.records.schema import Machine
from ruota_docs.run.settings import FAKE_DEVICE_VARIABLE

#: Distributions whose versions the probe reports when they are installed.
REPORTED_PACKAGES = ("torch", "keras", "tensorflow", "tensorflow-cpu", "diffusers", "transformers", "numpy")


def os_name() -> str:
    """This machine's operating system (``linux``, ``windows`` or ``macos``), found without probing anything else."""
    return _os_name()


def _os_name() -> str:
    other = "linux" if sys.platform.startswith("linux") else sys.platform
    return {"darwin": "macos", "win32": "windows"}.get(sys.platform, other)


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
    if os.environ.get(FAKE_DEVICE_VARIABLE):
        return _fake_device(os.environ[FAKE_DEVICE_VARIABLE])
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
#: Variables that change which GPUs torch sees, or what it calls them.
_GPU_VARIABLES = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                  "GPU_DEVICE_ORDINAL", "HSA_OVERRIDE_GFX_VERSION")
#: Files whose contents name the GPU drivers and the boot.
_DRIVER_FILES = ("/proc/driver/nvidia/version", "/sys/module/nvidia/version", "/sys/module/amdgpu/version",
                 "/proc/sys/kernel/random/boot_id")


def cache_key() -> str:
    """A hash of what the GPU facts depend on, computed in a few milliseconds without importing torch."""
    parts = [os.path.realpath(sys.executable), sys.version]
    spec = importlib.util.find_spec("torch")
    if spec is not None and spec.origin:
        folder = os.path.dirname(spec.origin)
        for name in ("__init__.py", "version.py",
                     os.path.join("lib", "libtorch_cuda.so"), os.path.join("lib", "libtorch_hip.so")):
            try:
                stat = os.stat(os.path.join(folder, name))
                parts.append(f"{name}:{stat.st_size}:{stat.st_mtime_ns}")
            except OSError:
                parts.append(f"{name}:-")
    parts += [f"{v}={os.environ[v]!r}" if v in os.environ else f"{v} unset" for v in _GPU_VARIABLES]
    for folder, prefix in (("/dev", ("nvidia", "kfd")), ("/dev/dri", ("renderD", "card"))):
        try:
            names = sorted(n for n in os.listdir(folder) if n.startswith(prefix))
        except OSError:
            names = []
        parts += [f"{folder}/{n}" for n in names]
    for path in _DRIVER_FILES:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                parts.append(handle.read(300).strip())
        except OSError:
            parts.append("-")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def _cache_file() -> Path:
    return user_cache.path("probe.json")


def _cached_facts(key: str) -> dict | None:
    try:
        data = json.loads(_cache_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    facts = data.get(key) if isinstance(data, dict) else None
    return facts if isinstance(facts, dict) else None


def _remember_facts(key: str, facts: dict) -> None:
    """Keep ``facts`` under ``key`` (the last few keys only); a cache that cannot be written is no error."""
    path = _cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            data = data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            data = {}
        data.pop(key, None)
        data[key] = facts
        data = dict(list(data.items())[-8:])
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def gpu_facts() -> dict:
    """What torch says about the GPUs, from the disk cache where its key still matches."""
    if os.environ.get(FAKE_DEVICE_VARIABLE):
        return _torch_facts()
    key = cache_key()
    facts = _cached_facts(key)
    if facts is None:
        facts = _torch_facts()
        _remember_facts(key, facts)
    return facts


def share(device: Machine) -> None:
    """Hands the probed ``device`` to every child process started after this call (the xdist
    workers among them), so that none of them probes the machine again."""
    data = asdict(device)
    os.environ[PROBED_ENV] = json.dumps(data, sort_keys=True)


@functools.lru_cache(maxsize=1)
def probe() -> Machine:
    """This machine’s description. The result is cached, so call it as often as you like.

    A process started by a test run that has already probed this machine reads the result
    from its environment. Otherwise the GPU facts come from the disk cache when nothing they
    depend on has changed (see the module description above), and from torch when something has.
    """
    shared = os.environ.get(PROBED_ENV)
    if shared and not os.environ.get(FAKE_DEVICE_VARIABLE):
        try:
            return Machine(**json.loads(shared))
        except (TypeError, ValueError):
            pass  # not ours: probe for real
    facts = dict(gpu_facts())
    facts.pop("fake", None)
    packages = _packages()
    if facts.get("torch") and facts["torch"].startswith(packages.get("torch", "\0")):
        # as PyTorch names itself (2.11.0+cu130): some builds' metadata leave out the local version
        packages["torch"] = facts["torch"]
    return Machine(
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
        packages=packages,
    )
