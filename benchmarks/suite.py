"""Snippet suite: three languages against one, and serial against parallel.

    python benchmarks/suite.py

Runs the real docs suite (no ledger written) side by side:
- es + fr + en with identical pages executed once, against es alone (goal < 1.2×);
- the same three languages with --no-reuse (every language executed), for contrast;
- serial against pytest-xdist with 2 workers, pages of one guide kept together.
"""

from __future__ import annotations

from _common import PYTHON, best_of, report

BASE = [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-ledger"]


def main() -> None:
    es_only, _ = best_of(1, BASE + ["docs/es"])
    all_langs, _ = best_of(1, BASE + ["docs"])
    no_reuse, _ = best_of(1, BASE + ["docs", "--no-reuse"])
    parallel, _ = best_of(1, BASE + ["docs", "-n", "2", "--dist", "loadscope"])
    report("Snippet suite", [("es alone", es_only), ("es + fr + en (identical pages run once)", all_langs),
                             ("es + fr + en, --no-reuse", no_reuse), ("es + fr + en, 2 workers (xdist)", parallel)],
           [("three languages / es alone", all_langs / es_only, "< 1.2"),
            ("--no-reuse / reuse", no_reuse / all_langs, "informative"),
            ("serial / 2 workers", all_langs / parallel, "> 1")])


if __name__ == "__main__":
    main()
