"""From records to verdicts: what the site may say about each block.

A record counts for a block only when its ``sha256`` equals the hash of the
block's current code: code changed since its last run is *stale*, never green.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ruota_docs.records import stored
from ruota_docs.records.schema import JSON, BlockRef, Machine, Record, Result

PRIORITY = ("failed", "passed", "skipped", "stale", "absent")


def machine_label(machine: Machine | Mapping[str, Any]) -> str:
    """``NVIDIA H200 (CUDA)``, ``AMD Radeon RX 7600 (ROCm, gfx1102)``, ``CPU x86_64`` (`Machine.label`,
    of a machine or of its JSON)."""
    return (machine if isinstance(machine, Machine) else Machine.from_json(machine)).label


def record_id(record: Record) -> str:
    """What tells one record from another: the machine's id, and its fingerprint where it has one
    (two RX 7600s are both ``rocm-gfx1102``; their records are two machines)."""
    fingerprint = record.fingerprint
    return f"{record.machine_id}-{fingerprint[:8]}" if fingerprint else str(record.machine_id)


#: The machine of a result whose record is not known.
_NO_MACHINE = Machine()

#: ``(stored result, outputs, reasons, its page's ran_at)``: where a `MachineResult` reads its result from.
Stored = tuple[JSON, Mapping[str, str], Mapping[str, JSON], "str | None"]


class MachineResult:
    """One record's result for a block."""

    __slots__ = ("machine_id", "label", "state", "record", "group", "ran_at", "_entry", "_stored")

    def __init__(self, machine_id: str, label: str, state: str, entry: Result | None = None,
                 record: Record | None = None, group: tuple[str, str] = ("", ""), stored: Stored | None = None,
                 ran_at: str | None = None) -> None:
        self.machine_id = machine_id  #: the record's id (`record_id`): unique among the records
        self.label = label
        self.state = state  #: passed, failed, skipped or stale (machines without the block have no result)
        self.record = record  #: the whole record (machine, fingerprint, provenance); None: not known
        if group == ("", ""):
            # a result that does not say what machine it is for counts on its own
            group = record.machine.group if record is not None and record.machine.backend else ("", machine_id)
        #: ``(backend, target)``: the machines a block panel counts together (`Machine.group`)
        self.group = group
        self._entry = entry
        #: the stored result of a stored record (`Stored`): `entry` is read from it when asked
        self._stored = stored
        #: when it ran (``entry.ran_at``, known without reading the rest of the result)
        self.ran_at = ran_at if ran_at is not None or entry is None else entry.ran_at

    @property
    def entry(self) -> Result | None:
        """What the record says of the block. Read from the stored record when first asked for
        (`ruota_docs.records.stored.read_result`): a site holds a result per block and machine,
        and reads the fields of few of them."""
        if self._entry is None and self._stored is not None:
            self._entry = stored.read_result(*self._stored)
        return self._entry

    @property
    def credited(self) -> dict[str, str]:
        """Language of a copy → the language whose run it was credited with (the stored result's
        ``credited``; a result read as one copy's says so in its ``reused_from``)."""
        return (self._stored[0].get("credited") or {}) if self._stored is not None else {}

    def table_key(self, name: str) -> str | None:
        """The key of this result's ``output`` or ``reason`` in its record's table of them (None where
        it has none, or the result was not read from a stored record)."""
        return self._stored[0].get(name) if self._stored is not None else None

    @property
    def reason_key(self) -> Hashable:
        """What tells this result's reason from another's without reading it: the key of its record's
        reason (a hash of the reason, the same in every record), else the reason itself."""
        if self._stored is not None:
            return self._stored[0].get("reason")
        entry = self._entry
        return (entry.reason, repr(entry.reason_code)) if entry is not None else (None, "None")

    @property
    def machine(self) -> Machine:
        return self.record.machine if self.record is not None else _NO_MACHINE

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MachineResult):
            return NotImplemented
        return (self.machine_id, self.label, self.state, self.entry, self.record, self.group) == \
            (other.machine_id, other.label, other.state, other.entry, other.record, other.group)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"MachineResult({self.machine_id!r}, {self.label!r}, {self.state!r}, {self.entry!r}, "
                f"group={self.group!r})")


