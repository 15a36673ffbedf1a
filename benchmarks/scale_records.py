"""The site with a thousand machines' records: build time and page weight against the two committed ones.

    python benchmarks/scale_records.py [--records 1000] [--repeat 3] [--keep]

Works on two copies of the project in a temporary folder (the repository is never
edited): one with the committed records of ``verification/`` only, one with ``--records``
synthetic machines beside them. A synthetic machine is a copy of the committed GPU record
turned into a ROCm machine (an AMD card of `ruota_docs.records.gpus`, its gfx target, a
HIP build of torch, a fingerprint of its own): every block that ran keeps its output,
one machine in seven fails a block of its own choosing, one in five never ran a page,
and the dates spread over a month. Skip reasons are rewritten to describe the new machine.

The two sites are built interleaved (two-record build, thousand-record build, again),
best of ``--repeat`` (wall and CPU seconds), then every page of the two outputs is
weighed. Printed: build time ratio, heaviest guide page ratio, heaviest page of all, and
the bytes per machine of the records, against the same blocks in the old format (``schema``
1: one entry per page and language, as ``json.dumps(indent=1)`` wrote it). Goals: build
≤ 1.5×, heaviest guide page ≤ 1.25×, bytes ≤ ⅓ of the old format's.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
from pathlib import Path

from _common import ENV, PYTHON, ROOT, run_timed

from ruota_docs.records import gpus, ledger
from ruota_docs.records.machine import Device
from ruota_docs.records.schema import Record

PROJECT = ("mkdocs.yml", "docs", "snippets", "overrides", "verification", "src")
#: The record the synthetic machines are made from (the one whose blocks ran on a GPU).
SOURCE = "cuda-*.json"
#: Cards to make machines of: (name as PyTorch reports it, target).
_CASE = (("Rx", "RX"), ("Xtx", "XTX"), ("Xt", "XT"), ("Mi", "MI"), ("Vii", "VII"))


def _card_name(name: str) -> str:
    shown = name.title()
    for old, new in _CASE:
        shown = shown.replace(old, new)
    return f"AMD {shown}"


CARDS = [(_card_name(name), arch)
         for name, arch in gpus.KNOWN.items() if arch.startswith("gfx") and ("radeon" in name or "instinct" in name)]


def copy_project(into: Path, records: bool = True) -> Path:
    into.mkdir(parents=True)
    for name in PROJECT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*.lock"))
        else:
            shutil.copy2(source, into / name)
    return into


def synthetic(source: dict, n: int, rng: random.Random) -> dict:
    """Machine ``n``: the source record's results, on an AMD card."""
    name, arch = CARDS[n % len(CARDS)]
    device = Device("rocm", name, arch, 8 * 2**30 * (1 + n % 3), 1, "linux", "x86_64", "3.12.3",
                    torch="2.9.1+rocm6.4", hip="6.4.43482-0f2d60242", packages=dict(source["machine"]["packages"]))
    old, new = "CUDA, NVIDIA H200", device.describe()
    data = {k: v for k, v in source.items() if k != "blocks"}
    data |= {"machine_id": device.machine_id, "machine": device.to_dict(),
             "fingerprint": f"{rng.getrandbits(128):032x}"}
    day = 1 + n % 28
    data["updated"] = f"2026-11-{day:02d}T12:00:00Z"
    pages = sorted({e["page"].split("/", 1)[1] for e in source["blocks"].values()})
    missing = rng.choice(pages) if n % 5 == 0 else None
    runnable = [k for k, e in source["blocks"].items() if e["outcome"] == "passed" and e["language"] == "python"]
    failing = rng.choice(runnable).split("/", 1)[1] if n % 7 == 0 else None
    blocks = {}
    for key, entry in source["blocks"].items():
        rest = key.split("/", 1)[1]
        if missing and rest.startswith(missing + "#"):
            continue
        entry = dict(entry, ran_at=data["updated"], reason=(entry["reason"] or "").replace(old, new) or None)
        if rest == failing:
            entry |= {"outcome": "failed", "error": "RuntimeError: HIP error: invalid device function",
                      "output": entry["output"] + "RuntimeError: HIP error: invalid device function\n"}
        blocks[key] = entry
    data["blocks"] = blocks
    return data


