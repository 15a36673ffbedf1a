"""From ledgers to verdicts: what the site may say about each block.

A record counts for a block only when its ``sha256`` equals the hash of the
block's current code: code changed since its last run is *stale*, never green.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PRIORITY = ("failed", "passed", "skipped", "stale", "absent")


def machine_label(machine: dict) -> str:
    """``NVIDIA H200 (CUDA)``, ``AMD Radeon RX 7600 (ROCm, gfx1102)``, ``CPU x86_64``."""
    backend = machine.get("backend")
    if backend == "cuda" and machine.get("gpu_name"):
        return f"{machine['gpu_name']} (CUDA)"
    if backend == "rocm":
        name = machine.get("gpu_name") or "AMD GPU"
        return f"{name} (ROCm, {machine.get('arch')})" if machine.get("arch") else f"{name} (ROCm)"
    return f"CPU {machine.get('machine', '')}".strip()


@dataclass
class MachineResult:
    machine_id: str
    label: str
    state: str  #: passed, failed, skipped, stale or absent
    entry: dict | None = None


@dataclass
class Verdict:
    """What every machine's record says about one block."""

    results: list[MachineResult] = field(default_factory=list)

    def by_state(self, state: str) -> list[MachineResult]:
        return [r for r in self.results if r.state == state]

    @property
    def state(self) -> str:
        """The most important state: failed > passed > skipped > stale > absent."""
        for state in PRIORITY:
            if self.by_state(state):
                return state if state != "absent" else "never"
        return "never"


class PageEntries(dict):
    """A ledger's entries grouped by page (``page → [entry, …]``), with the lookups a
    verdict needs indexed, so a page of thousands of blocks costs linear time."""

    def __init__(self, entries) -> None:
        super().__init__()
        self.by_code: dict[tuple[str, str], list[dict]] = {}
        self.by_index: dict[tuple[str, int], dict] = {}
        for entry in entries:
            self.setdefault(entry["page"], []).append(entry)
            self.by_code.setdefault((entry["page"], entry["sha256"]), []).append(entry)
            self.by_index[(entry["page"], entry["index"])] = entry


def index_ledgers(ledgers: list[dict]) -> list[tuple[dict, dict[str, list[dict]]]]:
    """Each ledger with its entries grouped by page, for fast lookups."""
    return [(data, PageEntries(data.get("blocks", {}).values())) for data in ledgers]


def verdict(page: str, index: int, sha256: str, indexed) -> Verdict:
    """The verdict for block ``index`` of ``page`` whose code hashes to ``sha256``."""
    result = Verdict()
    for data, pages in indexed:
        if not isinstance(pages, PageEntries):
            pages = PageEntries(e for entries in pages.values() for e in entries)
        same = pages.by_code.get((page, sha256), [])
        entry = next((e for e in same if e["index"] == index), same[0] if same else None)
        if entry is not None:
            state = "failed" if entry["outcome"] == "error" else entry["outcome"]
        elif (page, index) in pages.by_index:
            state = "stale"
        else:
            state = "absent"
        result.results.append(MachineResult(str(data.get("machine_id")), machine_label(data.get("machine", {})), state, entry))
    return result
