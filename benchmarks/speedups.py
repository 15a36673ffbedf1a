"""The engine's speed tricks, each on and off, in the loop it speeds up (`ruota_docs.blocks.speedups`).

    python benchmarks/speedups.py [--page PAGE] [--project PROJECT] [--repeat 3] [TRICK …]

Each trick is switched off with ``RUOTA_DOCS_NO_SPEEDUPS=TRICK`` and its loop run with it on and
off, interleaved, best of ``--repeat``, wall and CPU seconds (CPU: user and system of the command
and its children, which other work on a shared machine disturbs far less):

- ``render_ahead``, ``setup_cache``: pytest on one page (``--page``, by default
  ``docs/es/index.md``, ``--no-record``), the author's loop;
- ``gc_pause``: ``mkdocs build`` of ``--project`` (by default this repository; ``scale_records.py
  --keep`` leaves a copy with a thousand records, where it matters);
- ``serve_caches``, ``template_cache``: the live preview's rebuilds of one guide after a word of it
  changed, ``--edits`` of them after its first build, in a copy of this repository (the seconds
  of the rebuilds alone, as the process measures them).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import site_build
from _common import ENV, PYTHON, ROOT, run_timed

LOOPS = {"render_ahead": "page", "setup_cache": "page", "gc_pause": "build", "serve_caches": "rebuild",
         "template_cache": "rebuild"}
#: The preview's builder (`ruota_docs.serve.server.Builder`): a first build, then a rebuild after each
#: edit of a word of one guide; prints the CPU and wall seconds of the rebuilds.
REBUILD = """\
import sys, tempfile, time
from pathlib import Path
from mkdocs.config import load_config
from ruota_docs.serve.server import Builder
site = tempfile.mkdtemp()
builder = Builder(lambda: load_config(config_file="mkdocs.yml", site_dir=site), "http://127.0.0.1:8000/")
builder()
page = Path(sys.argv[1])
cpu = wall = 0.0
for n in range(int(sys.argv[2])):
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(sys.argv[3], f"medida{n} " + sys.argv[3], 1), encoding="utf-8")
    time.sleep(0.05)  # another modification time
    c, w = time.process_time(), time.perf_counter()
    builder()
    cpu, wall = cpu + time.process_time() - c, wall + time.perf_counter() - w
print(f"REBUILDS {wall:.3f} {cpu:.3f}")
"""


def command(loop: str, page: str, project: Path, out: Path, edits: int = 3) -> tuple[list[str], Path]:
    if loop == "rebuild":
        return [PYTHON, "-c", REBUILD, site_build.PAGE, str(edits), site_build.WORD_ANCHOR], project
    if loop == "page":
        return [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-record", page], ROOT
    return [PYTHON, "-m", "mkdocs", "build", "-q", "-d", str(out)], project


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tricks", nargs="*", default=list(LOOPS), help=f"of {', '.join(LOOPS)} (default: all)")
    parser.add_argument("--page", default="docs/es/index.md")
    parser.add_argument("--project", type=Path, default=ROOT)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--edits", type=int, default=3, help="rebuilds per preview (default 3)")
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
                for mode in ("on", "off"):
                    run_env = env | ({"RUOTA_DOCS_NO_SPEEDUPS": trick} if mode == "off" else {})
                    if LOOPS[trick] == "rebuild":
                        project = site_build.copy_project(Path(tempfile.mkdtemp(dir=out)) / "project")
                        cmd, cwd = command("rebuild", args.page, project, Path(out), args.edits)
                        done = subprocess.run(cmd, cwd=cwd, env=run_env, capture_output=True, text=True, check=True)
                        wall, cpu = done.stdout.split("REBUILDS ", 1)[1].split()
                        times.setdefault((trick, mode), []).append((float(wall), float(cpu)))
                        continue
                    cmd, cwd = command(LOOPS[trick], args.page, args.project, Path(out) / "site")
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
