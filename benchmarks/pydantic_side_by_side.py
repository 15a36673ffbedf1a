#!/usr/bin/env python3
"""pydantic's docs tested by pydantic's own doc test (pytest-examples) and by the engine, side by side.

    python benchmarks/pydantic_side_by_side.py prepare DIR [--source GIT_DIR@2151025aa]
    python benchmarks/pydantic_side_by_side.py time DIR [--pairs 5]

``prepare`` exports pydantic's sources once into ``DIR/site`` (``git archive``) and sets up the two
sides on that one copy, then prints the command of each measurement (run them with any timer, A and
B in turn):

- **pytest-examples** (``DIR/pytest-examples``): pydantic's ``tests/test_docs.py`` at that commit,
  adapted to run against the pydantic installed here rather than the sources' development version:
  only ``test_docs_examples`` (the examples of ``docs/``; the docstring examples of ``pydantic/``
  belong to the sources' own version, and the engine does not collect docstrings), its
  ``PYDANTIC_ERRORS_INCLUDE_URL=false`` fixture from ``tests/conftest.py``, and pytest's settings
  left empty (pydantic's ``pyproject.toml`` names pytest-benchmark's options and turns warnings
  into errors), as the engine's side has them. It needs ``pytest-examples`` and ``pytest-mock``
  and pydantic's doc-test dependencies on ``PYTHONPATH`` (installed apart, ``pip install --target``).
- **the engine** (``DIR/site``): its plugins and hooks left out, the engine turned on as
  ``external_sites.py`` does for "pydantic and FastAPI end to end" (``report_only``, the policies
  of ``ruota-docs init --write``, ``'': show``, page isolation, ``sites/pydantic_setup.py`` as
  ``setup``), then ``pytest docs`` (``--run-as-root --block-timeout 20``).
- **the build**: ``mkdocs build`` of ``DIR/site`` with the plugin (``mkdocs.yml``, after one run of
  the engine wrote its record) and without it (``mkdocs-plain.yml``: the same file, ``plugins: []``;
  without a ``plugins`` key MkDocs would add its ``search``, which the engine's side does not have).

``time`` runs each pair ``--pairs`` times in turn (A B A B …), after one pair it does not count, and
prints the median of each side and the median of the ratios pair by pair: a shared machine's load
falls on both sides of a pair alike. The build is given in wall and CPU seconds (its goal is a CPU
cost).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import external_sites
from _common import ENV, PYTHON, ROOT

SOURCE = "/work/.mirror/pydantic+pydantic/repo@2151025aa"
#: pytest's own settings emptied on both sides (pydantic's name pytest-benchmark's options).
NEUTRAL = ["-p", "no:cacheprovider", "-o", "addopts=", "-o", "filterwarnings="]

CONFTEST = '''\
import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def disable_error_urls():
    # as pydantic's tests/conftest.py: error messages without their documentation link
    os.environ["PYDANTIC_ERRORS_INCLUDE_URL"] = "false"
'''


def _doc_test(original: str, docs: Path) -> str:
    """pydantic's test_docs.py with only the examples of ``docs/``, read from the exported copy."""
    text = original.replace("DOCS_ROOT = Path(__file__).parent.parent / 'docs'", f"DOCS_ROOT = Path({str(docs)!r})")
    start = text.index("@pytest.mark.thread_unsafe\n@pytest.mark.filterwarnings")  # test_docstrings_examples
    end = text.index("@pytest.fixture(scope='module', autouse=True)")
    text = text[:start] + text[end:]
    cut = text.index("@pytest.mark.thread_unsafe\n@pytest.mark.skipif(bool(skip_reason)")  # the devtools test, …
    return text[:cut]


def _without_plugins(config: Path, target: Path) -> None:
    """The site's config with ``plugins: []`` said outright: a file without ``plugins`` gets MkDocs'
    default ``search``, which the engine's side (``plugins: [ruota_docs]``) does not have."""
    import yaml
    from mkdocs.utils.yaml import get_yaml_loader

    data = yaml.load(config.read_text(encoding="utf-8"), Loader=get_yaml_loader())  # noqa: S506 — as external_sites
    data["plugins"] = []
    target.write_text(yaml.dump(data, sort_keys=False), encoding="utf-8")


