"""How a record is stored: one result per distinct code per page, each output and reason once.

The codec of `ruota_docs.records.schema.Record`. In memory a record holds one
`ruota_docs.records.schema.Result` per page *and language* (``es/guides/x.md#3``). The es,
en and fr copies of a block have the same code and, run once and credited to the others,
the same result, so on disk (``schema`` 3) they share one:

    {
      "schema": 3, "kind": "ruota-docs/ledger", "machine_id": "…", "machine": {…}, "updated": "…",
      "pages": {
        "guides/keras-rx7600.md": {                      (the page, under every language folder)
          "signatures": {"es": "…", "en": "…", "fr": "…"},  (each copy's block sequence)
          "lines": {"es": [12, 40, 120], "en": [12, 38, 118], "fr": [12, 41, 121]},  (each block's line)
          "ran_at": "…",                                 (when most of its blocks ran)
          "results": [
            {"sha256": "…", "at": {"es": 2, "en": 2, "fr": 2}, "credited": {"en": "es", "fr": "es"},
             "outcome": "passed", "duration": 12.5, "output": "3f1c…", "id": "train-offline",
             "language": "python", "as_root": false},
            {"sha256": "…", "at": {"es": 3, "en": 3, "fr": 3}, "outcome": "skipped", "reason": "9a0e…",
             "duration": 0.0, "ran_at": "…", "language": "python"}
          ]
        }
      },
      "reasons": {"9a0e…": {"reason_code": {"code": "requires", "args": {…}}}},
      "outputs": {"3f1c…": "what the block printed"}
    }

``at`` says which block (its index) of which language's copy the result is for, and the
page's ``lines`` where each block of each copy starts (``null`` where a record holds no
line). A block whose fence is written in a Markdown file that an include brings into the
page starts at a line of that file, which the page's ``files`` names at the block's place
(``"files": {"es": [null, "snippets/part.md"]}``, ``null`` for a fence on the page; absent
where every fence is on the page). ``"folders": false`` marks a page of a site without
language folders (its path is its own, not under the language's folder). A result whose copies ran with another page
signature than the page's (a run of some of its blocks) has its own ``signatures``, and one
that ran at another time than the page's ``ran_at`` its own ``ran_at``. ``credited`` names,
for a copy credited with another copy's run, the language that ran it
(`ruota_docs.records.schema.Result.reused_from`). Copies share a result when every
field but ``ran_at`` agrees (a skip decided in each language a few seconds apart is one
result, with the latest time); copies whose results differ keep one each.

``output`` and ``reason`` name an entry of ``outputs`` and of ``reasons`` (keyed by the first
16 hex digits of the SHA-256 of the text, or of the reason as JSON): a thousand records are
read by every build of the site, and a reason or an output repeated across blocks costs
it once. A reason holds the entry's ``reason_code``, and its English ``reason`` only where
that is not the code's own English (`ruota_docs.records.reason_codes`), as for a code this
version does not know; a reason of a record written before codes existed holds its
``reason`` alone. Fields that are null are left out
(`ruota_docs.records.schema.OMITTED_IF_NULL`), and read back as null.

Every other field of a `ruota_docs.records.schema.Result` is a field of its stored result,
so a field added to the model is stored without a change here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from ruota_docs.records import bounds, reason_codes
from ruota_docs.records.schema import (
    JSON, KIND, MERGED, OMITTED_IF_NULL, OUTCOMES, PER_COPY, REASON_FIELDS, SCHEMA, BlockRef, Machine, Record,
    RecordError, Result,
)

try:
    import orjson
except ImportError:  # a dependency: only a broken install lacks it, and then records read slower
    orjson = None  # type: ignore[assignment]

#: What a stored record holds in place of its results.
STORED_PARTS = ("pages", "reasons", "outputs")
#: Fields a stored result holds that no entry has.
RESULT_ONLY = ("at", "credited", "signatures")
#: ``(attribute, JSON name)`` of each field a stored result holds as it is (its copies' own fields and
#: its reason aside).
_SHARED = tuple((f.name, f.metadata.get("json") or f.name) for f in dataclasses.fields(Result)
                if (f.metadata.get("json") or f.name) not in PER_COPY and not f.metadata.get("table"))
#: Every field a stored result may hold.
_STORED_KEYS = frozenset({*(key for _, key in _SHARED), "reason", *RESULT_ONLY})


def output_id(text: str) -> str:
    """The key of an output in ``outputs``: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def reason_id(reason: JSON) -> str:
    """The key of a reason in ``reasons``: `output_id` of its JSON (keys sorted)."""
    return output_id(json.dumps(reason, sort_keys=True, ensure_ascii=False))


