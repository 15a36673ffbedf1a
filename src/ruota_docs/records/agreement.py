"""Outcomes agree with requirements: a block that ``requires:`` what a record's own machine is
not (``rocm, arch=gfx906`` on a gfx1102; ``os=windows`` on Linux; ``vram>=16GiB`` on 8 GiB)
cannot have run there, so a ``passed`` or ``failed`` result for it is refused.

The terms about the machine itself are decided here, from the record's ``machine``, by the same
functions the runner uses to decide whether to run a block (`ruota_docs.run.conditions` takes
them from `HOLDS`). Terms about the run (``network``, ``tool=``, ``import=``, ``hipcc``) cannot
be proven from a record: a result for them is accepted, since only the machine that ran knows.
"""

from __future__ import annotations

from typing import Any

import re
from collections.abc import Callable

from ruota_docs.blocks.terms import Requirement, parse_size, version_of
from ruota_docs.records.schema import Machine


def _torch_at_least(req: Requirement, device: Machine) -> bool:
    if device.torch is None:
        return False
    found = re.match(r"[\d.]+", device.torch)
    return found is not None and version_of(found[0].rstrip(".")) >= version_of(req.values[0])


#: Whether each term about the machine holds on ``device``, decided from what a record holds.
HOLDS: dict[str, Callable[[Requirement, Machine], bool]] = {
    "gpu": lambda req, device: device.backend in ("rocm", "cuda"),
    "rocm": lambda req, device: device.backend == "rocm",
    "cuda": lambda req, device: device.backend == "cuda",
    "cpu": lambda req, device: device.backend == "cpu",
    "arch": lambda req, device: device.arch in req.values,
    "os": lambda req, device: device.os in req.values,
    "vram": lambda req, device: device.vram_bytes is not None and device.vram_bytes >= parse_size(req.values[0]),
    "python": lambda req, device: version_of(device.python) >= version_of(req.values[0]),
    "torch": _torch_at_least,
}


def unmet(requirements: tuple[Requirement, ...], device: Machine) -> list[Requirement]:
    """The terms of ``requirements`` that ``device`` does not meet, of those a record can prove."""
    return [req for req in requirements if req.name in HOLDS and not HOLDS[req.name](req, device)]


def problems(entry: dict[str, Any], block: Any, device: Machine) -> str | None:
    """Why ``entry`` (a result for ``block``, from the record of ``device``) cannot be, or None."""
    if entry.get("outcome") not in ("passed", "failed"):
        return None
    missing = unmet(tuple(getattr(block, "requirements", ()) or ()), device)
    if not missing:
        return None
    terms = ", ".join(str(req) for req in missing)
    machine = device.describe() + (f", {device.arch}" if device.arch else "") + f", {device.os}"
    # a fence written in an included Markdown file is found at its line there (``snippets/part.md:5``)
    where = getattr(block, "source", "") or f"line {block.line}"
    return (f"{entry['outcome']} for the block at {where}, which requires {terms}, on a machine that "
            f"does not meet it (this record's: {machine}): the engine skips such a block, so it cannot have run here")
