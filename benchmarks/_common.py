"""Shared helpers for the benchmark scripts: timing commands side by side."""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, NO_MKDOCS_2_WARNING="1", KERAS_BACKEND="torch")


def run_timed(cmd: list[str], cwd: Path = ROOT, env: dict | None = None) -> tuple[float, float]:
    """``(wall seconds, CPU seconds)`` of one command (CPU: user + system of it and its
    children, which other work on a shared machine disturbs far less); raises with its
    output if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(cmd, cwd=cwd, env=env or ENV, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0,):
        # pytest's failures section, where there is one: its summary of skips can be longer than the tail shown
        out = result.stdout
        failures = out.find("= FAILURES =")
        shown = out[failures:failures + 6000] if failures >= 0 else out[-3000:]
        raise SystemExit(f"command failed ({result.returncode}): {' '.join(cmd)}\n{shown}\n{result.stderr[-3000:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run(cmd: list[str], cwd: Path = ROOT, env: dict | None = None) -> float:
    """Seconds one command takes; raises with its output if it fails."""
    return run_timed(cmd, cwd, env)[0]


def best_of(n: int, cmd: list[str], **kwargs) -> tuple[float, list[float]]:
    times = [run(cmd, **kwargs) for _ in range(n)]
    return min(times), times


def interleaved(n: int, runs: dict[str, tuple[list[str], dict]]) -> dict[str, tuple[float, float]]:
    """``{name: (best wall, best CPU seconds)}`` of commands run in turn, ``n`` rounds: each
    round runs every command once, so that a busy moment of a shared machine falls on all of
    them alike rather than on whichever ran then."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(n):
        for name, (cmd, kwargs) in runs.items():
            times[name].append(run_timed(cmd, **kwargs))
    return {name: (min(t[0] for t in got), min(t[1] for t in got)) for name, got in times.items()}


def report(title: str, rows: list[tuple[str, float]], ratios: list[tuple[str, float, str]]) -> str:
    machine = f"Machine: {platform.machine()}, {os.cpu_count()} CPU cores, Python {platform.python_version()}"
    lines = [f"## {title}", "", machine, "", "| measurement | seconds |", "| --- | ---: |"]
    lines += [f"| {name} | {value:.2f} |" for name, value in rows]
    lines += ["", "| ratio | value | goal |", "| --- | ---: | --- |"]
    lines += [f"| {name} | {value:.2f}× | {goal} |" for name, value, goal in ratios]
    text = "\n".join(lines) + "\n"
    print(text)
    return text


PYTHON = sys.executable