def split_page(page: str) -> tuple[str, str]:
    """``es/guides/x.md`` → ``("es", "guides/x.md")``."""
    lang, _, rest = page.partition("/")
    return lang, rest


# -- reading ------------------------------------------------------------------------------------------------------
def parse(raw: bytes | str, path: object = "record") -> JSON:
    """A stored record's JSON, its ``kind`` and ``schema`` checked and its parts shaped as they must
    be to be read (`RecordError` naming ``path`` and the field)."""
    try:
        data = _loads(raw.encode("utf-8") if isinstance(raw, str) else raw)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
                          "fix or remove the file — it is never overwritten") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not UTF-8 text; fix or remove the file — it is never overwritten") from None
    except bounds.BadNumber as error:  # NaN, Infinity, 1e999, an integer of thousands of digits
        raw_bytes = raw.encode("utf-8") if isinstance(raw, str) else raw
        raise RecordError(f"{path}: {bounds.locate(raw_bytes, error.token)}: {error}; fix or remove the file — it is "
                          "never overwritten") from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise RecordError(f"{path}: not a ruota-docs record (expected \"kind\": \"{KIND}\")")
    schema = data.get("schema")
    if not isinstance(schema, int) or schema > SCHEMA:
        raise RecordError(f"{path}: schema {schema!r} is newer than this ruota-docs understands ({SCHEMA}); "
                          "upgrade ruota-docs")
    if schema != SCHEMA:
        raise RecordError(f"{path}: schema {schema!r} is older than the one this ruota-docs reads ({SCHEMA})")
    _check_parts(path, data)
    return data


def _loads(raw: bytes) -> Any:
    """A record's JSON: with orjson, a third of the time of the standard library's (a site reads
    a thousand records in every build); a file it refuses is read again by the standard library,
    whose error names the line and column, and which tells text that is not UTF-8 apart."""
    if orjson is not None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return bounds.loads(raw)


def _check_parts(path: object, data: JSON) -> None:
    """A stored record holds what it must to be read; a shape it cannot hold is an error naming the field."""
    if not all(isinstance(data.get(part), dict) for part in STORED_PARTS):
        raise RecordError(f"{path}: \"pages\", \"reasons\" and \"outputs\" must be objects (schema {SCHEMA})")
    for name, page in data["pages"].items():
        if not isinstance(page, dict) or not isinstance(page.get("results"), list):
            raise RecordError(f"{path}: pages.{name}: must hold \"results\", each with its \"at\"")
        for n, result in enumerate(page["results"]):
            if not isinstance(result, dict) or not isinstance(result.get("at"), dict):
                raise RecordError(f"{path}: pages.{name}: must hold \"results\", each with its \"at\"")
            if result.get("outcome") not in OUTCOMES or "sha256" not in result:
                raise RecordError(f"{path}: pages.{name}.results[{n}] lacks an outcome or a sha256")
            if not _STORED_KEYS.issuperset(result):
                unknown = next(k for k in result if k not in _STORED_KEYS)
                raise RecordError(f"{path}: pages.{name}.results[{n}].{unknown}: not a field of a result "
                                  "this ruota-docs knows; upgrade ruota-docs")


def decode(data: JSON, path: object = "record") -> Record:
    """The `Record` of a stored record (`parse`): its results are read from the stored form when
    first asked for (`Expanding`)."""
    return Record(machine_id=data.get("machine_id"), machine=Machine.from_json(data.get("machine"), f"{path}: machine"),
                  fingerprint=data.get("fingerprint"), provenance=data.get("provenance"),
                  updated=data.get("updated"), results=Expanding(data["pages"], data["reasons"], data["outputs"], path))