@dataclass
class Verdict:
    """What the records say about one block: a result for each machine that ran its current
    code, or ran an older one (stale); ``machines`` counts every record, with the block or not."""

    results: list[MachineResult] = field(default_factory=list)
    machines: int = 0
    #: what readers derive from the results, kept for the other copies of the block that share them
    memo: dict[Hashable, Any] = field(default_factory=dict, repr=False, compare=False)

    def kept(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """``make()``, computed once and kept under ``key`` (what it makes is shared: read it, do not change it)."""
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]

    def by_state(self, state: str) -> list[MachineResult]:
        """The results in ``state``."""
        found: list[MachineResult] = self.kept("states", self._by_states).get(state, [])
        return found

    def _by_states(self) -> dict[str, list[MachineResult]]:
        found: dict[str, list[MachineResult]] = {}
        for result in self.results:  # one pass for every state
            if result.state in found:
                found[result.state].append(result)
            else:
                found[result.state] = [result]
        found.pop("absent", None)
        return found

    def tally(self) -> Counter[tuple[tuple[str, str], str]]:
        """How many results of each ``(backend, target)`` group are in each state."""
        found: Counter[tuple[tuple[str, str], str]] = self.kept(
            "tally", lambda: Counter((r.group, r.state) for r in self.results))
        return found

    def latest_run(self, state: str | None = None) -> str | None:
        """When the latest of its runs (in ``state``) was (``ran_at``), None where no machine ran it."""
        results = self.results if state is None else self.by_state(state)
        found: str | None = self.kept(("latest", state),
                                      lambda: max(filter(None, (r.ran_at for r in results)), default=None))
        return found

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


Held = tuple[BlockRef, Result]


class PageEntries(dict[str, list[Held]]):
    """A record's results grouped by page (``page → [(block, result), …]``), with the lookups a
    verdict needs indexed, so a page of thousands of blocks costs linear time."""

    def __init__(self, results: Iterable[Held]) -> None:
        super().__init__()
        self.by_code: dict[tuple[str, str], list[Held]] = {}
        self.by_index: dict[tuple[str, int], Held] = {}
        for held in results:
            block, result = held
            self.setdefault(block.page, []).append(held)
            self.by_code.setdefault((block.page, result.sha256), []).append(held)
            self.by_index[(block.page, block.index)] = held


#: ``(record number, the places it holds the code at (language → block index), its result)``
Found = tuple[int, dict[str, int], MachineResult]