def prepare(folder: Path, source: str) -> None:
    folder.mkdir(parents=True, exist_ok=False)
    exported, _ = external_sites._source(source, folder)
    site = exported.rename(folder / "site")
    config = external_sites._config(site)
    _without_plugins(config, site / "mkdocs-plain.yml")
    external_sites._adopt(site, config, str(ROOT / "benchmarks/sites/pydantic_setup.py"), None)
    side = folder / "pytest-examples"
    side.mkdir()
    (side / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (side / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (side / "test_docs.py").write_text(_doc_test((site / "tests/test_docs.py").read_text(encoding="utf-8"),
                                                 site / "docs"), encoding="utf-8")
    first = subprocess.run(_commands(folder)["run"][0][0], cwd=site, env=_engine_env(), capture_output=True, text=True)
    print(f"the engine's first run (it writes the record the build shows): {first.stdout.strip().splitlines()[-1]}")
    for name, (a, b) in _commands(folder).items():
        print(f"\n{name}:\n  A (cd {a[1]}): {' '.join(a[0])}\n  B (cd {b[1]}): {' '.join(b[0])}")


def _commands(folder: Path) -> dict[str, tuple[tuple[list[str], Path], tuple[list[str], Path]]]:
    """``{measurement: ((command A, folder), (command B, folder))}``: A the engine, B the yardstick."""
    site, side = folder / "site", folder / "pytest-examples"
    engine = [PYTHON, "-m", "pytest", "-q", *NEUTRAL, "-p", "no:xdist"]
    examples = [PYTHON, "-m", "pytest", "-q", *NEUTRAL, "-k", "test_docs_examples", "test_docs.py"]
    build = [PYTHON, "-m", "mkdocs", "build", "-q", "-d", str(folder / "built")]
    return {
        "collect": ((engine + ["--collect-only", "docs"], site), (examples + ["--collect-only"], side)),
        "run": ((engine + ["--run-as-root", "--block-timeout", "20", "docs"], site), (examples, side)),
        "build": ((build + ["-f", "mkdocs.yml"], site), (build + ["-f", "mkdocs-plain.yml"], site)),
    }


def _engine_env() -> dict:
    """The engine's environment: ``ENGINE_PYTHONPATH`` as its ``PYTHONPATH`` (pydantic's doc-test
    dependencies, without pytest-examples, whose pytest plugin would load in its runs too)."""
    return ENV | {"PYTHONPATH": os.environ.get("ENGINE_PYTHONPATH", "")}


def _seconds(command: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    """``(wall, CPU)`` seconds of ``command`` (the CPU of the processes it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def time_pairs(folder: Path, pairs: int, names: list[str]) -> None:
    """The median of each side and of the ratios, pair by pair (``PYTHONPATH`` as the caller set it for the
    yardstick, ``ENGINE_PYTHONPATH`` for the engine: pytest-examples' own plugin stays out of its runs).
    The build's cost is its CPU time (the plugin's goal), also given: the wall time of a build moves with
    the machine's load more than its CPU time does. The first pair is not counted (it writes bytecode
    and fills the engine's caches, as any build before the ones a user waits for)."""
    engine_env = _engine_env()
    print("| measurement | engine (A) | B | A / B |\n| --- | ---: | ---: | ---: |")
    for name in names:
        (a, a_cwd), (b, b_cwd) = _commands(folder)[name]
        got = []
        for n in range(pairs + 1):
            first = _seconds(a, a_cwd, engine_env)
            second = _seconds(b, b_cwd, engine_env if name == "build" else ENV)
            if n:
                got.append((first, second))
        for what, i in (("wall", 0), ("CPU", 1)) if name == "build" else (("wall", 0),):
            ratio = statistics.median(x[i] / y[i] for x, y in got)
            print(f"| {name} ({what}) | {statistics.median(x[i] for x, _ in got):.2f} s "
                  f"| {statistics.median(y[i] for _, y in got):.2f} s | {ratio:.2f}× |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("action", choices=("prepare", "time"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("--source", default=SOURCE, help="GIT_DIR@REV of pydantic's sources")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--only", action="append", choices=("collect", "run", "build"))
    args = parser.parse_args()
    if args.action == "prepare":
        prepare(args.folder.resolve(), args.source)
    else:
        time_pairs(args.folder.resolve(), args.pairs, args.only or ["collect", "run", "build"])
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    sys.exit(main())
