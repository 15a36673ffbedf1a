"""How a record is stored: one result per distinct code per page, each output and reason once.

In memory a record is what the engine and the site work with: ``blocks``, one entry per
page *and language* (``es/guides/x.md#3``, see `ruota_docs.records.ledger`). The es, en
and fr copies of a block have the same code and, run once and credited to the others,
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
line); ``"folders": false`` marks a page of a site without language folders (its path is
its own, not under the language's folder). A result whose copies ran with another page
signature than the page's (a run of some of its blocks) has its own ``signatures``, and one
that ran at another time than the page's ``ran_at`` its own ``ran_at``. ``credited`` names,
for a copy credited with another copy's run, the language that ran it
(`ruota_docs.records.ledger` entries' ``reused_from``). Copies share a result when every
field but ``ran_at`` agrees (a skip decided in each language a few seconds apart is one
result, with the latest time); copies whose results differ keep one each.

``output`` and ``reason`` name an entry of ``outputs`` and of ``reasons`` (keyed by the first
16 hex digits of the SHA-256 of the text, or of the reason as JSON): a thousand records are
read by every build of the site, and a reason or an output repeated across blocks costs
it once. A reason holds the entry's ``reason_code``, and its English ``reason`` only where
that is not the code's own English (`ruota_docs.records.reason_codes`), as for a code this
version does not know; a reason of a record written before codes existed holds its
``reason`` alone. Fields that are null are left out (`NULL_IF_ABSENT`), and read back as null.

Everything else an entry holds is a field of its result, so a field added to entries
(`ruota_docs.records.ledger.ENTRY_FIELDS`) is stored without a change here. ``schema`` 2
records (``at`` as ``[index, line]``, ``reason`` and ``reason_code`` in each result, every
``ran_at`` in its result) are read by `expand` with ``reasons=None``.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter

from ruota_docs.records import reason_codes

#: Entry fields that differ between the copies of a block: stored as ``at``, the page's
#: ``lines`` and ``signatures``, and ``credited``.
PER_COPY = ("page", "lang", "index", "line", "reused_from", "signature")
#: Fields a stored result holds that no entry has.
RESULT_ONLY = ("at", "credited", "signatures")
#: Fields that may differ between copies that share one result (the latest is kept).
MERGED = ("ran_at",)
#: Entry fields a stored result holds in the table of reasons, by reference.
REASON_FIELDS = ("reason", "reason_code")
#: Fields left out of a stored result where they are null (most are): read back as null.
NULL_IF_ABSENT = ("reason", "error", "id", "output", "as_root")
#: The same in ``schema`` 2, which kept ``as_root`` and ``reason_code`` in each result.
NULL_IF_ABSENT_2 = ("reason", "error", "id", "output")


def output_id(text: str) -> str:
    """The key of an output in ``outputs``: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def reason_id(reason: dict) -> str:
    """The key of a reason in ``reasons``: `output_id` of its JSON (keys sorted)."""
    return output_id(json.dumps(reason, sort_keys=True, ensure_ascii=False))


def split_page(page: str) -> tuple[str, str]:
    """``es/guides/x.md`` → ``("es", "guides/x.md")``."""
    lang, _, rest = page.partition("/")
    return lang, rest


def _copy_of(entry: dict) -> tuple[str, str]:
    """``(language, page under the language folders)`` of an entry; on a site without language
    folders, the page's own path."""
    lang, page = entry.get("lang") or "", entry["page"]
    return (lang, page[len(lang) + 1:]) if lang and page.startswith(f"{lang}/") else (lang, page)


def compact(blocks: dict) -> tuple[dict, dict, dict]:
    """``(pages, reasons, outputs)``: the stored form of a record's ``blocks``."""
    pages: dict[str, dict] = {}
    outputs: dict[str, str] = {}
    reasons: dict[str, dict] = {}
    groups: dict[tuple, dict] = {}  # (page, what the result says) → the stored result
    copies: dict[int, tuple[dict, dict]] = {}  # id(result) → (result, language → its copy's signature)
    for entry in sorted(blocks.values(), key=lambda e: (e["page"], e["index"])):
        lang, rest = _copy_of(entry)
        page = pages.setdefault(rest, {"signatures": {}, "lines": {}, "results": []})
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


def _shared(entry: dict, reasons: dict, outputs: dict) -> dict:
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


def _finish(page: dict) -> None:
    """A page's time, its lines as lists, and what its results leave out (nulls, no credits)."""
    _page_time(page)
    page["lines"] = {lang: [found.get(n) for n in range(max(found) + 1)]
                     for lang, found in sorted(page["lines"].items())}
    for result in page["results"]:
        if not result["credited"]:
            del result["credited"]
        for name in NULL_IF_ABSENT:
            if name in result and result[name] is None:
                del result[name]
    for name in ("signatures", "lines"):
        if not page[name]:
            del page[name]


def _signatures(page: dict, results: list[tuple[dict, dict]]) -> None:
    """Each language's page signature, once for the page: the one most of its blocks ran with
    (a run of some blocks of a page leaves others with an older one: those results say so)."""
    counts: dict[str, Counter] = {}
    for _, signatures in results:
        for lang, signature in signatures.items():
            counts.setdefault(lang, Counter())[signature] += 1
    page["signatures"] = {lang: c.most_common(1)[0][0] for lang, c in sorted(counts.items()) if c.most_common(1)[0][0]}
    for result, signatures in results:
        other = {lang: s for lang, s in signatures.items() if page["signatures"].get(lang) != s}
        if other:
            result["signatures"] = other