class Expanding(Mapping[BlockRef, Result]):
    """A record's results, read from its stored form (`expand`) when first asked for.

    A site reads a thousand records and indexes them in their stored form
    (`ruota_docs.records.verdicts.Index`, through `parts`); only the results a reader asks for
    are read, and expanding every record into a result per language would cost a build more
    than everything else it does with them."""

    __slots__ = ("parts", "_path", "_found")

    def __init__(self, pages: JSON, reasons: JSON, outputs: dict[str, str], path: object = "record") -> None:
        self.parts = (pages, reasons, outputs)  #: the stored ``pages``, ``reasons`` and ``outputs``
        self._path = path
        self._found: dict[BlockRef, Result] | None = None

    def _results(self) -> dict[BlockRef, Result]:
        if self._found is None:
            pages, reasons, outputs = self.parts
            try:
                self._found = expand(pages, outputs, reasons)
            except (TypeError, ValueError, KeyError) as error:
                raise RecordError(f"{self._path}: {error}") from None
        return self._found

    def __getitem__(self, block: BlockRef) -> Result:
        return self._results()[block]

    def __iter__(self) -> Iterator[BlockRef]:
        return iter(self._results())

    def __len__(self) -> int:
        return len(self._results())


def parts(record: Record) -> tuple[JSON, JSON, dict[str, str]]:
    """``(pages, reasons, outputs)``: the stored form of ``record`` (as read, where it was read)."""
    if isinstance(record.results, Expanding):
        return record.results.parts
    return compact(record.entries())


#: A stored reason's English by its key (a hash of the reason): the records of a site give a few
#: hundred reasons between them, and a thousand records read by one build share them.
_ENGLISH: dict[str, str | None] = {}


def english(why: JSON) -> str | None:
    """The English ``reason`` of a stored reason: its own, else its code's (None where the code does not fit)."""
    if "reason" in why:
        return why["reason"]  # type: ignore[no-any-return]
    try:
        return reason_codes.Reason.from_record(why["reason_code"]).english()
    except (reason_codes.ReasonCodeError, KeyError, TypeError, ValueError):
        return None


def shared_fields(result: JSON, outputs: Mapping[str, str], reasons: Mapping[str, JSON],
                  ran_at: str | None) -> dict[str, Any]:
    """What a stored result says, as `Result` keyword arguments (its copies' own fields aside):
    its output and reason read from the record's tables, its time from its page's ``ran_at``
    where it holds none."""
    found = {name: result[key] for name, key in _SHARED if key in result}
    found["output"] = outputs.get(result["output"], "") if result.get("output") else ""
    key = result.get("reason")
    why = reasons.get(key) if key else None
    if key and why is not None:
        if "reason" in why:
            found["reason"] = why["reason"]
        else:
            if key not in _ENGLISH:
                _ENGLISH[key] = english(why)
            found["reason"] = _ENGLISH[key]
        found["reason_code"] = why.get("reason_code")
    if found.get("ran_at") is None:
        found["ran_at"] = ran_at
    return found


def read_result(result: JSON, outputs: Mapping[str, str], reasons: Mapping[str, JSON],
                ran_at: str | None) -> Result:
    """The `Result` a stored result holds for every copy it names (no copy's own ``reused_from``
    or ``signature``: see ``credited`` and the page's ``signatures``)."""
    return Result(**shared_fields(result, outputs, reasons, ran_at))


def line_of(page: JSON, lang: str, index: int) -> int | None:
    """Where block ``index`` of the ``lang`` copy of a stored page starts (None where the record does not say)."""
    lines = (page.get("lines") or {}).get(lang) or ()
    found: int | None = lines[index] if 0 <= index < len(lines) else None
    return found


def file_of(page: JSON, lang: str, index: int) -> str | None:
    """The included Markdown file block ``index`` of the ``lang`` copy of a stored page is written in (None:
    on the page)."""
    files = (page.get("files") or {}).get(lang) or ()
    found: str | None = files[index] if 0 <= index < len(files) else None
    return found


