"""How a record is stored: one result per distinct code per page, each output once.

In memory a record is what the engine and the site work with: ``blocks``, one entry per
page *and language* (``es/guides/x.md#3``, see `ruota_docs.records.ledger`). The es, en
and fr copies of a block have the same code and, run once and credited to the others,
the same result, so on disk (``schema`` 2) they share one:

    {
      "schema": 2, "kind": "ruota-docs/ledger", "machine_id": "…", "machine": {…}, "updated": "…",
      "pages": {
        "guides/keras-rx7600.md": {                      (the page, under every language folder)
          "signatures": {"es": "…", "en": "…", "fr": "…"},  (each copy's block sequence)
          "results": [
            {"sha256": "…", "at": {"es": [3, 120], "en": [3, 118], "fr": [3, 121]},
             "credited": {"en": "es", "fr": "es"},
             "outcome": "passed", "duration": 12.5, "output": "3f1c…", "ran_at": "…",
             "id": "train-offline", "language": "python", "as_root": false}
          ]
        }
      },
      "outputs": {"3f1c…": "what the block printed"}   (keyed by the first 16 hex digits of its SHA-256)
    }

``at`` says which block (its index, and its line) of which language's copy the result is for
(``"folders": false`` marks a page of a site without language folders: its path is its
own, not under the language's folder); a result
whose copies ran with another page signature than the page's (a run of some of its blocks)
has its own ``signatures``;
``credited`` names, for a copy credited with another copy's run, the language that ran
it (`ruota_docs.records.ledger` entries' ``reused_from``). Copies share a result when
every field but ``ran_at`` agrees (a skip decided in each language a few seconds apart
is one result, with the latest time); copies whose results differ keep one each.
``reason``, ``error``, ``id`` and ``output`` are left out where they are null (`NULL_IF_ABSENT`).

Everything else an entry holds is a field of its result, so a field added to entries
(`ruota_docs.records.ledger.ENTRY_FIELDS`) is stored without a change here.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter

#: Entry fields that differ between the copies of a block: stored as ``at`` (index and line),
#: ``credited`` and the page's ``signatures``.
PER_COPY = ("page", "lang", "index", "line", "reused_from", "signature")
#: Fields a stored result holds that no entry has.
RESULT_ONLY = ("at", "credited", "signatures")
#: Fields that may differ between copies that share one result (the latest is kept).
MERGED = ("ran_at",)
#: Fields left out of a stored result where they are null (most are): read back as null.
NULL_IF_ABSENT = ("reason", "error", "id", "output")


def output_id(text: str) -> str:
    """The key of an output in ``outputs``: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def split_page(page: str) -> tuple[str, str]:
    """``es/guides/x.md`` → ``("es", "guides/x.md")``."""
    lang, _, rest = page.partition("/")
    return lang, rest


def _copy_of(entry: dict) -> tuple[str, str]:
    """``(language, page under the language folders)`` of an entry; on a site without language
    folders, the page's own path."""
    lang, page = entry.get("lang") or "", entry["page"]
    return (lang, page[len(lang) + 1:]) if lang and page.startswith(f"{lang}/") else (lang, page)


def compact(blocks: dict) -> tuple[dict, dict]:
    """``(pages, outputs)``: the stored form of a record's ``blocks``."""
    pages: dict[str, dict] = {}
    outputs: dict[str, str] = {}
    groups: dict[tuple, dict] = {}  # (page, what the result says) → the stored result
    copies: dict[int, tuple[dict, dict]] = {}  # id(result) → (result, language → its copy's signature)
    for entry in sorted(blocks.values(), key=lambda e: (e["page"], e["index"])):
        lang, rest = _copy_of(entry)
        page = pages.setdefault(rest, {"signatures": {}, "results": []})
        if not entry["page"].startswith(f"{lang}/"):
            page["folders"] = False  # a site without language folders: the page's path is its own
        shared = {k: v for k, v in entry.items() if k not in PER_COPY}
        text = shared.get("output") or ""
        shared["output"] = None
        if text:
            shared["output"] = output_id(text)
            outputs[shared["output"]] = text
        said = json.dumps({k: v for k, v in shared.items() if k not in MERGED}, sort_keys=True)
        result = groups.get((rest, said))
        if result is None or lang in result["at"]:  # the same code twice on one page: one result each
            result = {"sha256": shared.pop("sha256"), "at": {}, "credited": {}, **shared}
            groups[(rest, said)] = result
            page["results"].append(result)
        result["at"][lang] = [entry["index"], entry["line"]] if entry.get("line") is not None else entry["index"]
        copies.setdefault(id(result), (result, {}))[1][lang] = entry.get("signature")
        if entry.get("reused_from"):
            result["credited"][lang] = split_page(entry["reused_from"])[0]
        for name in MERGED:
            if shared.get(name) and (result.get(name) or "") < shared[name]:
                result[name] = shared[name]
    for page in pages.values():
        _signatures(page, [copies[id(r)] for r in page["results"]])
        for result in page["results"]:
            if not result["credited"]:
                del result["credited"]
            for name in NULL_IF_ABSENT:
                if name in result and result[name] is None:
                    del result[name]
        if not page["signatures"]:
            del page["signatures"]
    return dict(sorted(pages.items())), dict(sorted(outputs.items()))


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


def at(value) -> tuple[int, int | None]:
    """``(index, line)`` of one copy in ``at`` (a record whose entries had no line holds the index alone)."""
    return (value[0], value[1]) if isinstance(value, list) else (value, None)


def expand(pages: dict, outputs: dict, order: tuple = ()) -> dict:
    """The ``blocks`` (one entry per page and language, keyed ``page#index``) of a stored record,
    each entry's fields in ``order`` (the engine's), then any other.

    A site reads a thousand records of a few hundred entries each: each entry is built in
    one step, from its result's fields split once around the fields of the copy."""
    copy_at = {name: n for n, name in enumerate(order)}
    middle = copy_at.get("reused_from", len(order))
    splits: dict[tuple, tuple[tuple, tuple]] = {}  # a result's fields → those before and after the copy's
    blocks = {}
    place: dict[str, tuple[str, int]] = {}  # key → (page, index): the order entries are returned in
    for rest, page in pages.items():
        signatures = page.get("signatures") or {}
        folders = page.get("folders", True)
        for result in page["results"]:
            fields = tuple(result)
            if fields not in splits:
                names = sorted(dict.fromkeys([*NULL_IF_ABSENT, *(k for k in fields if k not in RESULT_ONLY)]),
                               key=lambda k: copy_at.get(k, len(order)))
                splits[fields] = (tuple(k for k in names if copy_at.get(k, len(order)) < middle),
                                  tuple(k for k in names if copy_at.get(k, len(order)) >= middle))
            first, last = splits[fields]
            before = dict(zip(first, map(result.get, first)))
            after = dict(zip(last, map(result.get, last)))
            text = outputs.get(result["output"], "") if result.get("output") else ""
            (before if "output" in before else after)["output"] = text
            credited = result.get("credited") or {}
            own = result.get("signatures") or {}
            for lang, where in result["at"].items():
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
                key = f"{path}#{index}"
                blocks[key] = entry
                place[key] = (path, index)
    return {key: blocks[key] for key in sorted(blocks, key=place.__getitem__)}
