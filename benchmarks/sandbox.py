"""The pages' sandbox (bubblewrap) against the fallback (the unprivileged user), side by side.

    python benchmarks/sandbox.py [--repeat N] [--pages N] [--docs]

- per page, in the engine: a page's process started, one trivial block run in it, and the
  page ended (`PageSession`), 20 pages each way, in turns, the best of N rounds: the
  difference is what the sandbox costs each page (goal ≤ 30 ms);
- per page, under pytest: a throwaway project of N pages of one trivial block each (``es``
  only, no record), run with ``--isolation sandbox`` and with ``--isolation user``, in turns,
  best of N (the fallback also pays the repository guard, which the sandbox does not need);
- with ``--docs``: the repository's own docs phase (``pytest docs --no-ledger``), both ways,
  in turns (goal: the sandbox adds ≤ 10 %).

Wall clock only: the processes of a page's PID namespace are reaped inside it, so their CPU
time does not reach the run's own count, and a CPU comparison would flatter the sandbox. Run
as root, ``user`` runs the pages as the unprivileged user; as another user, as that user.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from _common import PYTHON, interleaved, report
from author_loop import project

RUN = [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-ledger"]


def sessions(rounds: int, pages: int = 20) -> dict[str, float]:
    """Seconds per page (start, one block, end), best round of each isolation, in turns."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from ruota_docs.run.process.session import PageSession
    from ruota_docs.run.settings import from_environment

    best = {"sandbox": float("inf"), "user": float("inf")}
    for _ in range(rounds):
        for isolation in best:
            settings = from_environment(isolation=isolation)
            started = time.perf_counter()
            for n in range(pages):
                page = PageSession(f"es/p{n}.md", settings=settings)
                assert page.run_python("x = 1\n", f"es/p{n}.md:3", 3, 30).status == "passed"
                page.close()
            best[isolation] = min(best[isolation], (time.perf_counter() - started) / pages)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--docs", action="store_true", help="also the repository's docs phase, both ways")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ruota-bench-sandbox-") as tmp:
        Path(tmp).chmod(0o755)  # run as root, the pages' user must reach the project
        site = project(Path(tmp) / "site", "", {f"es/p{n:03}.md": f"# Page {n} {{ #p{n} }}\n\n```python\nx = {n}\n```\n"
                                               for n in range(args.pages)})
        found = interleaved(args.repeat, {
            "sandbox": (RUN + ["docs", "--isolation", "sandbox"], {"cwd": site}),
            "user": (RUN + ["docs", "--isolation", "user"], {"cwd": site}),
        })
    page = sessions(max(args.repeat, 3))
    rows = [("one page (start, a block, end), sandbox", page["sandbox"]), ("one page, user", page["user"]),
            ("the sandbox's cost per page, in the engine (ms)", (page["sandbox"] - page["user"]) * 1000),
            (f"pytest, {args.pages} pages, sandbox", found["sandbox"][0]),
            (f"pytest, {args.pages} pages, user", found["user"][0]),
            ("the sandbox's cost per page, under pytest (ms)",
             (found["sandbox"][0] - found["user"][0]) / args.pages * 1000)]
    ratios = [("one page: sandbox / user", page["sandbox"] / page["user"], "informative"),
              (f"pytest, {args.pages} pages: sandbox / user", found["sandbox"][0] / found["user"][0], "informative")]
    if args.docs:
        docs = interleaved(1 if args.repeat < 2 else 2, {
            "sandbox": (RUN + ["docs", "--isolation", "sandbox"], {}),
            "user": (RUN + ["docs", "--isolation", "user"], {}),
        })
        rows += [("docs phase (pytest docs), sandbox", docs["sandbox"][0]), ("docs phase, user", docs["user"][0])]
        ratios += [("docs phase: sandbox / user", docs["sandbox"][0] / docs["user"][0], "≤ 1.10")]
    report("The pages' sandbox", rows, ratios)


if __name__ == "__main__":
    main()