def _page_time(page: dict) -> None:
    """The page's ``ran_at``: the time most of its results hold, kept by those alone that differ."""
    counts = Counter(r.get("ran_at") for r in page["results"])
    common = counts.most_common(1)[0][0] if counts else None
    if common is None:
        return
    page["ran_at"] = common
    for result in page["results"]:
        if result.get("ran_at") == common:
            del result["ran_at"]


def english(why: dict) -> str | None:
    """The English ``reason`` of a stored reason: its own, else its code's (None where the code does not fit)."""
    if "reason" in why:
        return why["reason"]
    try:
        return reason_codes.Reason.from_record(why["reason_code"]).english()
    except (reason_codes.ReasonCodeError, KeyError, TypeError, ValueError):
        return None


#: A stored reason's English by its key (a hash of the reason): the records of a site give a few
#: hundred reasons between them, and a thousand records read by one build share them.
_ENGLISH: dict[str, str | None] = {}


def read_fields(result: dict, outputs: dict, reasons: dict, ran_at: str | None) -> dict:
    """What a stored (``schema`` 3) result says, as an entry's fields: its output and reason
    read from the record's tables (a reason of a record written before codes has no
    ``reason_code``), its time from its page's ``ran_at`` where it holds none."""
    found = dict(result)
    found["output"] = outputs.get(result["output"], "") if result.get("output") else ""
    key = result.get("reason")
    why = reasons.get(key) if key else None
    if why is None:
        found["reason"] = found["reason_code"] = None
    else:
        if "reason" in why:
            found["reason"] = why["reason"]
        else:
            if key not in _ENGLISH:
                _ENGLISH[key] = english(why)
            found["reason"] = _ENGLISH[key]
        if "reason_code" in why:
            found["reason_code"] = why["reason_code"]
    if "ran_at" not in found:
        found["ran_at"] = ran_at
    return found


def at(value) -> tuple[int, int | None]:
    """``(index, line)`` of one copy in a ``schema`` 2 ``at`` (``[index, line]``, or the index alone)."""
    return (value[0], value[1]) if isinstance(value, list) else (value, None)


def line_of(page: dict, lang: str, index: int) -> int | None:
    """Where block ``index`` of the ``lang`` copy of a stored page starts (None where the record does not say)."""
    lines = (page.get("lines") or {}).get(lang) or ()
    return lines[index] if 0 <= index < len(lines) else None


def expand(pages: dict, outputs: dict, order: tuple = (), reasons: dict | None = None) -> dict:
    """The ``blocks`` (one entry per page and language, keyed ``page#index``) of a stored record,
    each entry's fields in ``order`` (the engine's), then any other; ``reasons=None``: a
    ``schema`` 2 record.

    A site reads a thousand records of a few hundred entries each: each entry is built in
    one step, from its result's fields split once around the fields of the copy."""
    latest = reasons is not None
    copy_at = {name: n for n, name in enumerate(order)}
    middle = copy_at.get("reused_from", len(order))
    always = (*NULL_IF_ABSENT, *REASON_FIELDS, *MERGED) if latest else NULL_IF_ABSENT_2
    splits: dict[tuple, tuple[tuple, tuple]] = {}  # a result's fields → those before and after the copy's
    blocks = {}
    place: dict[str, tuple[str, int]] = {}  # key → (page, index): the order entries are returned in
    for rest, page in pages.items():
        signatures = page.get("signatures") or {}
        folders = page.get("folders", True)
        for result in page["results"]:
            fields = tuple(result)
            if fields not in splits:
                names = sorted(dict.fromkeys([*always, *(k for k in fields if k not in RESULT_ONLY)]),
                               key=lambda k: copy_at.get(k, len(order)))
                splits[fields] = (tuple(k for k in names if copy_at.get(k, len(order)) < middle),
                                  tuple(k for k in names if copy_at.get(k, len(order)) >= middle))
            first, last = splits[fields]
            if latest:
                values = read_fields(result, outputs, reasons, page.get("ran_at"))
            else:
                values = dict(result)
                values["output"] = outputs.get(result["output"], "") if result.get("output") else ""
            uncoded = latest and "reason_code" not in values  # a record written before codes
            before = dict(zip(first, map(values.get, first)))
            after = dict(zip(last, map(values.get, last)))
            credited = result.get("credited") or {}
            own = result.get("signatures") or {}
            for lang, where in result["at"].items():
                if latest:
                    index, line = where, line_of(page, lang, where)
                else:
                    index, line = where if isinstance(where, list) else (where, None)
                signature = own.get(lang, signatures.get(lang))
                path = f"{lang}/{rest}" if folders else rest
                entry = {"page": path, "lang": lang, "index": index, "line": line, **before,
                         "reused_from": f"{credited[lang]}/{rest}" if lang in credited else None,
                         "signature": signature, **after}
                if line is None:
                    del entry["line"]
                if signature is None:
                    del entry["signature"]
                if uncoded:
                    del entry["reason_code"]
                key = f"{path}#{index}"
                blocks[key] = entry
                place[key] = (path, index)
    return {key: blocks[key] for key in sorted(blocks, key=place.__getitem__)}
