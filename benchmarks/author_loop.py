"""The author's loop: one page of trivial blocks, and 1,000 blocks, against other runners.

    python benchmarks/author_loop.py [--repeat N] [--peer-python PATH] [--core-python PATH]

Builds a throwaway project with this repository's mkdocs.yml and theme overrides (no conftest:
the engine's pytest plugin finds the site itself), then times, side by side and in one run
(best of N, wall clock, each in a fresh process, bytecode caches written as on a user's
machine, where ``PYTHONDONTWRITEBYTECODE`` is not set):

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

from _common import ENV, PYTHON, ROOT, best_of, interleaved, report

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
    shutil.copytree(ROOT / "overrides", where / "overrides")  # the theme's custom_dir
    (where / "snippets").mkdir()
    if conftest:
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
    engine_conftest = ""  # the engine collects a site's pages with no conftest
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
        # bytecode caches as a user's machine writes them: without them every run compiles every
        # module again, and pytest rewrites the assertions of every plugin module again
        env = {k: v for k, v in ENV.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"XDG_CACHE_HOME": str(cache)}
        n = args.repeat
        own = {k: v for k, v in env.items() if k != "PYTHONPATH"}  # an environment of its own: nothing of ours
        one_page = {
            "ours": (pytest + ["docs/es/page.md", "--record", "verification/ours.json"], {"cwd": ours, "env": env}),
            "ours_no_ledger": (pytest + ["docs/es/page.md", "--no-record"], {"cwd": ours, "env": env}),
            "md": (pytest + ["--markdown-docs", "docs/es/page.md"], {"cwd": markdown_docs, "env": env}),
            "sybil": (pytest + ["docs/es/page.md"], {"cwd": plain, "env": env}),
        }
        if args.peer_python:
            one_page["peer"] = ([args.peer_python, "-m", "pytest", "-q", "--markdown-docs", "docs/es/page.md"],
                                {"cwd": markdown_docs, "env": own})
        if args.core_python:
            one_page["core"] = ([args.core_python, "-m", "pytest", "-q", "docs/es/page.md", "--record",
                                 "verification/core.json"], {"cwd": ours, "env": own})
        measured = interleaved(n, one_page)
        ours_page, ours_no_ledger, md_page = (measured[k][0] for k in ("ours", "ours_no_ledger", "md"))
        sybil_page = measured["sybil"][0]
        peer_page, peer_cpu = measured.get("peer", (None, None))
        core_page, core_cpu = measured.get("core", (None, None))
        alone_cmd, alone_kwargs = one_page["core" if args.core_python else "ours"]
        setup_cold = []
        for _ in range(max(1, n // 2)):  # the Markdown set-up resolved again, as after editing mkdocs.yml
            shutil.rmtree(cache / "ruota-docs" / "markdown-setup", ignore_errors=True)
            setup_cold.append(best_of(1, alone_cmd, **alone_kwargs)[0])
        ours_many, _ = best_of(max(1, n // 2), pytest + ["docs/big", "--no-record"], cwd=ours, env=env)
        sybil_many, _ = best_of(max(1, n // 2), pytest + ["docs/big"], cwd=plain, env=env)
        cold = []
        for _ in range(max(1, n // 2)):
            (cache / "ruota-docs" / "probe.json").unlink(missing_ok=True)
            cold.append(best_of(1, pytest + ["docs/es/page.md", "--no-record"], cwd=needs, env=env)[0])
        warm, _ = best_of(n, pytest + ["docs/es/page.md", "--no-record"], cwd=needs, env=env)
    rows = [("this engine, one page of 50 blocks (record written)", ours_page),
            ("this engine, same page, --no-record", ours_no_ledger),
            ("pytest-markdown-docs, same page", md_page)]
    ratios = [("one page: this engine / pytest-markdown-docs, both in this environment", ours_page / md_page,
               "informative")]
    if core_page is not None:
        rows.append(("this engine installed alone (no extras), same page (record written)", core_page))
    rows.append((f"same, {'installed alone' if core_page is not None else 'this environment'}, Markdown set-up "
                 "not kept yet (first run after mkdocs.yml changes)", min(setup_cold)))
    if peer_page is not None:
        rows.append(("pytest-markdown-docs in an environment of its own, same page", peer_page))
        ours_alone = core_page if core_page is not None else ours_page
        ratios.insert(0, ((f"one page: this engine{' installed alone' if core_page is not None else ''} / "
                           "pytest-markdown-docs in its own environment"), ours_alone / peer_page, "≤ 1.5"))
        if core_cpu is not None:
            ratios.insert(1, ("same, CPU seconds (user + system, the page's process included)", core_cpu / peer_cpu,
                              "informative"))
    text = report(
        "Author loop: one page, and 1,000 blocks",
        [*rows,
         ("plain Sybil, same page", sybil_page),
         ("this engine, 20 pages (1,000 blocks), --no-record", ours_many),
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
