"""The engine's garbage-collector calls, on and off: a site build of many records, and one page's run.

    python benchmarks/gc_calls.py PROJECT PAGE [--repeat 3]

PROJECT is a copy of the site with the records to read (``scale_records.py --keep`` leaves
one with a thousand synthetic records); PAGE a page of this repository for pytest to run
(``docs/es/index.md``). Each is run with the calls as they are and with them switched off
(the site plugin's `_no_collection` made a no-op; ``gc.freeze`` made a no-op in the pytest
run), interleaved, best of ``--repeat``: wall and CPU seconds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from _common import ENV, PYTHON, ROOT, run_timed

BUILD = """\
import contextlib, sys
if sys.argv[1] == "off":
    import ruota_docs.site.plugin as plugin
    plugin._no_collection = contextlib.nullcontext
from mkdocs.__main__ import cli
sys.argv = ["mkdocs", "build", "-q", "-d", sys.argv[2]]
cli()
"""
PAGE = """\
import gc, sys
if sys.argv[1] == "off":
    gc.freeze = lambda: None
import pytest
sys.exit(pytest.main(["-p", "no:cacheprovider", "-q", "--no-record", sys.argv[2]]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("page")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    env = ENV | {"OMP_NUM_THREADS": "1"}
    runs = {"build": ([PYTHON, "-c", BUILD], [str(args.project / "site-gc")], args.project),
            "page": ([PYTHON, "-c", PAGE], [args.page], ROOT)}
    times: dict[str, list[tuple[float, float]]] = {f"{n} {m}": [] for n in runs for m in ("on", "off")}
    for _ in range(args.repeat):
        for name, (cmd, rest, cwd) in runs.items():
            for mode in ("on", "off"):
                times[f"{name} {mode}"].append(run_timed([*cmd, mode, *rest], cwd=cwd, env=env))
    for name, found in times.items():
        print(f"{name}: best wall {min(w for w, _ in found):.2f} s, cpu {min(c for _, c in found):.2f} s")


if __name__ == "__main__":
    sys.exit(main())
