"""The pages' sandbox (bubblewrap) against the fallback (the unprivileged user), side by side.

    python benchmarks/sandbox.py [--samples N] [--pages N] [--rounds N] [--docs] [--docs-rounds N]

Every comparison runs the two ways in turns, alternating which goes first (ABBA…), and reports
medians and the median of the paired differences or ratios: on a machine shared with other
work, a busy moment then falls on both sides alike. The load average before and after each
part is printed with it.

- the pieces, each alone (``--samples`` runs each, in turns): starting ``true`` as the page's
  user, as the fallback does; ``bwrap`` with the engine's own arguments around ``true``
  (`ruota_docs.run.sandbox.command`), also without the switch to the user (``setpriv``),
  with the network shared, and with nothing but a PID namespace; and the page's process
  itself (the interpreter importing the worker) both ways;
- per page, in the engine: a page's process started, one trivial block run in it, and the
  page ended (`PageSession`), ``--samples`` pages each way, in turns; and one shell block
  (each starts a sandbox of its own);
- per page, under pytest: a throwaway project of ``--pages`` pages of one trivial block each
  (``es`` only, no record), ``--isolation sandbox`` against ``--isolation user``, ``--rounds``
  rounds (the fallback also pays the repository guard, which the sandbox does not need);
- with ``--docs``: the repository's docs phase as ``make test`` runs it (``pytest docs``,
  ``--docs-workers`` xdist workers, 2 as in the Makefile; 0: one process), both ways,
  ``--docs-rounds`` rounds (goal: the sandbox adds ≤ 10 %).

Goals: ≤ 30 ms per page, ≤ 1.10× on the docs phase, in wall clock. The run's own count of CPU
time (rusage) misses the processes of a page's PID namespace, which are reaped inside it;
where ``perf`` is installed, its counters, which follow every child wherever it runs, give the
CPU time of the pytest runs both ways, a figure the load of a shared machine barely moves. Run
as root, ``user`` runs the pages as the unprivileged user; as another user, as that user.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _common import ENV, PYTHON, ROOT, run
from author_loop import project

sys.path.insert(0, str(ROOT / "src"))  # the engine of this checkout
from ruota_docs.run import sandbox
from ruota_docs.run.process.session import PageSession
from ruota_docs.run.settings import Settings, from_environment
from ruota_docs.run.unprivileged import page_user

RUN = [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-record"]
WAYS = ("sandbox", "user")


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def paired(samples: int, ways: dict[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Seconds of each of the two ``ways``, ``samples`` times each, in turns (ABBA…)."""
    times: dict[str, list[float]] = {name: [] for name in ways}
    order = list(ways)
    for n in range(samples):
        for name in order if n % 2 == 0 else reversed(order):
            times[name].append(ways[name]())
    return times


def timed(cmd: list[str], **kwargs) -> Callable[[], float]:
    def once() -> float:
        started = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, **kwargs)
        return time.perf_counter() - started
    return once


