"""The record: what happened to block *i* of page *p* on machine *m*, as one typed model.

This is the contract between the run, the records and the site. The run makes a `Result`
for each block it decides (`BlockRef` says which block), the record (`Record`) holds this
machine's results, and the site reads them back, attribute by attribute. The record reads
and writes its own JSON (`Record.from_json`, `Record.to_json`; the stored form, where the
copies of a block in each language share one result, is `ruota_docs.records.stored`).

Everything else about a record's fields derives from the dataclass fields below: the
field list and types `record check` holds a record to (`ENTRY_FIELDS`), the fields left
out of the JSON where they are null (`OMITTED_IF_NULL`), the fields that may be absent in
older records (`OPTIONAL_FIELDS`), and the fields of the docs' excerpt. A new field is one
line in `Result` (with ``optional=True`` it is absent from the JSON while unset, so records
that do not use it keep their bytes) plus its display on the site.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
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
    """A record that cannot be read or written as it is; the message names the file and the field."""


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
    """The current UTC time as records write it: ``2026-12-06T01:02:03Z``."""
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class BlockRef:
    """Which block: the copy in language ``lang`` of a page (``es/guides/x.md``), its ``index``
    among the page's blocks, and the page ``line`` it starts at (not part of its identity)."""

    page: str  #: path under the docs folder, language folder included: ``es/guides/keras-rx7600.md``
    lang: str  #: the page's language (the language folder), ``es``
    index: int  #: position among the page's blocks
    line: int | None = field(default=None, compare=False)  #: None where the record does not say

    @property
    def key(self) -> str:
        """``es/guides/x.md#3``: how records and reports name the block."""
        return f"{self.page}#{self.index}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """What one run of a block on one machine came to."""

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
        """The block and its result as one JSON object, in `ENTRY_FIELDS` order (``line`` and
        ``signature`` left out where unknown)."""
        entry: JSON = {"page": block.page, "lang": block.lang, "index": block.index}
        if block.line is not None:
            entry["line"] = block.line
        for name, key in _JSON_NAMES:
            value = getattr(self, name)
            if value is None and name in _ABSENT_IF_NULL:
                continue  # unknown, or not reached
            entry[key] = value
        return entry

    @classmethod
    def from_entry(cls, entry: Mapping[str, Any]) -> Result:
        """The result of an entry (`to_entry`'s form); fields it lacks take their defaults."""
        missing = [key for name, key in _JSON_NAMES if key not in entry and name in _REQUIRED]
        if missing:
            raise RecordError(f"entry {entry.get('page')}#{entry.get('index')}: missing field {missing[0]!r}")
        return cls(**{name: entry[key] for name, key in _JSON_NAMES if key in entry})


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One machine's results, block by block, and where they come from."""

    machine_id: str | None
    #: the machine (`ruota_docs.records.machine.Device.to_dict`; no host or user name)
    machine: JSON = field(default_factory=dict)
    fingerprint: str | None = None  #: tells two machines of one kind apart (`ruota_docs.records.provenance`)
    provenance: JSON | None = None  #: where the record comes from: a CI run, or sent by its owner
    updated: str | None = None  #: when it was last written (UTC)
    results: Mapping[BlockRef, Result] = field(default_factory=dict)  #: in page and block order

    @classmethod
    def from_json(cls, raw: bytes | str, path: object = "record") -> Record:
        """Decode a record's JSON (the stored form); `RecordError` names ``path`` and what is wrong."""
        from ruota_docs.records import stored  # noqa: PLC0415 — the codec imports this module

        return stored.decode(stored.parse(raw, path), path)

    def to_json(self) -> str:
        """The record's JSON, as the engine writes it (`ruota_docs.records.stored.lines`)."""
        from ruota_docs.records import stored  # noqa: PLC0415 — the codec imports this module

        return "".join(stored.lines(stored.encode(self)))

    def head(self) -> JSON:
        """The record's fields other than its results, in the order the JSON has them."""
        found: JSON = {"schema": SCHEMA, "kind": KIND, "machine_id": self.machine_id, "machine": self.machine}
        if self.fingerprint is not None:
            found["fingerprint"] = self.fingerprint
        if self.provenance is not None:
            found["provenance"] = self.provenance
        return found | {"updated": self.updated}

    def to_dict(self) -> JSON:
        """The record as one JSON object: its head, and ``blocks``: every result as an entry
        (`Result.to_entry`) keyed ``page#index``. Not what is written (`to_json` is): a view for
        tools and tests."""
        return self.head() | {"blocks": self.entries()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Record:
        """The record of `to_dict`'s form (what it lacks takes its default)."""
        results = {BlockRef(e["page"], e["lang"], e["index"], e.get("line")): Result.from_entry(e)
                   for e in (data.get("blocks") or {}).values()}
        return cls(machine_id=data.get("machine_id"), machine=data.get("machine") or {},
                   fingerprint=data.get("fingerprint"), provenance=data.get("provenance"), updated=data.get("updated"),
                   results=results)

    def entries(self) -> dict[str, JSON]:
        """Every result as an entry (`Result.to_entry`), keyed ``page#index``."""
        return {block.key: result.to_entry(block) for block, result in self.results.items()}

    def by_key(self) -> dict[str, tuple[BlockRef, Result]]:
        """``page#index`` → the block and its result."""
        return {block.key: (block, result) for block, result in self.results.items()}

    def replace(self, **changes: Any) -> Record:
        return dataclasses.replace(self, **changes)


def merge(old: Record, results: Mapping[BlockRef, Result], complete_pages: set[str], machine: JSON,
          forget: AbstractSet[str] = frozenset()) -> Record:
    """``old`` updated with this run's ``results``.

    Pages in ``complete_pages`` were run in full: their old results are dropped first, so
    blocks that no longer exist leave the record. Keys (``page#index``) in ``forget`` are blocks
    this run collected and did not run: an old result of theirs would pass for this run's."""
    kept = {b: r for b, r in old.results.items() if b.page not in complete_pages and b.key not in forget}
    for block, result in results.items():
        kept.pop(block, None)  # the new line, not the old one
        kept[block] = result
    ordered = dict(sorted(kept.items(), key=lambda item: (item[0].page, item[0].index)))
    return Record(machine_id=machine.get("machine_id"), machine=machine, fingerprint=old.fingerprint,
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
    "page": (str,), "lang": (str,), "index": (int,), "line": (int,),
    **{key: _types(_HINTS[name]) for name, key in _JSON_NAMES},
}
#: Entry fields a record may lack (written before they existed).
OPTIONAL_FIELDS = tuple(key for f, (_, key) in zip(_FIELDS, _JSON_NAMES) if f.metadata.get("optional"))
#: Fields left out of a stored result where they are null, and read back as null.
OMITTED_IF_NULL = tuple(key for f, (_, key) in zip(_FIELDS, _JSON_NAMES)
                        if f.metadata.get("omit_null") and not f.metadata.get("per_copy")
                        and not f.metadata.get("table"))
#: Entry fields that differ between the copies of a block (stored as ``at``, the page's ``lines``
#: and ``signatures``, and ``credited``).
PER_COPY = ("page", "lang", "index", "line",
            *(key for f, (_, key) in zip(_FIELDS, _JSON_NAMES) if f.metadata.get("per_copy")))
#: Fields that may differ between copies that share one result (the latest is kept).
MERGED = tuple(key for f, (_, key) in zip(_FIELDS, _JSON_NAMES) if f.metadata.get("merged"))
#: Entry fields a stored result holds in the table of reasons, by reference.
REASON_FIELDS = tuple(key for f, (_, key) in zip(_FIELDS, _JSON_NAMES) if f.metadata.get("table"))
#: Text fields the site shows readers, by where: ``tab`` (a block's output tabs) or ``mark`` (its marks).
SHOWN_FIELDS: dict[str, tuple[str, ...]] = {
    where: tuple(f.name for f in sorted(_FIELDS, key=lambda f: str(f.metadata.get("shown")))
                 if str(f.metadata.get("shown")).startswith(where)) for where in ("tab", "mark")}
#: Every field of ``machine`` (see `ruota_docs.records.machine.Device`) and the types it may hold.
MACHINE_FIELDS: dict[str, tuple[type, ...]] = {
    "backend": (str,), "gpu_name": (str, type(None)), "arch": (str, type(None)), "vram_bytes": (int, type(None)),
    "gpu_count": (int,), "os": (str,), "machine": (str,), "python": (str,), "torch": (str, type(None)),
    "hip": (str, type(None)), "cuda": (str, type(None)), "packages": (dict,), "machine_id": (str,),
}
