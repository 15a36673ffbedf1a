"""The engine's speed tricks, each on and off, in the loop it speeds up (`ruota_docs.blocks.speedups`).

    python benchmarks/speedups.py [--page PAGE] [--project PROJECT] [--repeat 3] [TRICK …]

Each trick is switched off with ``RUOTA_DOCS_NO_SPEEDUPS=TRICK`` and its loop run with it on and
off, interleaved, best of ``--repeat``, wall and CPU seconds (CPU: user and system of the command
and its children, which other work on a shared machine disturbs far less):

- ``render_ahead``, ``setup_cache``: pytest on one page (``--page``, by default
  ``docs/es/index.md``, ``--no-record``), the author's loop;
- ``template_cache``, ``gc_pause``: ``mkdocs build`` of ``--project`` (by default this repository;
  ``scale_records.py --keep`` leaves a copy with a thousand records, where ``gc_pause`` matters).

``serve_caches`` is measured by ``site_build.py`` (the preview's rebuilds).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from _common import ENV, PYTHON, ROOT, run_timed

LOOPS = {"render_ahead": "page", "setup_cache": "page", "template_cache": "build", "gc_pause": "build"}


def command(loop: str, page: str, project: Path, out: Path) -> tuple[list[str], Path]:
    if loop == "page":
        return [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-record", page], ROOT
    return [PYTHON, "-m", "mkdocs", "build", "-q", "-d", str(out)], project


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tricks", nargs="*", default=list(LOOPS), help=f"of {', '.join(LOOPS)} (default: all)")
    parser.add_argument("--page", default="docs/es/index.md")
    parser.add_argument("--project", type=Path, default=ROOT)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    unknown = [t for t in args.tricks if t not in LOOPS]
    if unknown:
        parser.error(f"no loop for {', '.join(unknown)}; choose among {', '.join(LOOPS)}")
    env = ENV | {"OMP_NUM_THREADS": "1"}
    env.pop("RUOTA_DOCS_NO_SPEEDUPS", None)
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as out:
        for _ in range(args.repeat):
            for trick in args.tricks:
                cmd, cwd = command(LOOPS[trick], args.page, args.project, Path(out) / "site")
                for mode in ("on", "off"):
                    run_env = env | ({"RUOTA_DOCS_NO_SPEEDUPS": trick} if mode == "off" else {})
                    times.setdefault((trick, mode), []).append(run_timed(cmd, cwd=cwd, env=run_env))
    print("| trick | loop | on (wall / cpu) | off (wall / cpu) | it buys (cpu) |")
    print("| --- | --- | ---: | ---: | ---: |")
    for trick in args.tricks:
        on, off = (min(times[(trick, m)], key=lambda t: t[1]) for m in ("on", "off"))
        wall_on, wall_off = (min(w for w, _ in times[(trick, m)]) for m in ("on", "off"))
        print(f"| {trick} | {LOOPS[trick]} | {wall_on:.2f} / {on[1]:.2f} | {wall_off:.2f} / {off[1]:.2f} "
              f"| {1 - on[1] / off[1]:.0%} |")


if __name__ == "__main__":
    sys.exit(main())