def expand(pages: Mapping[str, JSON], outputs: Mapping[str, str],
           reasons: Mapping[str, JSON]) -> dict[BlockRef, Result]:
    """Every copy's `Result` of a stored record's ``pages``, in page and block order.

    A site reads a thousand records of a few hundred results each: each stored result's fields
    are read once for all its copies, and copies that agree in their own fields too (the
    translations credited with one run, of one page signature) share one `Result` (frozen)."""
    found: list[tuple[BlockRef, Result]] = []
    for rest, page in pages.items():
        signatures = page.get("signatures") or {}
        folders = page.get("folders", True)
        for result in page["results"]:
            fields = shared_fields(result, outputs, reasons, page.get("ran_at"))
            credited = result.get("credited") or {}
            own = result.get("signatures") or {}
            made: dict[tuple[str | None, str | None], Result] = {}
            for lang, index in result["at"].items():
                path = f"{lang}/{rest}" if folders else rest
                copy = (f"{credited[lang]}/{rest}" if lang in credited else None, own.get(lang, signatures.get(lang)))
                same = made.get(copy)
                if same is None:
                    same = made[copy] = Result(**fields, reused_from=copy[0], signature=copy[1])
                found.append((BlockRef(path, lang, index, line_of(page, lang, index), file_of(page, lang, index)),
                              same))
    found.sort(key=lambda item: (item[0].page, item[0].index))
    return dict(found)


# -- writing ------------------------------------------------------------------------------------------------------
def encode(record: Record) -> JSON:
    """The stored form of ``record``: its head, then ``pages``, ``reasons`` and ``outputs``."""
    pages, reasons, outputs = compact(record.entries())
    return record.head() | {"pages": pages, "reasons": reasons, "outputs": outputs}


def _copy_of(entry: JSON) -> tuple[str, str]:
    """``(language, page under the language folders)`` of an entry; on a site without language
    folders, the page's own path."""
    lang, page = entry.get("lang") or "", entry["page"]
    return (lang, page[len(lang) + 1:]) if lang and page.startswith(f"{lang}/") else (lang, page)


def compact(blocks: Mapping[str, JSON]) -> tuple[JSON, JSON, dict[str, str]]:
    """``(pages, reasons, outputs)``: the stored form of a record's entries (`Record.entries`)."""
    pages: dict[str, JSON] = {}
    outputs: dict[str, str] = {}
    reasons: dict[str, JSON] = {}
    groups: dict[tuple[str, str], JSON] = {}  # (page, what the result says) → the stored result
    copies: dict[int, tuple[JSON, dict[str, Any]]] = {}  # id(result) → (result, language → its copy's signature)
    for entry in sorted(blocks.values(), key=lambda e: (e["page"], e["index"])):
        lang, rest = _copy_of(entry)
        page = pages.setdefault(rest, {"signatures": {}, "lines": {}, "files": {}, "results": []})
        if not entry["page"].startswith(f"{lang}/"):
            page["folders"] = False  # a site without language folders: the page's path is its own
        shared = _shared(entry, reasons, outputs)
        said = json.dumps({k: v for k, v in shared.items() if k not in MERGED}, sort_keys=True)
        result = groups.get((rest, said))
        if result is None or lang in result["at"]:  # the same code twice on one page: one result each
            result = {"sha256": shared.pop("sha256"), "at": {}, "credited": {}, **shared}
            groups[(rest, said)] = result
            page["results"].append(result)
        result["at"][lang] = entry["index"]
        if entry.get("line") is not None:
            page["lines"].setdefault(lang, {})[entry["index"]] = entry["line"]
        if entry.get("file") is not None:
            page["files"].setdefault(lang, {})[entry["index"]] = entry["file"]
        copies.setdefault(id(result), (result, {}))[1][lang] = entry.get("signature")
        source = split_page(entry["reused_from"])[0] if entry.get("reused_from") else None
        if source and source != lang:  # a copy's own earlier run is no credit
            result["credited"][lang] = source
        for name in MERGED:
            if shared.get(name) and (result.get(name) or "") < shared[name]:
                result[name] = shared[name]
    for page in pages.values():
        _signatures(page, [copies[id(r)] for r in page["results"]])
        _finish(page)
    return dict(sorted(pages.items())), dict(sorted(reasons.items())), dict(sorted(outputs.items()))


