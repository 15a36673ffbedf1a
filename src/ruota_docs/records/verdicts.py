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


def record_id(data: dict) -> str:
    """What tells one record from another: the machine's id, and its fingerprint where it has one
    (two RX 7600s are both ``rocm-gfx1102``; their records are two machines)."""
    fingerprint = data.get("fingerprint")
    return f"{data.get('machine_id')}-{fingerprint[:8]}" if fingerprint else str(data.get("machine_id"))


def target(machine: dict) -> str:
    """What a machine's results group by: its GPU target (``gfx1102``, ``sm_90``), else its CPU
    architecture (``x86_64``)."""
    return str(machine.get("arch") or machine.get("machine") or "?")


def group_of(machine: dict) -> tuple[str, str]:
    """``(backend, target)`` of a machine: ``("rocm", "gfx1102")``, ``("cpu", "x86_64")``."""
    return str(machine.get("backend")), target(machine)


@dataclass(slots=True)
class MachineResult:
    machine_id: str  #: the record's id (`record_id`): unique among the records
    label: str
    state: str  #: passed, failed, skipped or stale (machines without the block have no result)
    entry: dict | None = None
    record: dict = field(default_factory=dict, repr=False)  #: the whole record (machine, fingerprint, provenance)
    #: ``(backend, target)``: the machines a block panel counts together (`group_of`)
    group: tuple[str, str] = ("", "")

    def __post_init__(self) -> None:
        if self.group == ("", ""):
            # a result that does not say what machine it is for counts on its own
            machine = self.record.get("machine")
            self.group = group_of(machine) if machine else ("", self.machine_id)

    @property
    def machine(self) -> dict:
        return self.record.get("machine", {})


@dataclass
class Verdict:
    """What the records say about one block: a result for each machine that ran its current
    code, or ran an older one (stale); ``machines`` counts every record, with the block or not."""

    results: list[MachineResult] = field(default_factory=list)
    machines: int = 0

    def by_state(self, state: str) -> list[MachineResult]:
        if state == "absent":
            return []
        return [r for r in self.results if r.state == state]

    @property
    def absent(self) -> int:
        """How many records hold nothing for this block."""
        return self.machines - len(self.results)

    @property
    def state(self) -> str:
        """The most important state: failed > passed > skipped > stale > never."""
        for state in PRIORITY[:-1]:
            if self.by_state(state):
                return state
        return "never"

    def only(self) -> MachineResult | None:
        """The one result of a verdict drawn from one record (None where it holds nothing)."""
        return self.results[0] if self.results else None


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


class Index:
    """Every ledger and, across them, the records of each code: a verdict costs what the
    records of that block hold, not one lookup per record, and each block's verdict is
    computed once per build. Iterating gives ``(data, PageEntries)`` for each ledger (built
    when first asked for: the site's pages never need them)."""

    def __init__(self, ledgers: list[dict]) -> None:
        self.ledgers = list(ledgers)
        self.by_code: dict[tuple[str, str], list[tuple[int, dict]]] = {}
        self.by_index: dict[tuple[str, int], list[int]] = {}
        by_code, by_index = self.by_code, self.by_index  # a thousand records: half a million entries
        for n, data in enumerate(self.ledgers):
            for entry in data.get("blocks", {}).values():
                page = entry["page"]
                code = (page, entry["sha256"])
                if code in by_code:
                    by_code[code].append((n, entry))
                else:
                    by_code[code] = [(n, entry)]
                place = (page, entry["index"])
                if place in by_index:
                    by_index[place].append(n)
                else:
                    by_index[place] = [n]
        self.labels = [(record_id(data), machine_label(data.get("machine", {})), group_of(data.get("machine", {})))
                       for data in self.ledgers]
        self.cache: dict[tuple[str, int, str], Verdict] = {}
        self._pages: list | None = None

    def __len__(self) -> int:
        return len(self.ledgers)

    def __iter__(self):
        if self._pages is None:
            self._pages = [(data, PageEntries(data.get("blocks", {}).values())) for data in self.ledgers]
        return iter(self._pages)

    def __getitem__(self, n: int):
        return list(self)[n]

    def verdict(self, page: str, index: int, sha256: str) -> Verdict:
        key = (page, index, sha256)
        found = self.cache.get(key)
        if found is None:
            chosen: dict[int, dict] = {}
            for n, entry in self.by_code.get((page, sha256), ()):
                # the block itself, else the same code elsewhere on the page
                if n not in chosen or entry["index"] == index:
                    chosen[n] = entry
            labels, ledgers = self.labels, self.ledgers
            results = [MachineResult(labels[n][0], labels[n][1], "failed" if entry["outcome"] == "error"
                                     else entry["outcome"], entry, ledgers[n], labels[n][2])
                       for n, entry in chosen.items()]
            results += [MachineResult(labels[n][0], labels[n][1], "stale", None, ledgers[n], labels[n][2])
                        for n in dict.fromkeys(self.by_index.get((page, index), ())) if n not in chosen]
            results.sort(key=_machine_id)
            found = self.cache[key] = Verdict(results, len(self.ledgers))
        return found


def _machine_id(result: MachineResult) -> str:
    return result.machine_id


def index_ledgers(ledgers: list[dict]) -> Index:
    """Each ledger with its entries grouped by page, for fast lookups."""
    return Index(ledgers)


def verdict(page: str, index: int, sha256: str, indexed) -> Verdict:
    """The verdict for block ``index`` of ``page`` whose code hashes to ``sha256``."""
    if isinstance(indexed, Index):
        return indexed.verdict(page, index, sha256)
    result = Verdict(machines=len(indexed))
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
            continue
        label = machine_label(data.get("machine", {}))
        result.results.append(MachineResult(record_id(data), label, state, entry, data))
    return result
