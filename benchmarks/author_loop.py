"""The author's loop: one page of trivial blocks, and 1,000 blocks, against other runners.

    python benchmarks/author_loop.py [--repeat N] [--peer-python PATH] [--core-python PATH]

Builds a throwaway project with this repository's mkdocs.yml and conftest.py, then times,
side by side and in one run (best of N, wall clock, each in a fresh process):

- one page of 50 trivial Python blocks: this engine (``pytest page.md``, the page in its
  own process, the record written) against pytest-markdown-docs (``pytest --markdown-docs``)
  and against plain Sybil (its own Markdown parser, in pytest's process) — goal ≤ 1.5×
  pytest-markdown-docs;
- 20 such pages (1,000 blocks): this engine against plain Sybil — goal ≤ 2×;
- the same page with a block that needs the machine's description (``requires: cpu``):
  a cold probe cache against a warm one.

The other runners are installed as benchmark dependencies (``pip install -e .[bench]``).
The plugins of this environment (ours included) cost every pytest run at start-up, so the
one-page ratio is also taken against pytest-markdown-docs in an environment of its own
(``--peer-python``: ``python -m venv /tmp/peer && /tmp/peer/bin/pip install pytest
pytest-markdown-docs==0.9.2``), with this engine as a user installs it, the core package and
no extras (``--core-python``: ``python -m venv /tmp/core && /tmp/core/bin/pip install .``;
this environment's when not given).
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

from _common import ENV, PYTHON, ROOT, best_of, report

PLAIN_SYBIL = """\
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

pytest_collect_file = Sybil(parsers=[PythonCodeBlockParser()], patterns=["*.md"]).pytest()
"""


def page(blocks: int, first: str = "") -> str:
    body = "\n".join(f"```python\nx{i} = {i} * 2\nassert x{i} == {2 * i}\n```\n" for i in range(blocks))
    return f"# Page {{ #page }}\n\n{first}{body}"


def project(where: Path, conftest: str, pages: dict[str, str]) -> Path:
    where.mkdir(parents=True)
    shutil.copy(ROOT / "mkdocs.yml", where / "mkdocs.yml")
    (where / "snippets").mkdir()
    (where / "conftest.py").write_text(conftest, encoding="utf-8")
    (where / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p no:xdist\n", encoding="utf-8")
    for rel, text in pages.items():
        path = where / "docs" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each command; the best counts (default 5)")
    parser.add_argument("--peer-python", metavar="PATH",
                        help="python of an environment holding pytest-markdown-docs alone")
    parser.add_argument("--core-python", metavar="PATH",
                        help="python of an environment holding ruota-docs without extras")
    args = parser.parse_args()
    pytest = [PYTHON, "-m", "pytest", "-q"]
    engine_conftest = (ROOT / "conftest.py").read_text(encoding="utf-8")
    one = {"es/page.md": page(50)}
    many = {f"es/page{n:02}.md": page(50) for n in range(20)}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        tmp.chmod(0o755)  # run as root, pages run as the unprivileged user: it must reach the project
        ours = project(tmp / "ours", engine_conftest, one | {f"big/{k}": v for k, v in many.items()})
        plain = project(tmp / "sybil", PLAIN_SYBIL, one | {f"big/{k}": v for k, v in many.items()})
        markdown_docs = project(tmp / "markdown-docs", "", one)
        needs = project(tmp / "needs", engine_conftest,
                        {"es/page.md": page(50, "<!-- requires: cpu -->\n```python\npass\n```\n\n")})
        cache = tmp / "cache"
        env = dict(ENV, XDG_CACHE_HOME=str(cache))
        n = args.repeat
        ours_page, _ = best_of(n, pytest + ["docs/es/page.md", "--ledger", str(tmp / "ours.json")], cwd=ours, env=env)
        ours_no_ledger, _ = best_of(n, pytest + ["docs/es/page.md", "--no-ledger"], cwd=ours, env=env)
        md_page, _ = best_of(n, pytest + ["--markdown-docs", "docs/es/page.md"], cwd=markdown_docs, env=env)
        own = {k: v for k, v in env.items() if k != "PYTHONPATH"}  # an environment of its own: nothing of ours
        peer_page = core_page = None
        if args.peer_python:
            peer_page, _ = best_of(n, [args.peer_python, "-m", "pytest", "-q", "--markdown-docs", "docs/es/page.md"],
                                   cwd=markdown_docs, env=own)
        if args.core_python:
            core_page, _ = best_of(n, [args.core_python, "-m", "pytest", "-q", "docs/es/page.md", "--ledger",
                                       str(tmp / "core.json")], cwd=ours, env=own)
        sybil_page, _ = best_of(n, pytest + ["docs/es/page.md"], cwd=plain, env=env)
        ours_many, _ = best_of(max(1, n // 2), pytest + ["docs/big", "--no-ledger"], cwd=ours, env=env)
        sybil_many, _ = best_of(max(1, n // 2), pytest + ["docs/big"], cwd=plain, env=env)
        cold = []
        for _ in range(max(1, n // 2)):
            shutil.rmtree(cache, ignore_errors=True)
            cold.append(best_of(1, pytest + ["docs/es/page.md", "--no-ledger"], cwd=needs, env=env)[0])
        warm, _ = best_of(n, pytest + ["docs/es/page.md", "--no-ledger"], cwd=needs, env=env)
    rows = [("this engine, one page of 50 blocks (record written)", ours_page),
            ("this engine, same page, --no-ledger", ours_no_ledger),
            ("pytest-markdown-docs, same page", md_page)]
    ratios = [("one page: this engine / pytest-markdown-docs, both in this environment", ours_page / md_page,
               "informative")]
    if core_page is not None:
        rows.append(("this engine installed alone (no extras), same page (record written)", core_page))
    if peer_page is not None:
        rows.append(("pytest-markdown-docs in an environment of its own, same page", peer_page))
        ours_alone = core_page if core_page is not None else ours_page
        ratios.insert(0, ((f"one page: this engine{' installed alone' if core_page is not None else ''} / "
                           "pytest-markdown-docs in its own environment"), ours_alone / peer_page, "≤ 1.5"))
    text = report(
        "Author loop: one page, and 1,000 blocks",
        [*rows,
         ("plain Sybil, same page", sybil_page),
         ("this engine, 20 pages (1,000 blocks), --no-ledger", ours_many),
         ("plain Sybil, 20 pages (1,000 blocks)", sybil_many),
         ("this engine, a page whose block needs the machine, probe cache cold", min(cold)),
         ("same, probe cache warm", warm)],
        [*ratios,
         ("1,000 blocks: this engine / plain Sybil", ours_many / sybil_many, "≤ 2"),
         ("probe needed, warm cache / no probe", warm / ours_no_ledger, "informative"),
         ("probe cache cold / warm", min(cold) / warm, "informative")])
    print(f"(best of {args.repeat}; {os.cpu_count()} cores)")
    return text


if __name__ == "__main__":
    main()
