"""The record's model: frozen dataclasses or msgspec Structs, decoding a thousand records side by side.

    python benchmarks/record_model.py [--records 1000] [--repeat 5]

Makes ``--records`` synthetic records in memory (`scale_records.synthetic`: the committed GPU
record on a thousand AMD machines, as the engine writes them) and decodes every one of them,
in turns, best of ``--repeat``:

- ``json only``: the bytes parsed into dicts (orjson), nothing more: the floor;
- ``dataclasses, as the site reads``: `ruota_docs.records.schema.Record.from_json` (parse, shape
  checked, results read when asked: a build reads few);
- ``dataclasses, every result``: the same, then every copy's `Result` built (what ``record check``,
  ``status`` and ``--reuse-record`` read);
- ``msgspec Structs`` (where msgspec is importable): the stored form decoded into typed Structs
  by msgspec (what a site would index), then every copy's result built as a frozen Struct of the
  same fields.

Printed: seconds per thousand records and the ratio of each to the dataclasses' full decode.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from scale_records import SOURCE, synthetic

from ruota_docs.records import ledger, stored
from ruota_docs.records.schema import Record

try:
    import msgspec
except ImportError:  # not a dependency of the project: measured where it is installed
    msgspec = None

ROOT = Path(__file__).resolve().parents[1]


def records(count: int) -> list[bytes]:
    """``count`` synthetic records, as the bytes the engine writes."""
    source = ledger.load(sorted((ROOT / "verification").glob(SOURCE))[0]).to_dict()
    rng = random.Random(7)
    return [Record.from_dict(synthetic(source, n, rng)).to_json().encode() for n in range(count)]


if msgspec is not None:  # the same model as msgspec Structs (module level: msgspec resolves the annotations here)
    class StoredResult(msgspec.Struct, frozen=True, omit_defaults=True):
        sha256: str
        at: dict[str, int]
        outcome: str
        language: str = ""
        duration: float = 0.0
        credited: dict[str, str] = {}
        signatures: dict[str, str] = {}
        id: str | None = None
        reason: str | None = None
        error: str | None = None
        output: str | None = None
        ran_at: str | None = None
        as_root: bool | None = None

    class StoredPage(msgspec.Struct, frozen=True):
        results: list[StoredResult]
        signatures: dict[str, str] = {}
        lines: dict[str, list[int | None]] = {}
        ran_at: str | None = None
        folders: bool = True

    class StoredRecord(msgspec.Struct, frozen=True):
        schema: int
        kind: str
        machine_id: str
        machine: dict
        pages: dict[str, StoredPage]
        reasons: dict[str, dict]
        outputs: dict[str, str]
        fingerprint: str | None = None
        provenance: dict | None = None
        updated: str | None = None

    class Ref(msgspec.Struct, frozen=True):
        page: str
        lang: str
        index: int
        line: int | None = None

    class Result(msgspec.Struct, frozen=True, kw_only=True):
        language: str
        sha256: str
        block_id: str | None = None
        outcome: str
        reason: str | None = None
        error: str | None = None
        duration: float = 0.0
        output: str = ""
        ran_at: str | None = None
        reused_from: str | None = None
        signature: str | None = None
        as_root: bool | None = None
        reason_code: dict | None = None


def msgspec_decoder():
    """Decode a record's stored form into Structs, then every copy's result into a frozen Struct."""
    decoder = msgspec.json.Decoder(StoredRecord)

    def decode(raw: bytes, every: bool = True) -> dict:
        data = decoder.decode(raw)
        if not every:  # the stored form alone, typed: what the site would index
            return data
        found = {}
        for rest, page in data.pages.items():
            for result in page.results:
                why = data.reasons.get(result.reason) if result.reason else None
                shared = dict(language=result.language, sha256=result.sha256, block_id=result.id,
                              outcome=result.outcome, error=result.error, duration=result.duration,
                              output=data.outputs.get(result.output, "") if result.output else "",
                              ran_at=result.ran_at or page.ran_at, as_root=result.as_root,
                              reason=(why.get("reason") or stored.english(why)) if why else None,
                              reason_code=why.get("reason_code") if why else None)
                for lang, index in result.at.items():
                    lines = page.lines.get(lang) or ()
                    ref = Ref(f"{lang}/{rest}", lang, index, lines[index] if index < len(lines) else None)
                    source = result.credited.get(lang)
                    found[ref] = Result(**shared, reused_from=f"{source}/{rest}" if source else None,
                                        signature=result.signatures.get(lang, page.signatures.get(lang)))
        return found

    return decode


def best(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    raws = records(args.records)
    results = len(Record.from_json(raws[0]).results)
    ways = {
        "json only (orjson)": lambda: [stored._loads(raw) for raw in raws],
        "dataclasses, as the site reads (results when asked)": lambda: [Record.from_json(raw) for raw in raws],
        "dataclasses, every result": lambda: [dict(Record.from_json(raw).results) for raw in raws],
    }
    if msgspec is not None:
        decode = msgspec_decoder()
        assert len(decode(raws[0])) == results
        ways["msgspec Structs, the stored form only"] = lambda: [decode(raw, every=False) for raw in raws]
        ways["msgspec Structs, every result"] = lambda: [decode(raw) for raw in raws]
    timed = {name: [] for name in ways}
    for _ in range(args.repeat):  # in turns: a busy moment of the machine falls on all of them alike
        for name, work in ways.items():
            timed[name].append(best(1, work))
    full = min(timed["dataclasses, every result"])
    print(f"## Decoding {args.records:,} records ({results} results each), best of {args.repeat}\n")
    print("| decoding | seconds | against dataclasses, every result |\n| --- | ---: | ---: |")
    for name, found in timed.items():
        print(f"| {name} | {min(found):.3f} | {min(found) / full:.2f}× |")
    print(f"\nmsgspec {'%s' % msgspec.__version__ if msgspec else 'not installed'}; "
          f"records of {sum(map(len, raws)) / len(raws):,.0f} bytes on average")


if __name__ == "__main__":
    main()
