"""The record: what happened to block *i* of page *p* on machine *m*, as one typed model.

This is the contract between the run, the records and the site. The run produces a `Result`
for each block it runs or skips (`BlockRef` identifies the block), the record (`Record`) holds this
machine's results, and the site reads them back, attribute by attribute. The record reads
and writes its own JSON with `Record.from_json` and `Record.to_json`. In the stored form,
described in `ruota_docs.records.stored`, the copies of a block in each language share one
result.

Everything else about a record's fields derives from the dataclass fields below:

- the field list and types that `record check` holds a record to (`ENTRY_FIELDS`);
- the fields left out of the JSON when they are null (`OMITTED_IF_NULL`);
- the fields that may be absent in older records (`OPTIONAL_FIELDS`);
- the fields of the sample entry on the page *How each block is verified* (``about-verification.md``).

Adding a field takes one line in `Result`, plus the code that displays it on the site. With ``optional=True``,
it is absent from the JSON while unset, so records that do not use it stay byte-for-byte unchanged.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import types
import typing
from collections.abc import Mapping, Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Union

#: The format the engine writes; `record check` refuses any other.
SCHEMA = 3
KIND = "ruota-docs/ledger"
#: What a block's run may end in (``error``: the engine itself failed on the block).
OUTCOMES = ("passed", "failed", "skipped", "error")
#: How a block's code may have been isolated (`Result.isolation`; `ruota_docs.run.sandbox` chooses).
ISOLATIONS = ("sandbox", "user", "none")
#: Bytes of a block's output kept in the record; the middle of longer output is cut.
OUTPUT_LIMIT = 20_000
#: The note the engine puts where it cuts a long output, at its longest.
CUT_NOTE = 80
#: Bytes of a whole record: the engine writes about 85 KB for the whole site (one result per
#: code, each output once); a record several times larger holds what no run of it prints.
RECORD_LIMIT = 512 * 1024

JSON = dict[str, Any]


class RecordError(ValueError):
    """A record that cannot be read or written as it is. The message names the file and the field."""


def _field(default: Any = None, *, json: str | None = None, omit_null: bool = False, optional: bool = False,
           absent: bool = False, per_copy: bool = False, merged: bool = False, table: bool = False,
           shown: str | None = None) -> Any:
    """A `Result` field and how its JSON treats it.

    ``json``: its name in the JSON where that differs; ``omit_null``: left out of a stored result
    where null (most are), read back as null; ``optional``: may be absent from a record (one
    written before it existed), implies ``omit_null``; ``absent``: left out of an entry
    (`Result.to_entry`) too where null, never written as null; ``per_copy``: differs between a block's copies
    in each language (stored beside the shared result); ``merged``: may differ between copies that
    share a result (the latest is kept); ``table``: stored once in the record's table of reasons;
    ``shown``: text the site shows readers, ``"tab N"`` in a block's output tabs or ``"mark N"`` in
    its marks, N its place there (what publishing holds to the private-data rules, in that order:
    `ruota_docs.site.published`)."""
    meta = {"json": json, "omit_null": omit_null or optional, "optional": optional, "absent": absent,
            "per_copy": per_copy, "merged": merged, "table": table, "shown": shown}
    return field(default=default, metadata=meta)


def now() -> str:
    """The current UTC time as records write it, such as ``2026-12-06T01:02:03Z``."""
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class BlockRef:
    """Which block a result belongs to.

    A block is identified by its page (``es/guides/x.md``), the language ``lang`` of that copy
    of the page, and its ``index`` among the page's blocks. Its location is kept too, but is not
    part of its identity: the ``line`` where its fence starts, on the page or in the included
    Markdown ``file`` that holds the fence."""

    page: str  #: path under the docs directory, language folder included: ``es/guides/keras-rx7600.md``
    lang: str  #: the page's language (the language folder), ``es``
    index: int  #: position among the page's blocks
    line: int | None = field(default=None, compare=False)  #: None where the record does not say
    #: the included Markdown file the fence is written in, relative to the project (``snippets/part.md``);
    #: None for a fence written on the page
    file: str | None = field(default=None, compare=False)

    @property
    def key(self) -> str:
        """How records and reports name the block, such as ``es/guides/x.md#3``."""
        return f"{self.page}#{self.index}"

    @classmethod
    def from_entry(cls, entry: Mapping[str, Any]) -> BlockRef:
        """The block referred to by an entry of the form that `Result.to_entry` returns."""
        return cls(entry["page"], entry["lang"], entry["index"], entry.get("line"), entry.get("file"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """The outcome of one run of a block on one machine."""

    #: the block's own language, as written after its fence (``python``, ``py3``), '' for none; the page's is
    #: `BlockRef.lang`
    fence_language: str = field(metadata={"json": "language"})
    sha256: str  #: the SHA-256 of the block's code: a result counts only for this code
    block_id: str | None = _field(json="id", omit_null=True)  #: the block's ``id`` option
    outcome: str  #: one of `OUTCOMES`
    #: the English of ``reason_code`` (skip reason, failure summary)
    reason: str | None = _field(table=True, shown="mark 1")
    error: str | None = _field(omit_null=True, shown="tab 2")  #: traceback or report
    duration: float = 0.0  #: seconds
    output: str = _field("", omit_null=True, shown="tab 1")  #: what it printed (cut to `OUTPUT_LIMIT`)
    ran_at: str | None = _field(merged=True)  #: when (UTC)
    reused_from: str | None = _field(per_copy=True)  #: the page whose identical block's run this copy is credited with
    signature: str | None = _field(per_copy=True, optional=True, absent=True)  #: the hash of the page's block sequence
    as_root: bool | None = _field(omit_null=True, optional=True)  #: the code ran as root; None where none ran
    #: the reason as data, ``{"code": …, "args": {…}}`` (`ruota_docs.records.reason_codes`)
    reason_code: JSON | None = _field(table=True, optional=True)
    #: the evidence tier a passed block reached: ``compiled``, ``ran`` or ``checked`` (`ruota_docs.blocks.tiers`)
    tier: str | None = _field(optional=True, absent=True)
    #: how the code was isolated: ``sandbox`` (bubblewrap), ``user`` (the unprivileged user), ``none``;
    #: None where no code ran (`ruota_docs.run.sandbox`)
    isolation: str | None = _field(optional=True, absent=True)

    def to_entry(self, block: BlockRef) -> JSON:
        """The block and its result as one JSON object, in `ENTRY_FIELDS` order.

        The fields ``line``, ``file`` and ``signature`` are left out when they are unknown."""
        entry: JSON = {"page": block.page, "lang": block.lang, "index": block.index}
        if block.line is not None:
            entry["line"] = block.line
        if block.file is not None:
            entry["file"] = block.file
        for name, key in _JSON_NAMES:
            value = getattr(self, name)
            if value is None and name in _ABSENT_IF_NULL:
                continue  # unknown, or not reached
            entry[key] = value
        return entry

    @classmethod
    def from_entry(cls, entry: Mapping[str, Any]) -> Result:
        """The result stored in an entry of the form that `to_entry` returns. Missing fields take their defaults."""
        missing = [key for name, key in _JSON_NAMES if key not in entry and name in _REQUIRED]
        if missing:
            raise RecordError(f"entry {entry.get('page')}#{entry.get('index')}: missing field {missing[0]!r}")
        return cls(**{name: entry[key] for name, key in _JSON_NAMES if key in entry})


@dataclass(frozen=True, slots=True)
class Backend:
    """What a machine computes on, and the words for it."""

    name: str  #: as the site names a group of machines: ``ROCm``, ``CUDA``, ``CPU`` (``CPU x86_64``)
    described: str  #: as skip reasons describe the machine (`Machine.describe`): ``CPU only, x86_64``
    order: int  #: where its machines appear in the site's lists: ROCm, then CUDA, then the CPU


#: Every backend by the record's ``machine.backend``: the one table of these words.
BACKENDS: dict[str, Backend] = {
    "rocm": Backend("ROCm", "ROCm", 0),
    "cuda": Backend("CUDA", "CUDA", 1),
    "cpu": Backend("CPU", "CPU only", 2),
}


def backend_order(backend: str) -> int:
    """Where a backend's machines appear in the site's lists (`Backend.order`). An unknown backend comes last."""
    return BACKENDS[backend].order if backend in BACKENDS else len(BACKENDS)


def slug(text: str) -> str:
    """The text as lower-case ASCII words joined by hyphens, so ``NVIDIA H100 80GB HBM3`` becomes
    ``nvidia-h100-80gb-hbm3``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


@dataclass(frozen=True, slots=True)
class Machine:
    """The machine on which a record's blocks ran, as the run's probe describes it (`ruota_docs.run.device.probe`).

    It holds no host or user name. Its fields are those of the record's ``machine`` object, in
    the same order."""

    backend: str = ""  #: ``rocm``, ``cuda`` or ``cpu``: what PyTorch computes on
    gpu_name: str | None = None  #: marketing name of the first GPU
    #: ``gfx…`` target on ROCm (features such as ``:xnack-`` stripped), ``sm_XY`` on CUDA, None on the CPU
    arch: str | None = None
    vram_bytes: int | None = None  #: total memory of the first GPU
    gpu_count: int = 0  #: how many GPUs PyTorch sees
    os: str = ""  #: ``linux``, ``windows`` or ``macos``
    machine: str = ""  #: CPU architecture (``x86_64``, ``arm64``…)
    python: str = ""  #: Python version (``3.11.7``)
    torch: str | None = None  #: torch version, None where torch is not installed
    hip: str | None = None  #: HIP version of a ROCm build of torch
    cuda: str | None = None  #: CUDA version of a CUDA build of torch
    packages: dict[str, str] = field(default_factory=dict)  #: versions of the packages the guides use
    #: names the hardware class (`named_id`, where the machine is described rather than read back)
    machine_id: str = ""

    def __post_init__(self) -> None:
        if not self.machine_id and self.backend:  # described by the probe, not read back
            object.__setattr__(self, "machine_id", self.named_id)

    @property
    def named_id(self) -> str:
        """The machine class the engine gives this machine, such as ``cpu-x86_64``,
        ``cuda-nvidia-h100-80gb-hbm3`` or ``rocm-gfx1102``."""
        if self.backend == "rocm" and self.arch:
            return f"rocm-{self.arch}"
        if self.backend == "cuda" and self.gpu_name:
            return "cuda-" + slug(self.gpu_name)
        return f"cpu-{re.sub(r'[^a-z0-9_]+', '-', self.machine.lower()) or 'unknown'}"

    def describe(self) -> str:
        """One phrase that names the machine, as skip reasons quote it, such as ``CUDA, NVIDIA H100 80GB HBM3``."""
        words = BACKENDS[self.backend].described if self.backend in BACKENDS else self.backend
        return f"{words}, {self.gpu_name or self.machine}"

    @property
    def label(self) -> str:
        """The machine's label as records keep it, such as ``NVIDIA H100 80GB HBM3 (CUDA)``,
        ``AMD Radeon VII (ROCm, gfx906)`` or ``CPU x86_64``. Pages name a machine more briefly, in
        their own language: by its card's model (“NVIDIA H100”, “AMD Radeon VII”), or for a CPU by its
        architecture (“x86-64 CPU” in English)."""
        if self.backend == "cuda" and self.gpu_name:
            return f"{self.gpu_name} ({BACKENDS['cuda'].name})"
        if self.backend == "rocm":
            name, rocm = self.gpu_name or "AMD GPU", BACKENDS["rocm"].name
            return f"{name} ({rocm}, {self.arch})" if self.arch else f"{name} ({rocm})"
        return f"{BACKENDS['cpu'].name} {self.machine}".strip()

    @property
    def target(self) -> str:
        """What results are grouped by: the GPU target (``gfx1102``, ``sm_90``), or else the CPU architecture."""
        return self.arch or self.machine or "?"

    @property
    def group(self) -> tuple[str, str]:
        """The pair ``(backend, target)``, such as ``("rocm", "gfx1102")`` or ``("cpu", "x86_64")``."""
        return self.backend, self.target

    def to_json(self) -> JSON:
        """The record's ``machine`` object, with every field in order."""
        return {f.name: dict(self.packages) if f.name == "packages" else getattr(self, f.name)
                for f in _MACHINE_FIELDS}

    to_dict = to_json  # the name `ruota_docs.run.device.probe`'s callers knew it by

    @classmethod
    def from_json(cls, data: Any, where: object = "machine") -> Machine:
        """The machine built from a record's ``machine`` object. Missing fields take their defaults.

        Only its shape is checked here: it must be an object of known fields, and a `RecordError`
        names anything else. The types and meaning of its values are checked by `record check`
        (`ruota_docs.records.check`), which names each field that a record gets wrong."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RecordError(f"{where}: must be an object, not {type(data).__name__}")
        unknown = next((key for key in data if key not in MACHINE_FIELDS), None)
        if unknown is not None:
            raise RecordError(f"{where}.{unknown}: not a field of a machine this ruota-docs knows; it writes only: "
                              f"{', '.join(MACHINE_FIELDS)}")
        return cls(**data)


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One machine's results, block by block, and where they come from."""

    machine_id: str | None
    machine: Machine = field(default_factory=Machine)  #: the machine the blocks ran on
    fingerprint: str | None = None  #: tells two machines of one kind apart (`ruota_docs.records.provenance`)
    provenance: JSON | None = None  #: where the record comes from: a CI run, or sent by its owner
    updated: str | None = None  #: when it was last written (UTC)
    results: Mapping[BlockRef, Result] = field(default_factory=dict)  #: in page and block order

    @classmethod
    def from_json(cls, raw: bytes | str, path: object = "record") -> Record:
        """The record decoded from its JSON, in its stored form. A `RecordError` names ``path`` and what is wrong."""
        from ruota_docs.records import stored  # noqa: PLC0415 — the codec imports this module

        return stored.decode(stored.parse(raw, path), path)

    def to_json(self) -> str:
        """The record's JSON, as the engine writes it (`ruota_docs.records.stored.lines`)."""
        from ruota_docs.records import stored  # noqa: PLC0415 — the codec imports this module

        return "".join(stored.lines(stored.encode(self)))

    def head(self) -> JSON:
        """The record's fields other than its results, in the order the JSON has them."""
        found: JSON = {"schema": SCHEMA, "kind": KIND, "machine_id": self.machine_id,
                       "machine": self.machine.to_json()}
        if self.fingerprint is not None:
            found["fingerprint"] = self.fingerprint
        if self.provenance is not None:
            found["provenance"] = self.provenance
        return found | {"updated": self.updated}

    def to_dict(self) -> JSON:
        """The record as one JSON object, for tools and tests.

        The object holds the record's head and ``blocks``, with every result as an entry
        (`Result.to_entry`) keyed ``page#index``. This is not the form written to disk. That form
        comes from `to_json`."""
        return self.head() | {"blocks": self.entries()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Record:
        """The record from an object of `to_dict`'s form. Missing fields take their defaults."""
        results = {BlockRef.from_entry(e): Result.from_entry(e) for e in (data.get("blocks") or {}).values()}
        return cls(machine_id=data.get("machine_id"), machine=Machine.from_json(data.get("machine")),
                   fingerprint=data.get("fingerprint"), provenance=data.get("provenance"), updated=data.get("updated"),
                   results=results)

    def entries(self) -> dict[str, JSON]:
        """Every result as an entry (`Result.to_entry`), keyed ``page#index``."""
        return {block.key: result.to_entry(block) for block, result in self.results.items()}

    def by_key(self) -> dict[str, tuple[BlockRef, Result]]:
        """Each block and its result, keyed ``page#index``."""
        return {block.key: (block, result) for block, result in self.results.items()}

    def replace(self, **changes: Any) -> Record:
        return dataclasses.replace(self, **changes)


def merge(old: Record, results: Mapping[BlockRef, Result], complete_pages: set[str], machine: Machine,
          forget: AbstractSet[str] = frozenset()) -> Record:
    """The ``old`` record, updated with this run's ``results``.

    Pages in ``complete_pages`` were run in full, so their old results are dropped first and
    blocks that no longer exist leave the record. The keys (``page#index``) in ``forget`` are
    blocks that this run collected but did not run. Their old results are dropped too, since
    they would otherwise pass for this run's."""
    kept = {b: r for b, r in old.results.items() if b.page not in complete_pages and b.key not in forget}
    for block, result in results.items():
        kept.pop(block, None)  # the new line, not the old one
        kept[block] = result
    ordered = dict(sorted(kept.items(), key=lambda item: (item[0].page, item[0].index)))
    return Record(machine_id=machine.machine_id, machine=machine, fingerprint=old.fingerprint,
                  provenance=old.provenance, updated=now(), results=ordered)


# -- what derives from the fields ---------------------------------------------------------------------------------
def _types(hint: Any) -> tuple[type, ...]:
    """The JSON types a field of type ``hint`` may hold (a float field takes an int as well)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is Union:
        return tuple(t for arg in typing.get_args(hint) for t in _types(arg))
    if hint is type(None):
        return (type(None),)
    origin = typing.get_origin(hint) or hint
    return (int, float) if origin is float else (origin,)


_HINTS = typing.get_type_hints(Result)
_FIELDS = dataclasses.fields(Result)
#: The `Result` fields an entry leaves out where they are null.
_ABSENT_IF_NULL = frozenset(f.name for f in _FIELDS if f.metadata.get("absent"))
#: The `Result` fields every result holds (no default).
_REQUIRED = frozenset(f.name for f in _FIELDS if f.default is dataclasses.MISSING)
#: ``(attribute, JSON name)`` of each `Result` field, in order.
_JSON_NAMES = tuple((f.name, f.metadata.get("json") or f.name) for f in _FIELDS)
#: Every field of a block's entry (`Result.to_entry`) and the JSON types it may hold.
ENTRY_FIELDS: dict[str, tuple[type, ...]] = {
    "page": (str,), "lang": (str,), "index": (int,), "line": (int,), "file": (str,),
    **{key: _types(_HINTS[name]) for name, key in _JSON_NAMES},
}
#: Entry fields a record may lack: ``file``, where the block is written on its page, and fields newer than the record.
OPTIONAL_FIELDS = ("file", *(key for f, (_, key) in zip(_FIELDS, _JSON_NAMES) if f.metadata.get("optional")))
#: Fields left out of a stored result where they are null, and read back as null.
OMITTED_IF_NULL = tuple(key for f, (_, key) in zip(_FIELDS, _JSON_NAMES)
                        if f.metadata.get("omit_null") and not f.metadata.get("per_copy")
                        and not f.metadata.get("table"))
#: Entry fields that differ between the copies of a block (stored as ``at``, the page's ``lines``,
#: ``files`` and ``signatures``, and ``credited``).
PER_COPY = ("page", "lang", "index", "line", "file",
            *(key for f, (_, key) in zip(_FIELDS, _JSON_NAMES) if f.metadata.get("per_copy")))
#: Fields that may differ between copies that share one result (the latest is kept).
MERGED = tuple(key for f, (_, key) in zip(_FIELDS, _JSON_NAMES) if f.metadata.get("merged"))
#: Entry fields a stored result holds in the table of reasons, by reference.
REASON_FIELDS = tuple(key for f, (_, key) in zip(_FIELDS, _JSON_NAMES) if f.metadata.get("table"))
#: Text fields the site shows readers, by where: ``tab`` (a block's output tabs) or ``mark`` (its marks).
SHOWN_FIELDS: dict[str, tuple[str, ...]] = {
    where: tuple(f.name for f in sorted(_FIELDS, key=lambda f: str(f.metadata.get("shown")))
                 if str(f.metadata.get("shown")).startswith(where)) for where in ("tab", "mark")}
_MACHINE_FIELDS = dataclasses.fields(Machine)
_MACHINE_HINTS = typing.get_type_hints(Machine)
#: Every field of a record's ``machine`` (`Machine`) and the JSON types it may hold.
MACHINE_FIELDS: dict[str, tuple[type, ...]] = {f.name: _types(_MACHINE_HINTS[f.name]) for f in _MACHINE_FIELDS}
