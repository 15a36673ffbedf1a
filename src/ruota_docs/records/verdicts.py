"""From ledgers to verdicts: what the site may say about each block.

A record counts for a block only when its ``sha256`` equals the hash of the
block's current code: code changed since its last run is *stale*, never green.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ruota_docs.records import ledger, stored

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
    #: what the record says of the block: its result's fields (``outcome``, ``output``, ``reason``,
    #: ``ran_at``…, and ``credited``: language → the language whose run the copy was credited
    #: with), shared by the copies of the block that share the result
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
    #: what readers derive from the results, kept for the other copies of the block that share them
    memo: dict = field(default_factory=dict, repr=False, compare=False)

    def kept(self, key, make: Callable[[], object]):
        """``make()``, computed once and kept under ``key`` (what it makes is shared: read it, do not change it)."""
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]

    def by_state(self, state: str) -> list[MachineResult]:
        """The results in ``state``."""
        if state == "absent":
            return []
        return self.kept(state, lambda: [r for r in self.results if r.state == state])

    def tally(self) -> Counter:
        """How many results of each ``(backend, target)`` group are in each state."""
        return self.kept("tally", lambda: Counter((r.group, r.state) for r in self.results))

    def latest_run(self, state: str | None = None) -> str | None:
        """When the latest of its runs (in ``state``) was (``ran_at``), None where no machine ran it."""
        results = self.results if state is None else self.by_state(state)
        return self.kept(("latest", state), lambda: max(
            (r.entry["ran_at"] for r in results if r.entry and r.entry.get("ran_at")), default=None))

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
    """Every record and, across them, the results of each code: a verdict costs what the
    records of that block hold, not one lookup per record, and each block's verdict is
    computed once per build.

    The records are indexed in their stored form (`ruota_docs.records.stored`: one result
    for the copies of a block in every language), as `ruota_docs.records.ledger.load_all`
    reads them with ``expand=False``: a site reads a thousand records, and expanding each
    into one entry per language would cost it more than everything else it does with them.
    Records given as entries (``blocks``) are stored first. Iterating gives ``(data,
    PageEntries)`` for each record, expanded when first asked for (the site's pages never
    need them)."""

    def __init__(self, ledgers: list[dict]) -> None:
        self.ledgers = list(ledgers)
        self._stored = [data if "pages" in data else ledger.to_stored(data) for data in self.ledgers]
        self.labels = [(record_id(data), machine_label(data.get("machine", {})), group_of(data.get("machine", {})))
                       for data in self.ledgers]
        # records are numbered in the order verdicts list them (by record id), so that a verdict's
        # results need no sorting by anything but their number
        self._order = sorted(range(len(self.ledgers)), key=lambda n: self.labels[n][0])
        #: (page under the language folders, code, language) → [(record, index of the copy, what the
        #: record says), …], in record order; what it says is the result's fields as an entry's
        #: (`stored.read_fields`), one for every copy and verdict that reads it. A page of a site without
        #: language folders is under its own path, with the language None.
        self.by_code: dict[tuple[str, str, str | None], list[tuple[int, int, dict]]] = {}
        #: (page under the language folders, block index, language) → [record, …]
        self.by_place: dict[tuple[str, int, str | None], list[int]] = {}
        by_code, by_place = self.by_code, self.by_place  # a thousand records: half a million copies
        for n, m in enumerate(self._order):
            data = self._stored[m]
            outputs, reasons = data["outputs"], data["reasons"]
            for rest, page in data["pages"].items():
                folders = page.get("folders", True)
                ran_at = page.get("ran_at")
                for result in page["results"]:
                    said = stored.read_fields(result, outputs, reasons, ran_at)
                    sha = result["sha256"]
                    for lang, index in result["at"].items():
                        held = lang if folders else None
                        code, place = (rest, sha, held), (rest, index, held)
                        if code in by_code:
                            by_code[code].append((n, index, said))
                        else:
                            by_code[code] = [(n, index, said)]
                        if place in by_place:
                            by_place[place].append(n)
                        else:
                            by_place[place] = [n]
        self.cache: dict[tuple[str, int, str], Verdict] = {}
        self._copies: dict[tuple[str, int, str], list[tuple[list, list, Verdict]]] = {}  # see `verdict`
        self._pages: list | None = None

    def __len__(self) -> int:
        return len(self.ledgers)

    def __iter__(self):
        if self._pages is None:
            self._pages = [(data, PageEntries((data["blocks"] if "blocks" in data else ledger.expanded(data)).values()))
                           for data in self.ledgers]
        return iter(self._pages)

    def __getitem__(self, n: int):
        return list(self)[n]

    def verdict(self, page: str, index: int, sha256: str) -> Verdict:
        key = (page, index, sha256)
        found = self.cache.get(key)
        if found is None:
            lang, rest = page.partition("/")[::2]
            codes = self.by_code.get((rest, sha256, lang), ()) or self.by_code.get((page, sha256, None), ())
            places = self.by_place.get((rest, index, lang), ()) or self.by_place.get((page, index, None), ())
            # the copies of a block in other languages share a verdict where every record holds
            # them alike (the same results, at the same index): the lists compare element by element
            copies = self._copies.setdefault((rest, index, sha256), [])
            found = next((v for c, p, v in copies if c == codes and p == places), None)
            if found is None:
                found = self._verdict(index, codes, places)
                copies.append((codes, places, found))
            self.cache[key] = found
        return found

    def _verdict(self, index: int, codes, places) -> Verdict:
        chosen: dict[int, dict] = {}
        for n, copy, said in codes:  # the block itself, else the same code elsewhere on the page
            if copy == index or n not in chosen:
                chosen[n] = said
        stale = [n for n in places if n not in chosen]
        labels, ledgers, order = self.labels, self.ledgers, self._order
        results = []
        for n in sorted(chosen.keys() | stale) if stale else chosen:  # codes are in record order
            m = order[n]
            rid, label, group = labels[m]
            said = chosen.get(n)
            state = "stale" if said is None else "failed" if said["outcome"] == "error" else said["outcome"]
            results.append(MachineResult(rid, label, state, said, ledgers[m], group))
        return Verdict(results, len(self.ledgers))


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