def _shared(entry: JSON, reasons: dict[str, JSON], outputs: dict[str, str]) -> JSON:
    """The fields of ``entry`` its copies may share, its output and reason put in their tables."""
    shared = {k: v for k, v in entry.items() if k not in PER_COPY and k not in REASON_FIELDS}
    text = shared.get("output") or ""
    shared["output"] = None
    if text:
        shared["output"] = output_id(text)
        outputs[shared["output"]] = text
    if entry.get("reason") is not None or entry.get("reason_code") is not None:
        why = {"reason_code": entry["reason_code"]} if "reason_code" in entry else {}  # absent: written before codes
        if not why or entry.get("reason") != english(why):
            why["reason"] = entry.get("reason")
        shared["reason"] = reason_id(why)
        reasons[shared["reason"]] = why
    return shared


def _finish(page: JSON) -> None:
    """A page's time, its lines and files as lists, and what its results leave out (nulls, no credits)."""
    _page_time(page)
    for name in ("lines", "files"):
        page[name] = {lang: [found.get(n) for n in range(max(found) + 1)] for lang, found in sorted(page[name].items())}
    for result in page["results"]:
        if not result["credited"]:
            del result["credited"]
        for name in (*OMITTED_IF_NULL, "reason"):
            if name in result and result[name] is None:
                del result[name]
    for name in ("signatures", "lines", "files"):
        if not page[name]:
            del page[name]


def _signatures(page: JSON, results: list[tuple[JSON, dict[str, Any]]]) -> None:
    """Each language's page signature, once for the page: the one most of its blocks ran with
    (a run of some blocks of a page leaves others with an older one: those results say so)."""
    counts: dict[str, Counter[Any]] = {}
    for _, signatures in results:
        for lang, signature in signatures.items():
            counts.setdefault(lang, Counter())[signature] += 1
    page["signatures"] = {lang: c.most_common(1)[0][0] for lang, c in sorted(counts.items()) if c.most_common(1)[0][0]}
    for result, signatures in results:
        other = {lang: s for lang, s in signatures.items() if page["signatures"].get(lang) != s}
        if other:
            result["signatures"] = other


def _page_time(page: JSON) -> None:
    """The page's ``ran_at``: the time most of its results hold, kept by those alone that differ."""
    counts = Counter(r.get("ran_at") for r in page["results"])
    common = counts.most_common(1)[0][0] if counts else None
    if common is None:
        return
    page["ran_at"] = common
    for result in page["results"]:
        if result.get("ran_at") == common:
            del result["ran_at"]


def lines(written: JSON) -> Iterator[str]:
    """A stored record as lines of text: one per result and per output, so a change reads as a
    small diff, without the bytes a fully indented file spends on indentation."""
    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    yield "{\n"
    for key, value in written.items():
        if key not in STORED_PARTS:
            yield f" {dump(key)}: {dump(value)},\n"
    yield ' "pages": {\n'
    pages = list(written.get("pages", {}).items())
    for n, (name, page) in enumerate(pages):
        rest = "".join(f"{dump(k)}: {dump(v)}, " for k, v in page.items() if k != "results")
        yield f"  {dump(name)}: {{{rest}\"results\": [\n"
        results = page.get("results", [])
        for i, result in enumerate(results):
            comma = "," if i < len(results) - 1 else ""
            yield f"   {json.dumps(result, ensure_ascii=False, separators=(',', ':'))}{comma}\n"
        yield f"  ]}}{',' if n < len(pages) - 1 else ''}\n"
    yield " }"
    for part in STORED_PARTS[1:]:
        if part not in written:
            continue
        yield f',\n {dump(part)}: {{\n'
        found = list(written[part].items())
        for i, (key, value) in enumerate(found):
            yield f"  {dump(key)}: {dump(value)}{',' if i < len(found) - 1 else ''}\n"
        yield " }"
    yield "\n}\n"
