"""Collecting (and running) the docs: this engine against an earlier one, side by side.

    python benchmarks/collect.py [--old 72e2b72] [--repeat 3] [--run] [--blocks 10000]

The earlier engine is the package at commit ``--old`` (by default the last one with the
hand-written Markdown lexer), unpacked with ``git archive`` into a temporary folder and
imported from there (``PYTHONPATH``); each engine works on its own commit's docs. Measured,
alternating old and new so that the machine's load falls on both alike:

- ``pytest docs --collect-only`` (every page of the three languages);
- with ``--run``: ``pytest docs --no-record`` (every block executed; minutes), each engine
  on its own commit's docs, and both on the earlier commit's docs (the same blocks: the
  fair comparison of running "our docs as they were");
- ``pytest --collect-only`` on one page of ``--blocks`` trivial python blocks, rendered
  with this repository's mkdocs.yml (the goal: seconds).

Each is reported as wall-clock seconds and as CPU seconds (user + system): on a machine
shared with other work, the CPU figures are the steadier comparison.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from _common import ENV, PYTHON, ROOT, report, run_timed

PYTEST = [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q"]


def unpack(commit: str, into: Path) -> Path:
    """The repository's files at ``commit`` (no git metadata is changed)."""
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def big_page_project(into: Path, blocks: int) -> Path:
    """A project with the repository's extensions and conftest, and one page of ``blocks`` blocks."""
    (into / "docs").mkdir(parents=True)
    (into / "snippets").mkdir()
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    (into / "mkdocs.yml").write_text(config[config.index("markdown_extensions:"):config.index("\nnav:")] + "\n"
                                     "site_name: big\n", encoding="utf-8")
    shutil.copy(ROOT / "conftest.py", into / "conftest.py")
    (into / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    page = "# Big\n\n" + "".join(f"```python\nx{i} = {i}\n```\n\n" for i in range(blocks))
    (into / "docs" / "big.md").write_text(page, encoding="utf-8")
    return into


def same_docs_for_new(old_root: Path, into: Path) -> Path:
    """The earlier docs for this engine: its mkdocs.yml names the earlier plugin's
    ``ruota-slot`` fence, which decides nothing about code blocks and no longer exists."""
    shutil.copytree(old_root, into)
    config = (into / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"- pymdownx\.superfences:\n(?:\s+.*\n)*?\s+format: !!python/name:ruota_docs\.slots\.format_slot\n",
                    "- pymdownx.superfences\n", config)
    (into / "mkdocs.yml").write_text(config, encoding="utf-8")
    return into


def side_by_side(repeat: int, old: tuple[Path, dict], new: tuple[Path, dict], cmd: list[str]) -> dict:
    """Best of ``repeat`` for each engine, runs interleaved: ``{(engine, "wall" or "cpu"): seconds}``."""
    times: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
    for _ in range(repeat):
        for name, (cwd, env) in (("old", old), ("new", new)):
            times[name].append(run_timed(cmd, cwd=cwd, env=env))
    return {(name, kind): min(t[k] for t in runs)
            for name, runs in times.items() for k, kind in enumerate(("wall", "cpu"))}


def measured(title: str, best: dict, earlier: str, goal: str, rows: list, ratios: list) -> None:
    """Rows for both engines, wall and CPU, and the two ratios."""
    for kind in ("wall", "cpu"):
        rows += [(f"{title}, engine at {earlier} ({kind})", best["old", kind]),
                 (f"{title}, this engine ({kind})", best["new", kind])]
        ratios.append((f"{title}: this / earlier ({kind})", best["new", kind] / best["old", kind], goal))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="72e2b72", help="commit of the earlier engine (default: 72e2b72)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement per engine (best kept)")
    parser.add_argument("--run", action="store_true", help="also execute every block of the docs (minutes)")
    parser.add_argument("--blocks", type=int, default=10_000, help="blocks on the big page (default 10000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-collect-") as tmp:
        Path(tmp).chmod(0o755)  # run as root, pages run as the unprivileged user: it must reach them
        old_root = unpack(args.old, Path(tmp) / "old")
        old_env = dict(ENV, PYTHONPATH=str(old_root / "src"))
        new_env = dict(ENV, PYTHONPATH=str(ROOT / "src"))
        big = big_page_project(Path(tmp) / "big", args.blocks)
        rows, ratios = [], []
        measured("collect docs/", side_by_side(args.repeat, (old_root, old_env), (ROOT, new_env),
                                               PYTEST + ["docs", "--collect-only"]), args.old, "≤ 1.0", rows, ratios)
        if args.run:
            measured("run docs/ (each its own)",
                     side_by_side(1, (old_root, old_env), (ROOT, new_env), PYTEST + ["docs", "--no-record"]),
                     args.old, "informative", rows, ratios)
            same = same_docs_for_new(old_root, Path(tmp) / "old-for-new")
            measured(f"run the docs of {args.old}",
                     side_by_side(1, (old_root, old_env), (same, new_env), PYTEST + ["docs", "--no-record"]),
                     args.old, "≤ 1.0", rows, ratios)
        measured(f"collect a page of {args.blocks} blocks", side_by_side(
            args.repeat, (big, old_env), (big, new_env), PYTEST + ["docs", "--collect-only"]), args.old,
            "seconds", rows, ratios)
        report("Collecting the docs: this engine against the earlier one", rows, ratios)


if __name__ == "__main__":
    main()