class Table:
    """Rows of ``| measurement | sandbox | user | difference | ratio |`` (medians, milliseconds or seconds)."""

    def __init__(self) -> None:
        self.rows: list[str] = []
        self.pairs: list[str] = []

    def add(self, name: str, times: dict[str, list[float]], unit: float = 1000.0, per: int = 1) -> None:
        """``times`` of the two ways (seconds, in turns): their medians (times ``unit``: 1000 for
        milliseconds, 1 for seconds), the median of the paired differences (in milliseconds per page
        where ``per`` pages ran) and of the paired ratios."""
        a, b = times[WAYS[0]], times[WAYS[1]]
        med = statistics.median
        ratio = med(x / y for x, y in zip(a, b))
        label = "ms" if unit == 1000.0 else "s"
        difference = med(x - y for x, y in zip(a, b))
        shown = f"{difference * 1000 / per:+.1f} ms per page" if per > 1 else f"{difference * unit:+.1f} {label}"
        self.rows.append(f"| {name} | {med(a) * unit:.1f} {label} | {med(b) * unit:.1f} {label} | {shown} "
                         f"| {ratio:.2f}× | {len(a)} |")
        if len(a) <= 10:  # few pairs: each, in the order they ran
            self.pairs.append(f"- {name}: " + ", ".join(f"{x * unit:.1f}/{y * unit:.1f}" for x, y in zip(a, b))
                              + f" {label} (sandbox/user)")

    def text(self, title: str) -> str:
        head = [f"### {title}", "", "| measurement (median) | sandbox | user | difference (median of pairs) "
                "| ratio (median of pairs) | pairs |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
        pairs = ["", "Each pair:", "", *self.pairs] if self.pairs else []
        return "\n".join(head + self.rows + pairs) + "\n"


def pieces(samples: int, settings: Settings) -> str:
    """The sandbox's pieces, each alone, against the fallback's start of a process."""
    runner = page_user(settings)
    as_user = runner.popen_kwargs() if runner is not None else {}
    user = (runner.uid, runner.gid, runner.groups) if runner is not None else None
    readable = sandbox.readable_paths(tuple(str(p) for p in (settings.root, settings.docs_dir) if p is not None))
    env = sandbox.environment(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src")
    table = Table()
    with tempfile.TemporaryDirectory(prefix="ruota-bench-page-") as page:
        Path(page).chmod(0o755)
        work = Path(page)
        fallback = timed(["true"], cwd=page, env=env, **as_user)
        cases = {
            "`true`: bwrap with the page's arguments / started as the user":
                timed(sandbox.command(["true"], work, False, readable, user, work), cwd=page, env=env),
            "`true`: the same without the switch to the user (setpriv) / as the user":
                timed(sandbox.command(["true"], work, False, readable, None, work), cwd=page, env=env),
            "`true`: the same with the network shared / as the user":
                timed(sandbox.command(["true"], work, True, readable, user, work), cwd=page, env=env),
            "`true`: bwrap with a PID namespace only / as the user":
                timed([sandbox.bwrap() or "bwrap", "--unshare-pid", "--dev-bind", "/", "/", "true"], cwd=page,
                      env=env),
        }
        for name, way in cases.items():
            table.add(name, paired(samples, {"sandbox": way, "user": fallback}))
        worker = [PYTHON, "-c", "import ruota_docs.run.process.worker"]
        table.add("the page's process (Python importing the worker)", paired(samples, {
            "sandbox": timed(sandbox.command(worker, work, False, readable, user, work), cwd=page, env=env),
            "user": timed(worker, cwd=page, env=env, **as_user)}))
    return table.text("The pieces, each alone (wall clock of one command)")


def engine(samples: int) -> str:
    """A page (start, one block, end) and a shell block, the two ways in turns."""
    settings = {way: from_environment(isolation=way) for way in WAYS}
    count = iter(range(10**6))

    def page(way: str) -> Callable[[], float]:
        def once() -> float:
            n = next(count)
            started = time.perf_counter()
            session = PageSession(f"es/p{n}.md", settings=settings[way])
            assert session.run_python("x = 1\n", f"es/p{n}.md:3", 3, 30).status == "passed"
            session.close()
            return time.perf_counter() - started
        return once

    def shell(way: str) -> Callable[[], float]:
        session = PageSession("es/shell.md", settings=settings[way])
        sessions.append(session)

        def once() -> float:
            started = time.perf_counter()
            assert session.run_shell("true", 30).status == "passed"
            return time.perf_counter() - started
        return once

    sessions: list[PageSession] = []
    table = Table()
    table.add("one page: its process started, a block run, the page ended",
              paired(samples, {way: page(way) for way in WAYS}))
    try:
        table.add("one shell block (`true`)", paired(samples, {way: shell(way) for way in WAYS}))
    finally:
        for session in sessions:
            session.close()
    return table.text("Per page, in the engine (`PageSession`)")


class Runs:
    """A pytest command run each way in turns: wall clock and, where ``perf`` is installed, the
    CPU time of the run and of every process it started, namespaces included (``perf stat``
    counts a process's children wherever they run; the run's own rusage does not, see above)."""

    def __init__(self, cmd: list[str], **kwargs) -> None:
        self.cmd, self.kwargs = cmd, kwargs
        self.perf = shutil.which("perf")
        self.wall: dict[str, list[float]] = {way: [] for way in WAYS}
        self.cpu: dict[str, list[float]] = {way: [] for way in WAYS}

    def way(self, way: str) -> Callable[[], float]:
        def once() -> float:
            cmd = [*self.cmd, "--isolation", way]
            with tempfile.NamedTemporaryFile("r", suffix=".perf") as counted:
                if self.perf:
                    cmd = [self.perf, "stat", "-x", ",", "-e", "task-clock", "-o", counted.name, "--", *cmd]
                wall = run(cmd, **self.kwargs)
                cpu = [line.split(",")[0] for line in counted.read().splitlines() if "task-clock" in line]
            if cpu and cpu[0].replace(".", "", 1).isdigit():
                self.cpu[way].append(float(cpu[0]) / 1000)  # perf counts milliseconds
            return wall
        return once

    def measure(self, rounds: int, name: str, table: Table, per: int = 1) -> None:
        table.add(name, paired(rounds, {way: self.way(way) for way in WAYS}), unit=1.0, per=per)
        if all(len(self.cpu[way]) == rounds for way in WAYS):
            table.add(f"{name}: CPU time of the run and its processes (perf)", self.cpu, unit=1.0, per=per)


def under_pytest(rounds: int, pages: int) -> str:
    with tempfile.TemporaryDirectory(prefix="ruota-bench-sandbox-") as tmp:
        Path(tmp).chmod(0o755)  # run as root, the pages' user must reach the project
        site = project(Path(tmp) / "site", "", {f"es/p{n:03}.md": f"# Page {n} {{ #p{n} }}\n\n```python\nx = {n}\n```\n"
                                               for n in range(pages)})
        table = Table()
        Runs(RUN + ["docs"], cwd=site).measure(rounds, f"pytest, {pages} pages of one block", table, per=pages)
        return table.text(f"Per page, under pytest ({pages} pages)")


def docs(rounds: int, workers: int) -> str:
    spread = ["-n", str(workers), "--dist", "loadscope"] if workers else ["-p", "no:xdist"]
    table = Table()
    Runs(RUN + [*spread, "docs"], env=dict(ENV, OMP_NUM_THREADS="1")).measure(
        rounds, f"docs phase (`pytest docs {' '.join(spread)}`)", table)
    return table.text("The docs phase, as `make test` runs it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=50, help="runs of each piece and pages in the engine, each way")
    parser.add_argument("--pages", type=int, default=40, help="pages of the throwaway project run under pytest")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the throwaway project, each way")
    parser.add_argument("--docs", action="store_true", help="also the repository's docs phase, both ways")
    parser.add_argument("--docs-rounds", type=int, default=3)
    parser.add_argument("--docs-workers", type=int, default=2, help="xdist workers, as make test (0: none)")
    args = parser.parse_args()
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    print(f"## The pages' sandbox\n\nMachine: {os.uname().machine}, {os.cpu_count()} CPU cores, "
          f"Python {sys.version.split()[0]}, run as {'root' if root else 'an ordinary user'}.\n")
    parts: list[tuple[str, Callable[[], str]]] = [
        ("pieces", lambda: pieces(args.samples, from_environment(isolation="sandbox"))),
        ("engine", lambda: engine(args.samples)),
        ("pytest", lambda: under_pytest(args.rounds, args.pages)),
    ]
    if args.docs:
        parts.append(("docs", lambda: docs(args.docs_rounds, args.docs_workers)))
    for _, part in parts:
        before = load()
        text = part()
        print(f"{text}\nLoad average (1, 5, 15 min) before: {before}; after: {load()}.\n", flush=True)


if __name__ == "__main__":
    main()
