"""Snippet suite: three languages against one, and serial against parallel.

    python benchmarks/suite.py

Runs the real docs suite (no record written) side by side:
- es + fr + en with identical pages executed once, against es alone (goal < 1.2×);
- the same three languages with --no-reuse (every language executed), for contrast;
- serial against pytest-xdist with 2 workers, pages of one guide kept together;
- a second run with --reuse-record against the first, nothing changed (goal < 0.10×).
"""

from __future__ import annotations

import tempfile

from _common import PYTHON, best_of, report

RUN = [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-q"]
BASE = RUN + ["--no-record"]


def main() -> None:
    es_only, _ = best_of(1, BASE + ["docs/es"])
    all_langs, _ = best_of(1, BASE + ["docs"])
    no_reuse, _ = best_of(1, BASE + ["docs", "--no-reuse"])
    parallel, _ = best_of(1, BASE + ["docs", "-n", "2", "--dist", "loadscope"])
    with tempfile.TemporaryDirectory() as tmp:
        record = RUN + ["docs", "--record", f"{tmp}/bench.json"]
        recorded, _ = best_of(1, record)
        reused, _ = best_of(1, record + ["--reuse-record"])
    report("Snippet suite", [("es alone", es_only), ("es + fr + en (identical pages run once)", all_langs),
                             ("es + fr + en, --no-reuse", no_reuse), ("es + fr + en, 2 workers (xdist)", parallel),
                             ("es + fr + en, recording a ledger", recorded),
                             ("same, again with --reuse-record", reused)],
           [("three languages / es alone", all_langs / es_only, "< 1.2"),
            ("--no-reuse / reuse", no_reuse / all_langs, "informative"),
            ("serial / 2 workers", all_langs / parallel, "> 1"),
            ("--reuse-record rerun / first run", reused / recorded, "< 0.10")])


if __name__ == "__main__":
    main()
