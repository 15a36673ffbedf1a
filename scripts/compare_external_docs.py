#!/usr/bin/env python3
"""Compare, page by page, the code blocks ``mkdocs build`` shows with the engine's blocks.

    .venv/bin/python scripts/compare_external_docs.py ROOT [-f CONFIG] [--keep-plugins] [--plain-theme] [-v]
    .venv/bin/python scripts/compare_external_docs.py FOLDER --extensions-from mkdocs.yml

ROOT is any MkDocs project. It is copied to a temporary folder (ROOT itself is never
written to), built there with MkDocs, and each built page's code blocks (the text of
every ``<pre><code>`` in its HTML) are compared with ``renderer.render(root, page)``,
which renders the page with the project's own ``markdown_extensions``, both as the site
renders it and unhighlighted (``fast=True``), as test collection renders it. One line per
page: the rendered and engine block counts, and the first disagreement; then a total.

Plugins and hooks are left out of the build unless ``--keep-plugins`` is given: the
engine renders ``markdown_extensions`` only, and a project's plugins often need
packages or credentials this machine lacks. A plugin or hook that rewrites the
Markdown (``on_page_markdown``) can change what readers see; ``--keep-plugins`` shows
where it does.

A FOLDER of Markdown files that is no MkDocs project (the samples of a test tool, say)
is compared with ``--extensions-from CONFIG``: its files become the ``docs/`` of a
project rendered with CONFIG's ``markdown_extensions`` (YAML tags in them are not
carried over). Exit status: 0 when every page agrees, 1 otherwise, 2 for bad input.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import sys
import tempfile
import time
from pathlib import Path

import yaml

from ruota_docs.blocks import renderer, shown, site_config

#: Left out of the copy: history, build output, dependencies.
_IGNORE = shutil.ignore_patterns(".git", "site", "node_modules", ".venv", "__pycache__", ".tox", ".nox")


def _excerpt(code: str | None, width: int = 70) -> str:
    if code is None:
        return "(none)"
    text = code.replace("\n", "⏎")
    return repr(text if len(text) <= width else text[:width] + "…")


def _differences(seen: list[str], engine: list[str]) -> list[str]:
    """One line per position where the two lists of code differ."""
    return [f"block {n}: rendered {_excerpt(a)} / engine {_excerpt(b)}"
            for n, (a, b) in enumerate(itertools.zip_longest(seen, engine), 1) if a != b]


def _project_for_samples(folder: Path, copy: Path, extensions_from: Path) -> Path:
    """A project whose docs/ are the folder's files, rendered with another config's extensions."""
    shutil.copytree(folder, copy / "docs", ignore=_IGNORE, symlinks=True)
    extensions = site_config.load_mkdocs_config(extensions_from.parent if extensions_from.name == "mkdocs.yml"
                                                else extensions_from).get("markdown_extensions") or []
    config = copy / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"site_name": folder.name, "docs_dir": "docs", "theme": {"name": "mkdocs"},
                                      "markdown_extensions": extensions}, sort_keys=False), encoding="utf-8")
    return config


def _project_copy(root: Path, copy: Path, config_name: str) -> Path:
    shutil.copytree(root, copy, ignore=_IGNORE, symlinks=True)
    config = copy / config_name
    if config.name != "mkdocs.yml":  # the engine reads mkdocs.yml, as MkDocs does by default
        shutil.copy(config, copy / "mkdocs.yml")
        config = copy / "mkdocs.yml"
    return config


def compare(root: Path, config_name: str, keep_plugins: bool, verbose: bool,
            extensions_from: Path | None = None, plain_theme: bool = False) -> dict:
    """Build a copy of the project and compare every built page; returns the totals."""
    totals = {"pages": 0, "generated": 0, "rendered": 0, "engine": 0,
              "pages_differ": 0, "blocks_differ": 0, "problems": 0}
    with tempfile.TemporaryDirectory(prefix="compare-docs-") as tmp:
        copy = Path(tmp) / root.name
        if extensions_from is not None:
            config = _project_for_samples(root, copy, extensions_from)
        else:
            config = _project_copy(root, copy, config_name)
        overrides = {} if keep_plugins else {"plugins": [], "hooks": []}
        if plain_theme:  # the theme wraps each page's content and never changes it
            overrides["theme"] = {"name": "mkdocs"}
        # the project's own modules (named in mkdocs.yml with !!python/name:) import as under
        # ``python -m mkdocs build`` or pytest run from the project's folder
        sys.path.insert(0, str(copy))
        started = time.perf_counter()
        try:
            pages = shown.build(config, Path(tmp) / "site", **overrides)
        except Exception as error:  # noqa: BLE001 — MkDocs' ConfigurationError, BuildError, a plugin's own
            raise SystemExit(f"error: mkdocs build failed: {type(error).__name__}: {error}") from None
        build_s = time.perf_counter() - started
        started = time.perf_counter()
        for path in sorted(pages):
            if not path.is_relative_to(copy):  # a page a plugin generated (a blog's archive): no author wrote it
                totals["generated"] += 1
                continue
            seen = shown.code_blocks(pages[path])
            # as the site renders it, and as collection renders it (unhighlighted)
            rendered = renderer.render(copy, path)
            engine = [b.code.rstrip("\n") for b in rendered.blocks]
            page = path.relative_to(copy).as_posix()
            differences = _differences(seen, engine)
            fast = [b.code.rstrip("\n") for b in renderer.render(copy, path, fast=True).blocks]
            if not differences and fast != engine:
                differences = [f"{d} (unhighlighted)" for d in _differences(seen, fast)]
            totals["pages"] += 1
            totals["rendered"] += len(seen)
            totals["engine"] += len(engine)
            totals["problems"] += len(rendered.problems)
            totals["pages_differ"] += bool(differences)
            totals["blocks_differ"] += len(differences)
            if differences or verbose or rendered.problems:
                status = f"DIFFERS at {differences[0]}" if differences else "ok"
                print(f"{page}: rendered {len(seen)}, engine {len(engine)}: {status}")
                for problem in rendered.problems:
                    print(f"    problem {page}:{problem.line}: {problem.message}")
        totals["build_s"], totals["engine_s"] = build_s, time.perf_counter() - started
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="the MkDocs project's folder")
    parser.add_argument("-f", "--config-file", default="mkdocs.yml",
                        help="its configuration, relative to ROOT (default: mkdocs.yml)")
    parser.add_argument("--keep-plugins", action="store_true", help="build with the project's plugins and hooks")
    parser.add_argument("--extensions-from", type=Path, metavar="CONFIG",
                        help="ROOT is a folder of Markdown files: render them with CONFIG's markdown_extensions")
    parser.add_argument("--plain-theme", action="store_true",
                        help="build with MkDocs' own theme (where the project's theme cannot be loaded)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the pages that agree too")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    needed = args.extensions_from.resolve() if args.extensions_from else root / args.config_file
    if not root.is_dir() or not needed.is_file():
        hint = "" if args.extensions_from or not root.is_dir() else \
            " (for a folder of Markdown files that is no MkDocs project, give --extensions-from CONFIG)"
        print(f"error: {needed if root.is_dir() else root} does not exist{hint}", file=sys.stderr)
        return 2
    totals = compare(root, args.config_file, args.keep_plugins, args.verbose,
                     args.extensions_from.resolve() if args.extensions_from else None, args.plain_theme)
    print(f"total: {totals['pages']} pages, {totals['rendered']} rendered blocks, {totals['engine']} engine blocks, "
          f"{totals['pages_differ']} pages and {totals['blocks_differ']} blocks disagree, "
          f"{totals['problems']} page problems, {totals['generated']} pages generated by plugins left out "
          f"(build {totals['build_s']:.1f} s, engine {totals['engine_s']:.1f} s)")
    return 1 if totals["pages_differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
