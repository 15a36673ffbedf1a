"""Whether the terms of a ``requires:`` directive hold on this machine, and the skip reason
that names what this machine is where they do not (``requires ROCm; this machine: CUDA,
NVIDIA H200``). The syntax of the terms is `ruota_docs.blocks.terms`.
"""

from __future__ import annotations

import importlib.util
import os
import re

from ruota_docs.run import toolchain
from ruota_docs.records.machine import Device
from ruota_docs.blocks.terms import HIPCC, OS_LABELS, Requirement, RequirementError, _version, parse_size


def network_allowed() -> bool:
    """Whether this run may use the internet (``--network`` sets the variable)."""
    return os.environ.get("RUOTA_DOCS_NETWORK", "") not in ("", "0", "false", "no")


def is_met(req: Requirement, device: Device) -> bool:
    """Whether ``device`` satisfies one requirement."""
    if req.name == "gpu":
        return device.backend in ("rocm", "cuda")
    if req.name in ("rocm", "cuda"):
        return device.backend == req.name
    if req.name == "cpu":
        return device.backend == "cpu"
    if req.name == "network":
        return network_allowed()
    if req.name == "arch":
        return device.arch in req.values
    if req.name == HIPCC:
        if not req.values:
            return toolchain.works()
        return all(build.ok for build in toolchain.builds(req.values).values())
    if req.name == "tool":
        return all(toolchain.find_program(v) is not None for v in req.values)
    if req.name == "os":
        return device.os in req.values
    if req.name == "import":
        return all(importlib.util.find_spec(v) is not None for v in req.values)
    if req.name == "vram":
        return device.vram_bytes is not None and device.vram_bytes >= parse_size(req.values[0])
    if req.name == "python":
        return _version(device.python) >= _version(req.values[0])
    if req.name == "torch":
        return device.torch is not None and _version(re.match(r"[\d.]+", device.torch)[0].rstrip(".")) >= _version(req.values[0])
    raise RequirementError(f"unknown requirement {req.name!r}")


def _this_machine(req: Requirement, device: Device) -> str:
    if req.name == "os":
        return OS_LABELS.get(device.os, device.os)
    if req.name == "network":
        return "offline (run with --network to allow)"
    if req.name == "import":
        return "missing " + ", ".join(v for v in req.values if importlib.util.find_spec(v) is None)
    if req.name == HIPCC:
        return toolchain.describe(req.values)
    if req.name == "tool":
        missing = [v for v in req.values if toolchain.find_program(v) is None]
        return f"no {' or '.join(missing)} on {toolchain.searched()}"
    if req.name == "python":
        return f"Python {device.python}"
    if req.name == "torch":
        return f"torch {device.torch}" if device.torch else "no torch"
    if req.name in ("arch", "vram") and device.arch:
        vram = f", {device.vram_bytes / 2**30:.0f} GiB" if device.vram_bytes else ""
        return f"{device.describe()} ({device.arch}{vram})"
    return device.describe()


def unmet_reason(reqs: tuple[Requirement, ...], device: Device) -> str | None:
    """``None`` where every requirement holds, else the skip reason:
    ``requires ROCm; this machine: CUDA, NVIDIA H200``."""
    missing = [r for r in reqs if not is_met(r, device)]
    if not missing:
        return None
    facts: list[str] = []
    for req in missing:
        fact = _this_machine(req, device)
        if any(f.startswith(fact) for f in facts):
            continue
        facts = [f for f in facts if not fact.startswith(f)] + [fact]  # keep the most precise
    return f"requires {', '.join(r.describe() for r in missing)}; this machine: {'; '.join(facts)}"