def make_records(folder: Path, count: int, seed: int = 7) -> int:
    """``count`` synthetic records in ``folder``; the bytes they take."""
    rng = random.Random(seed)
    source = ledger.load(sorted(folder.glob(SOURCE))[0]).to_dict()
    total = 0
    for n in range(count):
        data = synthetic(source, n, rng)
        path = folder / f"{data['machine_id']}-{data['fingerprint'][:8]}.json"
        ledger.write_atomic(path, Record.from_dict(data))
        total += path.stat().st_size
    return total


def build(project: Path) -> tuple[float, float]:
    # bytecode caches written, as a user's builds write them (a machine that sets PYTHONDONTWRITEBYTECODE
    # would compile the copy's package in every build, and both builds would take that longer)
    env = {k: v for k, v in ENV.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(project / "src")}
    return run_timed([PYTHON, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(project / "site")], cwd=project,
                     env=env)


def pages(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_size for p in site.rglob("*.html")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ruota-scale-"))
    try:
        few = copy_project(work / "two")
        many = copy_project(work / "many")
        committed = sorted((few / "verification").glob("*.json"))
        per_machine = sum(p.stat().st_size for p in committed) / len(committed)
        old_format = sum(len(json.dumps(dict(ledger.load(p).to_dict(), schema=1), indent=1,
                                        ensure_ascii=False).encode()) for p in committed) / len(committed)
        synthetic_bytes = make_records(many / "verification", args.records)
        times = {"two": [], "many": []}
        for _ in range(args.repeat):
            for name, project in (("two", few), ("many", many)):
                times[name].append(build(project))
        weights = {name: pages(project / "site") for name, project in (("two", few), ("many", many))}
        guides = {name: max((v, k) for k, v in found.items() if "/guides/" in f"/{k}")
                  for name, found in weights.items()}
        heaviest = {name: max((v, k) for k, v in found.items()) for name, found in weights.items()}
        best = {name: (min(t[0] for t in found), min(t[1] for t in found)) for name, found in times.items()}
        rows = [
            ("records: bytes per machine, committed (mean)", f"{per_machine:,.0f}"),
            ("the same blocks in the old format (mean)", f"{old_format:,.0f}"),
            ("records: bytes per machine, synthetic (mean)", f"{synthetic_bytes / args.records:,.0f}"),
            (f"mkdocs build, 2 records (best of {args.repeat}, wall / cpu s)",
             f"{best['two'][0]:.2f} / {best['two'][1]:.2f}"),
            (f"mkdocs build, {args.records + 2:,} records (best of {args.repeat}, wall / cpu s)",
             f"{best['many'][0]:.2f} / {best['many'][1]:.2f}"),
            ("heaviest guide page, 2 records", f"{guides['two'][1]}: {guides['two'][0] / 1024:,.0f} KiB"),
            (f"heaviest guide page, {args.records + 2:,} records",
             f"{guides['many'][1]}: {guides['many'][0] / 1024:,.0f} KiB"),
            ("heaviest page, 2 records", f"{heaviest['two'][1]}: {heaviest['two'][0] / 1024:,.0f} KiB"),
            (f"heaviest page, {args.records + 2:,} records",
             f"{heaviest['many'][1]}: {heaviest['many'][0] / 1024:,.0f} KiB"),
        ]
        ratios = [
            ("build time (wall)", best["many"][0] / best["two"][0], "≤ 1.5"),
            ("build time (cpu)", best["many"][1] / best["two"][1], "≤ 1.5"),
            ("heaviest guide page", guides["many"][0] / guides["two"][0], "≤ 1.25"),
            ("heaviest page", heaviest["many"][0] / heaviest["two"][0], "informative"),
            ("record bytes per machine, stored / old format", per_machine / old_format, "≤ 0.33"),
        ]
        lines = [f"## The site with {args.records + 2:,} records", "", "| measurement | value |", "| --- | ---: |"]
        lines += [f"| {name} | {value} |" for name, value in rows]
        lines += ["", "| ratio | value | goal |", "| --- | ---: | --- |"]
        lines += [f"| {name} | {value:.2f}× | {goal} |" for name, value, goal in ratios]
        print("\n".join(lines))
        print("\nall times:", json.dumps({k: [[round(a, 2), round(b, 2)] for a, b in v] for k, v in times.items()}))
    finally:
        if args.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