class Index:
    """Every record and, across them, the results of each code: a verdict costs what the
    records of that block hold, not one lookup per record, and each block's verdict is
    computed once per build.

    The records are indexed in their stored form (`ruota_docs.records.stored.parts`: one result
    for the copies of a block in every language): a site reads a thousand records, and
    expanding each into one result per language would cost it more than everything else it
    does with them. Iterating gives ``(record, PageEntries)`` for each record, expanded when
    first asked for (the site's pages never need them)."""

    def __init__(self, records: Iterable[Record]) -> None:
        self.ledgers = list(records)
        self._stored = [stored.parts(record) for record in self.ledgers]
        self.labels = [(record_id(data), data.machine.label, data.machine.group)
                       for data in self.ledgers]
        # records are numbered in the order verdicts list them (by record id), so that a verdict's
        # results need no sorting by anything but their number
        self._order = sorted(range(len(self.ledgers)), key=lambda n: self.labels[n][0])
        #: (page under the language folders, code, whether the site has language folders) → [(record, the
        #: places it holds the code at (``at``: language → block index), its result), …] in record order: one
        #: result for the copies of a block in every language, whose fields are read only where a verdict's
        #: reader asks (`MachineResult.entry`). A page of a site without language folders is under its own path.
        self.by_code: dict[tuple[str, str, bool], list[Found]] = {}
        #: the same page → [(record, stored page), …]: the records that hold it, any code
        self.by_page: dict[tuple[str, bool], list[tuple[int, JSON]]] = {}
        self._index()
        self.cache: dict[tuple[str, int, str], Verdict] = {}
        self._copies: dict[tuple[str, int, str], list[tuple[list[Found], list[int], Verdict]]] = {}  # see `verdict`
        self._at: dict[tuple[str, str, bool], dict[tuple[str, int], list[Found]]] = {}  # code → its results by place
        self._pages: list[tuple[Record, PageEntries]] | None = None

    def _index(self) -> None:
        # a thousand records hold two hundred thousand results, spread over memory: each is read once, here
        by_code, by_page, labels, ledgers = self.by_code, self.by_page, self.labels, self.ledgers
        places: dict[tuple[tuple[str, int], ...], dict[str, int]] = {}
        for n, m in enumerate(self._order):
            (pages, reasons, outputs), record = self._stored[m], ledgers[m]
            rid, label, group = labels[m]
            for rest, page in pages.items():
                folders = page.get("folders", True)
                ran_at = page.get("ran_at")
                held = (rest, folders)
                if held in by_page:
                    by_page[held].append((n, page))
                else:
                    by_page[held] = [(n, page)]
                for result in page["results"]:
                    outcome = result["outcome"]
                    # the places a result holds its code at are alike in most records: one dict for them all
                    at = result["at"]
                    at = places.setdefault(tuple(at.items()), at)
                    found = (n, at, MachineResult(rid, label, "failed" if outcome == "error" else outcome, None,
                                                  record, group, (result, outputs, reasons, ran_at),
                                                  result.get("ran_at") or ran_at))
                    code = (rest, result["sha256"], folders)
                    if code in by_code:
                        by_code[code].append(found)
                    else:
                        by_code[code] = [found]

    def __len__(self) -> int:
        return len(self.ledgers)

    def __iter__(self) -> Iterator[tuple[Record, PageEntries]]:
        if self._pages is None:
            self._pages = [(data, PageEntries(data.results.items())) for data in self.ledgers]
        return iter(self._pages)

    def __getitem__(self, n: int) -> tuple[Record, PageEntries]:
        return list(self)[n]

    def verdict(self, page: str, index: int, sha256: str) -> Verdict:
        key = (page, index, sha256)
        found = self.cache.get(key)
        if found is None:
            first, rest = page.partition("/")[::2]
            lang: str | None = first
            if (rest, True) not in self.by_page:  # a site without language folders: the page under its own path
                lang, rest = None, page
            code, pages = (rest, sha256, lang is not None), self.by_page.get((rest, lang is not None), ())
            exact = self._places(code).get((lang, index), []) if lang is not None else []
            chosen: list[Found]
            stale: list[int]
            if len(exact) == len(pages):  # every record holding the page holds this code at this place
                chosen, stale = exact, []
            else:
                chosen, stale = self._held(index, lang, self.by_code.get(code, ()), pages)
            # the copies of a block in other languages share a verdict where every record holds
            # them alike (the same results, and the same records whose code changed since)
            copies = self._copies.setdefault((rest, index, sha256), [])
            found = next((v for c, s, v in copies if s == stale and c == chosen), None)
            if found is None:
                found = self._verdict(chosen, stale)
                copies.append((chosen, stale, found))
            self.cache[key] = found
        return found

    def _places(self, code: tuple[Any, ...]) -> dict[tuple[str, int], list[Any]]:
        """``code``'s results by the place each holds it at, ``(language, block index)``, in record order."""
        found = self._at.get(code)
        if found is None:
            codes = self.by_code.get(code, ())
            if codes and all(held[1] is codes[0][1] for held in codes):  # at the same places in every record
                found = self._at[code] = dict.fromkeys(codes[0][1].items(), codes)
                return found
            found = self._at[code] = {}
            for held in codes:
                for place in held[1].items():
                    if place in found:
                        found[place].append(held)
                    else:
                        found[place] = [held]
        return found

    def _held(self, index: int, lang: str | None, codes: Iterable[Found],
              pages: Sequence[tuple[int, JSON]]) -> tuple[list[Found], list[int]]:
        """``([(record, places, result), …], [record, …])``: what each record holds of the block, and
        the records whose block at ``index`` has other code (stale). ``lang`` None: any language's copy."""
        chosen: dict[int, tuple[Any, ...]] = {}
        for held in codes:  # the block itself, else the same code elsewhere on the page
            n, at = held[0], held[1]
            if lang is None:
                if index in at.values() or n not in chosen:
                    chosen[n] = held
            elif lang in at and (at[lang] == index or n not in chosen):
                chosen[n] = held
        if len(chosen) == len(pages):  # every record that holds the page holds the code
            return list(chosen.values()), []
        stale = []
        for n, page in pages:
            if n not in chosen and any((index in r["at"].values()) if lang is None else r["at"].get(lang) == index
                                       for r in page["results"]):
                stale.append(n)
        return list(chosen.values()), stale

    def _verdict(self, chosen: list[Any], stale: list[Any]) -> Verdict:
        """The verdict of the results ``chosen`` (``(record, places, result)``, in record order) and of
        the records ``stale`` (whose block has other code)."""
        if not stale:
            return Verdict([held[2] for held in chosen], len(self.ledgers))
        results = [(held[0], held[2]) for held in chosen]
        for n in stale:
            m = self._order[n]
            rid, label, group = self.labels[m]
            results.append((n, MachineResult(rid, label, "stale", None, self.ledgers[m], group)))
        return Verdict([r for _, r in sorted(results, key=lambda item: item[0])], len(self.ledgers))


def index_ledgers(records: Iterable[Record]) -> Index:
    """Every record's results indexed for fast lookups."""
    return Index(records)


def verdict(page: str, index: int, sha256: str, indexed: Index | Iterable[tuple[Record, PageEntries]]) -> Verdict:
    """The verdict for block ``index`` of ``page`` whose code hashes to ``sha256``."""
    if isinstance(indexed, Index):
        return indexed.verdict(page, index, sha256)
    pairs = list(indexed)
    result = Verdict(machines=len(pairs))
    for data, pages in pairs:
        same = pages.by_code.get((page, sha256), [])
        held = next((h for h in same if h[0].index == index), same[0] if same else None)
        entry = held[1] if held is not None else None
        if entry is not None:
            state = "failed" if entry.outcome == "error" else entry.outcome
        elif (page, index) in pages.by_index:
            state = "stale"
        else:
            continue
        label = data.machine.label
        result.results.append(MachineResult(record_id(data), label, state, entry, data))
    return result
