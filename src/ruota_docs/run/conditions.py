"""Whether the terms of a ``requires:`` directive hold on this machine.

Where they do not, the skip reason names the unmet terms and describes this machine, for example
``requires ROCm; this machine: CUDA, NVIDIA H100 80GB HBM3``. The syntax of the terms is defined in
`ruota_docs.blocks.terms`.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass

from ruota_docs.run import toolchain
from ruota_docs.records.agreement import HOLDS
from ruota_docs.records.schema import Machine
from ruota_docs.records.reason_codes import Reason, reason
from ruota_docs.blocks.terms import OS_LABELS, Requirement, RequirementError, alternatives, version_of


def _gpu_described(req: Requirement, device: Machine) -> str:
    """The machine with its GPU's target and memory, for terms about the GPU itself."""
    if not device.arch:
        return device.describe()
    vram = f", {device.vram_bytes / 2**30:.0f} GiB" if device.vram_bytes else ""
    return f"{device.describe()} ({device.arch}{vram})"


def _hipcc_holds(req: Requirement, device: Machine) -> bool:
    if not req.values:
        return toolchain.works()
    return all(build.ok for build in toolchain.builds(req.values).values())


#: The distributions that install the ``triton`` package: PyPI's, and those PyTorch's ROCm and nightly wheels pull in.
TRITON_DISTRIBUTIONS = ("triton", "pytorch-triton-rocm", "pytorch-triton")


def triton_version() -> str | None:
    """The installed Triton's version (for example ``3.9.0``), read from its metadata without importing it,
    or ``None`` if Triton is not installed."""
    for name in TRITON_DISTRIBUTIONS:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def _triton_at_least(req: Requirement, device: Machine) -> bool:
    found = triton_version()
    leading = re.match(r"\d+(?:\.\d+)*", found or "")
    return leading is not None and version_of(leading[0]) >= version_of(req.values[0])


def _found_tool(value: str) -> bool:
    return any(toolchain.find_program(name) is not None for name in alternatives(value))


def _missing_tools(req: Requirement, device: Machine) -> str:
    missing = [name for v in req.values if not _found_tool(v) for name in alternatives(v)]
    return f"no {' or '.join(missing)} on {toolchain.searched()}"


@dataclass(frozen=True)
class Check:
    """How one requirement term is checked on this machine."""

    holds: Callable[[Requirement, Machine], bool]  #: whether the term holds on ``device``
    #: what a skip reason says this machine is, where the term does not hold
    this_machine: Callable[[Requirement, Machine], str] = lambda req, device: device.describe()


#: The check of every term of `ruota_docs.blocks.terms.TERMS`, under its name.
CHECKS: dict[str, Check] = {
    # the terms about the machine: decided as `record check` decides them from a record
    "gpu": Check(HOLDS["gpu"]),
    "rocm": Check(HOLDS["rocm"]),
    "cuda": Check(HOLDS["cuda"]),
    "cpu": Check(HOLDS["cpu"]),
    # a fact of the run, not of the machine: is_met decides it from the run's settings
    "network": Check(lambda req, device: False, lambda req, device: "offline (run with --network to allow)"),
    "hipcc": Check(_hipcc_holds, lambda req, device: toolchain.describe(req.values)),
    "arch": Check(HOLDS["arch"], _gpu_described),
    "os": Check(HOLDS["os"], lambda req, device: OS_LABELS.get(device.os, device.os)),
    "import": Check(lambda req, device: all(importlib.util.find_spec(v) is not None for v in req.values),
                    lambda req, device: "missing " + ", ".join(v for v in req.values
                                                               if importlib.util.find_spec(v) is None)),
    "rocm_library": Check(lambda req, device: toolchain.rocm_library() is not None,
                          lambda req, device: f"no ROCm library ({toolchain.ROCM_LIBRARIES})"),
    "tool": Check(lambda req, device: all(_found_tool(v) for v in req.values), _missing_tools),
    "vram": Check(HOLDS["vram"], _gpu_described),
    "python": Check(HOLDS["python"], lambda req, device: f"Python {device.python}"),
    "torch": Check(HOLDS["torch"], lambda req, device: f"torch {device.torch}" if device.torch else "no torch"),
    "triton": Check(_triton_at_least, lambda req, device: f"triton {triton_version() or 'not installed'}"),
}


def _check(req: Requirement) -> Check:
    try:
        return CHECKS[req.name]
    except KeyError:
        raise RequirementError(f"unknown requirement {req.name!r}") from None


def is_met(req: Requirement, device: Machine, network: bool = False) -> bool:
    """Whether ``device`` satisfies one requirement.

    The ``network`` argument says whether the run allows network access. It is the ``network`` field of the
    run's settings (`ruota_docs.run.settings.Settings`)."""
    if req.name == "network":
        return network
    return _check(req).holds(req, device)


def _this_machine(req: Requirement, device: Machine) -> str:
    return _check(req).this_machine(req, device)


def unmet_reason(reqs: tuple[Requirement, ...], device: Machine, network: bool = False) -> str | None:
    """``None`` where every requirement holds; otherwise the skip reason.

    For example: ``requires ROCm; this machine: CUDA, NVIDIA H100 80GB HBM3``."""
    found = unmet(reqs, device, network)
    return found.english() if found else None


def unmet(reqs: tuple[Requirement, ...], device: Machine, network: bool = False) -> Reason | None:
    """``None`` where every requirement holds; otherwise the skip reason, with its reason code
    (``requires``) and details.

    The details are the unmet terms as written and a description of this machine."""
    missing = [r for r in reqs if not is_met(r, device, network)]
    if not missing:
        return None
    facts: list[str] = []
    for req in missing:
        fact = _this_machine(req, device)
        if any(f.startswith(fact) for f in facts):
            continue
        facts = [f for f in facts if not fact.startswith(f)] + [fact]  # keep the most precise
    return reason("requires", terms=[str(r) for r in missing], machine=facts)
