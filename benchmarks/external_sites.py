#!/usr/bin/env python3
"""The engine on documentation this project did not write: a table per site.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/external_sites.py [--setup NAME=FILE] [--isolation NAME=MODE] \
        [--hooks NAME] [--collect-hooks NAME] [--plugins NAME=PLUGIN,…] [--serve URL=FILE] SITE …
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/external_sites.py --collect-only --repeat 3 \
        GIT_DIR@2151025aa GIT_DIR@6f9dcdf61:docs/en

SITE is a project folder with its docs (an unpacked sdist that ships ``docs/``, say), or a
repository's sources, ``GIT_DIR@REV[:FOLDER]`` (a clone's or a mirror's git folder, the commit,
and where mkdocs.yml is in it: FastAPI's ``docs/en``, whose pages include ``../../docs_src``),
exported with ``git archive``; with ``mkdocs.yml``, or a Zensical ``zensical.yml`` (MkDocs'
format) or ``zensical.toml`` (its ``[project]`` table: ``docs_dir`` and ``markdown_extensions``),
turned into a mkdocs.yml in a copy. Nothing in SITE is written. For each site, in a temporary copy, with its plugins
and hooks left out (they need packages this machine lacks):

- **seen**: the code blocks ``mkdocs build`` shows (every ``<pre><code>`` of the built pages);
- **collected**: the engine's blocks, and how many of them are exactly the ones seen;
- **lines right**: blocks whose line, as the record holds it, is their opening fence: in the page,
  or, for a fence written in an included Markdown file, in the file the record names (``file``);
  with ``--collect-only``, the line and file the record would hold (`block_ref`). Indented code
  and blocks other extensions inject have no fence of their own and are left out of this count;
  how many of the blocks counted are written in included files is given beside it;
- **outcomes** (without ``--collect-only``): the engine turned on as a maintainer starts with it
  (the plugin with ``report_only: true``, the policies of ``ruota-docs init --write``, ``'': show``;
  ``--setup`` gives the plugin a set-up file, the site's doc-test set-up, and ``--isolation`` its
  isolation), then ``pytest docs`` on the copy, no conftest (``--run-as-root``, ``--block-timeout 20``):
  passed, failed and skipped blocks as the record holds them, each failure with its cause (``engine``
  where a traceback runs through the engine, or where the block runs cleanly in a fresh interpreter,
  alone or after the page's blocks before it, and prints what the engine recorded; see `_classify`);
  then ``ruota-docs record check`` on the record, and ``mkdocs build`` of the copy with it;
- **hooks** (``--hooks NAME``): the site's ``hooks:`` are kept in every build (its plugins still
  are not); *made by hooks* counts the blocks seen that the page's file does not hold as shown,
  and *marks* how the build with the record marks them; ``--collect-hooks NAME`` also turns the
  plugin's ``collect_hooks`` on, so that pytest collects pages as the hooks rewrite them. A hook
  that fetches a URL gets, with ``--serve URL=FILE``, the file's text, in this process and in
  every build and pytest run (a ``sitecustomize`` on their path); any other URL fails as offline;
  ``--plugins NAME=PLUGIN,…`` keeps those of the site's plugins (mkdocstrings, whose docstring
  examples the engine lists as not run);
- **time**: the pytest run's wall time; with ``--collect-only``, only ``pytest --collect-only``
  is timed (best of ``--repeat`` runs), the engine's collection alone.

Prints a Markdown table (for benchmarks/RESULTS.md). External sites are measurements, not
expectations: the test suite never depends on them.
"""

from __future__ import annotations

import argparse
import atexit
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from pathlib import Path

import yaml

from ruota_docs.blocks import renderer, shown, site_config
from ruota_docs.records import ledger
from ruota_docs.run.results import block_ref

_IGNORE = shutil.ignore_patterns(".git", "site", "node_modules", ".venv", "__pycache__", ".tox", ".nox")
_FENCE = re.compile(r"^[ \t>]*(?:[-*+]\s+|\d+[.)]\s+)?(`{3,}|~{3,})")


def _config(copy: Path, keep_hooks: bool = False, plugins: tuple[str, ...] = ()) -> Path:
    """mkdocs.yml of the copy, made from a Zensical configuration where there is none."""
    target = copy / "mkdocs.yml"
    if target.exists():
        _drop_missing_extensions(target, keep_hooks, plugins)
        return target
    if (copy / "zensical.yml").exists():
        shutil.copy(copy / "zensical.yml", target)
    elif (copy / "zensical.toml").exists():
        project = tomllib.loads((copy / "zensical.toml").read_text(encoding="utf-8")).get("project", {})
        extensions = []
        for name, options in (project.get("markdown_extensions") or {}).items():
            if name in ("pymdownx", "zensical"):  # [project.markdown_extensions.pymdownx.superfences]
                extensions += [{f"{name}.{sub}": _own(sub_options)} for sub, sub_options in (options or {}).items()]
            else:
                extensions.append({name: _own(options)})
        target.write_text(yaml.safe_dump({"site_name": project.get("site_name", copy.name),
                                          "docs_dir": project.get("docs_dir", "docs"),
                                          "markdown_extensions": extensions}, sort_keys=False), encoding="utf-8")
    else:
        raise SystemExit(f"error: {copy.name}: no mkdocs.yml, zensical.yml or zensical.toml")
    _drop_missing_extensions(target)
    return target


def _own(options) -> dict:
    """Extension options without those naming Zensical's functions (``emoji_index =
    "zensical.extensions.emoji.twemoji"``): the extension's defaults stand in for them."""
    return {k: v for k, v in (options or {}).items() if not (isinstance(v, str) and v.startswith("zensical."))}


def _drop_missing_extensions(config: Path, keep_hooks: bool = False, plugins: tuple[str, ...] = ()) -> None:
    """Extensions this machine cannot load (no module, or a package that is no Markdown extension,
    such as ``zensical.extensions`` where Zensical is installed) are left out of both the build and
    the engine (named on stderr): the two still render the same pages with the same extensions. A file
    that pymdownx.snippets includes and the sdist does not ship is left out too
    (``check_paths: false``), where the site would stop its build on it."""
    import importlib

    text = config.read_text(encoding="utf-8")
    from mkdocs.utils.yaml import get_yaml_loader

    data = yaml.load(text, Loader=get_yaml_loader()) or {}  # noqa: S506 — the site's own config (python tags)
    if not keep_hooks:
        data.pop("hooks", None)  # the site's hooks need its packages, as its plugins do
    data["strict"] = False  # what the hooks and plugins left out would have made (links, nav) is missing
    kept = []
    for item in data.get("markdown_extensions") or []:
        name = item if isinstance(item, str) else next(iter(item))
        found = False
        for module in (name, f"markdown.extensions.{name}"):  # Python-Markdown's own go by their short names
            try:
                found = found or hasattr(importlib.import_module(module), "makeExtension")
            except ImportError:
                pass
        if found:
            kept.append(item)
        else:
            print(f"{config.parent.name}: left out extension {name} (cannot be loaded here)", file=sys.stderr)
    for n, item in enumerate(kept):  # a file the sdist leaves out (SECURITY.md) is no reason to stop the build
        if item == "pymdownx.snippets" or (isinstance(item, dict) and "pymdownx.snippets" in item):
            options = dict(item["pymdownx.snippets"] or {}) if isinstance(item, dict) else {}
            kept[n] = {"pymdownx.snippets": {**options, "check_paths": False}}
    data["markdown_extensions"] = kept
    data["plugins"] = [p for p in data.get("plugins") or [] if (p if isinstance(p, str) else next(iter(p))) in plugins]
    config.write_text(yaml.dump(data, sort_keys=False), encoding="utf-8")


def _has_fence(block) -> bool:
    """Whether the block has an opening fence of its own to point at."""
    return block.kind != "indented" and not block.injected


def _at_fence(root: Path, docs: Path, page: str, line: int | None, file: str | None) -> bool:
    """Whether ``line`` of ``file`` (relative to the project), or of the page where no file is named, opens a fence."""
    path = root / file if file else docs / page
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return False
    return line is not None and 1 <= line <= len(lines) and bool(_FENCE.match(lines[line - 1]))


def _source(spec: str, into: Path) -> tuple[Path, str]:
    """``(project folder, site folder in it)``: ``GIT_DIR@REV[:FOLDER]`` exported from git into ``into``,
    or a folder copied there."""
    if "@" in spec and not Path(spec).exists():
        git_dir, _, rest = spec.partition("@")
        rev, _, folder = rest.partition(":")
        where = Path(git_dir).resolve()
        name = where.parent.name.split("+")[-1] if where.name == "repo" else where.stem  # owner+name/repo: name
        target = into / f"{name}-{rev[:9]}"
        target.mkdir(parents=True)
        archive = subprocess.run(["git", "--git-dir", git_dir, "archive", rev], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
        return target, folder
    site = Path(spec).resolve()
    shutil.copytree(site, into / site.name, ignore=_IGNORE, symlinks=True)
    return into / site.name, ""


#: The project's own pytest settings name plugins of its environment (pydantic's: pytest-benchmark's options).
_NEUTRAL_INI = ("-o", "addopts=", "-o", "filterwarnings=")


def _collect_time(copy: Path, docs: Path, repeat: int, python: list[str]) -> tuple[float, str]:
    """Best wall time of ``pytest --collect-only`` on the site's docs, and its last line."""
    best, tail = float("inf"), ""
    for _ in range(repeat):
        started = time.perf_counter()
        run = subprocess.run([*python, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider",
                              "-p", "no:xdist", *_NEUTRAL_INI, docs.relative_to(copy).as_posix()],
                             cwd=copy, capture_output=True, text=True, timeout=3600)
        best = min(best, time.perf_counter() - started)
        tail = ((run.stdout + run.stderr).strip().splitlines() or [""])[-1]
    return best, tail


def measure(spec: str, collect_only: bool = False, repeat: int = 1, setup: str | None = None,
            isolation: str | None = None, keep: str | None = None, hooks: bool = False,
            collect_hooks: bool = False, plugins: tuple[str, ...] = ()) -> dict:
    with tempfile.TemporaryDirectory(prefix="external-site-") as tmp:
        project, folder = _source(spec, Path(tmp))
        copy = project / folder if folder else project
        row = {"site": project.name + (f" ({folder})" if folder else "")}
        python = [sys.executable]
        if hooks:  # the hooks import the package the site documents: the one installed, not its sources here
            python.append("-P")  # no current folder first on the path of a `python -m`
            sys.path.append(str(copy))  # after the installed packages
        else:
            sys.path.insert(0, str(copy))  # the site's own modules, named in its config (!!python/name:)
        config = _config(copy, keep_hooks=hooks, plugins=plugins)
        kept = {} if hooks else {"hooks": []}
        if not plugins:
            kept["plugins"] = []
        pages = shown.build(config, Path(tmp) / "built", theme={"name": "mkdocs"}, **kept)
        here = os.getcwd()
        os.chdir(copy)  # as `mkdocs build` and pytest run: extensions such as mdx_include read paths from here
        seen = collected = agree = right = pointed = injected = beyond = included = made = 0
        fenced = {}  # page#index → the block, for the blocks with a fence of their own
        docs = Path(site_config.markdown_setup(copy).docs_dir)
        owned: dict[str, int] = {}  # blocks of each page's file, as collected without the hooks
        for path in sorted(pages):
            if not path.is_relative_to(copy):
                continue
            codes = shown.code_blocks(pages[path])
            blocks = renderer.render(copy, path, fast=True).blocks
            owned[path.relative_to(docs).as_posix()] = len(blocks)
            seen += len(codes)
            collected += len(blocks)
            made += (Counter(codes) - Counter(b.code.rstrip("\n") for b in blocks)).total()
            agree += sum(a == b.code.rstrip("\n") for a, b in zip(codes, blocks, strict=False))
            length = len(path.read_text(encoding="utf-8").splitlines())
            beyond += sum(1 for block in blocks if not block.source and block.line > length)
            for block in blocks:
                injected += block.injected
                if _has_fence(block):
                    ref = block_ref(block)  # the line and file the record holds for it
                    file = getattr(ref, "file", None)  # (an engine older than the field: always the page)
                    fenced[ref.key] = block
                    pointed += 1
                    included += file is not None
                    right += _at_fence(copy, docs, ref.page, ref.line, file)
        os.chdir(here)
        row.update(pages=sum(1 for p in pages if p.is_relative_to(copy)), seen=seen, collected=collected,
                   agree=agree, right=right, pointed=pointed, injected=injected, beyond=beyond, made=made)
        if collect_only:
            row.update(included=included)
            row["time_s"], row["tail"] = _collect_time(copy, docs, repeat, python)
            return row
        adopted = _adopt(copy, config, setup, isolation, collect_hooks)
        made_at = _made_blocks(copy, docs, pages, owned, collect_hooks)
        if collect_hooks:  # collected as the hooks rewrite the pages; lines right of the blocks the files hold
            found, fenced = _collected_with_hooks(copy, docs, pages)
            row.update(found)
        started = time.perf_counter()
        run = subprocess.run([*python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                              *_NEUTRAL_INI, "--run-as-root", "--block-timeout", "20",
                              docs.relative_to(copy).as_posix()],
                             cwd=copy, capture_output=True, text=True, timeout=3600)
        row["time_s"] = time.perf_counter() - started
        records = sorted((copy / "verification").glob("*.json"))
        entries = ledger.load(records[0]).to_dict()["blocks"] if records else {}  # read as the engine does
        outcomes = Counter(entry["outcome"] for entry in entries.values())
        # lines right as the record holds them, for the blocks with a fence of their own
        recorded = [entries[key] for key in fenced if key in entries]
        right = sum(_at_fence(copy, docs, e["page"], e.get("line"), e.get("file")) for e in recorded)
        row.update(right=right, pointed=len(recorded), included=sum(bool(e.get("file")) for e in recorded),
                   recorded=len(entries), passed=outcomes["passed"], failed=outcomes["failed"],
                   skipped=outcomes["skipped"], adopted=adopted, exit=run.returncode,
                   tail=run.stdout.strip().splitlines()[-1:] or [""])
        row["causes"] = _classify(copy, docs, entries, copy / _SETUP_NAME if setup else None, isolation)
        # the site's own modules its config names (pymdown's !!python/name:tools.…), as `python -m` finds them
        # (not with the hooks kept: they import the installed package the copy's sources would hide)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (None if hooks else str(copy),
                                                                          os.environ.get("PYTHONPATH"))))}
        check = subprocess.run([str(Path(sys.executable).with_name("ruota-docs")), "record", "check",
                                *map(str, records)], cwd=copy, capture_output=True, text=True, env=env)
        row["check"] = (check.returncode, (check.stdout + check.stderr).strip().splitlines()[-1:] or [""])
        started = time.perf_counter()
        built = subprocess.run([*python, "-m", "mkdocs", "build", "-q", "-d", str(Path(tmp) / "with-record")],
                               cwd=copy, capture_output=True, text=True, timeout=3600)
        row["build"] = (built.returncode, time.perf_counter() - started,
                        sum(1 for line in built.stderr.splitlines() if "ruota_docs" in line),
                        (built.stderr.strip().splitlines() or [""])[-1])
        if hooks:
            row["marks"] = _marks(Path(tmp) / "with-record", made_at)
        if keep:
            shutil.copytree(project, Path(keep) / project.name, symlinks=True, dirs_exist_ok=True)
    return row


def _made_blocks(copy: Path, docs: Path, pages: dict, owned: dict, collect_hooks: bool) -> dict[str, set | int]:
    """For each page, which blocks of the build the hooks made: with ``collect_hooks``, the indices of the
    blocks the engine collects as made by a hook; without, every index from the file's own count on
    (the build gives the blocks the rewriting made the indices after the file's own)."""
    if not collect_hooks:
        return dict(owned)
    here = os.getcwd()
    os.chdir(copy)
    try:
        return {p.relative_to(docs).as_posix(): {b.index for b in renderer.render(copy, p, fast=True).blocks
                                                 if b.made_by}
                for p in sorted(pages) if p.is_relative_to(docs)}
    finally:
        os.chdir(here)


def _collected_with_hooks(copy: Path, docs: Path, pages: dict) -> tuple[dict, dict]:
    """``collected`` and ``agree`` (the same code as seen, as multisets per page) as the engine collects
    the pages with the site's hooks applied, and those of its blocks the files hold with a fence of their
    own (page#index → block: their lines are checked as the record holds them)."""
    collected = agree = 0
    fenced = {}
    here = os.getcwd()
    os.chdir(copy)
    try:
        for path in sorted(pages):
            if path.is_relative_to(docs):
                blocks = renderer.render(copy, path, fast=True).blocks
                collected += len(blocks)
                codes = Counter(b.code.rstrip("\n") for b in blocks)
                agree += (Counter(shown.code_blocks(pages[path])) & codes).total()
                fenced.update((block_ref(b).key, b) for b in blocks if _has_fence(b) and not b.made_by)
    finally:
        os.chdir(here)
    return {"collected": collected, "agree": agree}, fenced


_PANEL = re.compile(r'<div class="ruota-verify ruota-state-(?P<state>\w+)[^"]*" id="ruota-block-(?P<index>\d+)"')


def _marks(site: Path, made_at: dict) -> Counter:
    """How the build with the record marks the blocks the hooks made: ``{state: count}``, the state of
    each one's panel (``notrun`` with its reason's first words)."""
    marks: Counter = Counter()
    for page, made in made_at.items():
        name = page[:-3]
        built = site / (f"{name[:-5]}index.html" if name.endswith("index") else f"{name}/index.html")
        if not built.exists():
            continue
        text = built.read_text(encoding="utf-8")
        for match in _PANEL.finditer(text):
            index = int(match["index"])
            if (index in made) if isinstance(made, set) else index >= made:
                state = match["state"]
                if state == "notrun":  # with the first words of its reason
                    words = html.unescape(re.sub(r"<[^>]+>", " ", text[match.end():match.end() + 2000]))
                    state += ": " + " ".join(words.split())[:70] + "…"
                marks[state] += 1
    return marks


#: The name the site's set-up file (``--setup``) gets in the copy, beside its mkdocs.yml.
_SETUP_NAME = "ruota_docs_setup.py"


def _adopt(copy: Path, config: Path, setup: str | None, isolation: str | None, collect_hooks: bool = False) -> str:
    """The engine turned on as a maintainer starts with it (own-site.md): the plugin with
    ``report_only``, the policies ``ruota-docs init --write`` proposes, ``'': show`` for blocks
    written with no language; the site's set-up file and isolation where given. What was done, in words."""
    from mkdocs.utils.yaml import get_yaml_loader

    options: dict = {"report_only": True}
    if collect_hooks:
        options["collect_hooks"] = True
    if isolation:
        options["isolation"] = isolation
    if setup:
        shutil.copy(setup, copy / _SETUP_NAME)
        options["setup"] = _SETUP_NAME
    data = yaml.load(config.read_text(encoding="utf-8"), Loader=get_yaml_loader())  # noqa: S506 — as above
    data["plugins"] = [*(data.get("plugins") or []), {"ruota_docs": options}]  # after those --plugins keeps
    config.write_text(yaml.dump(data, sort_keys=False), encoding="utf-8")
    init = subprocess.run([str(Path(sys.executable).with_name("ruota-docs")), "init", "--write"], cwd=copy,
                          capture_output=True, text=True, timeout=600)
    data = yaml.load(config.read_text(encoding="utf-8"), Loader=get_yaml_loader())  # noqa: S506 — as above
    policies = data["plugins"][-1]["ruota_docs"].setdefault("policies", {})
    policies.setdefault("", "show")
    config.write_text(yaml.dump(data, sort_keys=False), encoding="utf-8")
    done = [f"init --write: {len(policies) - 1} policies (exit {init.returncode})", "'': show"]
    return ", ".join(done + [f"{k}: {v}" for k, v in options.items() if k != "report_only"])


_MISSING = re.compile(r"ModuleNotFoundError: No module named|is not installed|ImportError: cannot import name .* from "
                      r"'(?!ruota_docs)")
_NETWORK = re.compile(r"ConnectError|ConnectionError|Name or service not known|Temporary failure in name resolution|"
                      r"Network is unreachable|getaddrinfo")
_ENGINE_FRAME = re.compile(r'File "[^"]*/ruota_docs/[^"]*"')
#: Runs blocks as plain Python would, in a fresh interpreter: the set-up file, the blocks before (each
#: in the same module namespace, whatever it raises), then the block; exits 0 if the last one ran.
_DRIVER = """
import json, sys, types, traceback
setup, earlier, code, name = json.load(open(sys.argv[1]))
if setup:
    exec(compile(open(setup).read(), setup, "exec"), {"__name__": "setup"})
main = types.ModuleType("__main__")
sys.modules["__main__"] = main
for text, where in earlier:
    try:
        exec(compile(text, where, "exec"), main.__dict__)
    except BaseException:
        pass
sys.stdout.write("\\x00")
exec(compile(code, name, "exec"), main.__dict__)
"""


def _rerun(copy: Path, setup: Path | None, earlier: list, block) -> tuple[int, str]:
    """``(exit status, what the block printed)`` of the block run in a fresh interpreter after ``earlier``."""
    with tempfile.TemporaryDirectory(prefix="rerun-") as work:
        job = Path(work) / "job.json"
        job.write_text(json.dumps([str(setup) if setup else None, earlier, block.code, block.where]))
        try:
            done = subprocess.run([sys.executable, "-c", _DRIVER, str(job)], cwd=work, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=30, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return -1, ""
    return done.returncode, done.stdout.partition("\x00")[2]


def _classify(copy: Path, docs: Path, entries: dict, setup: Path | None, isolation: str | None) -> Counter:
    """Each failed block's cause: ``engine`` where a traceback runs through the engine's own code, or
    where the block runs cleanly in a fresh interpreter (alone, or after the page's blocks before it) but
    failed under the engine, or prints otherwise when it runs alone (the page's shared namespace changed
    it), or prints in neither what the engine recorded; ``missing module`` (a package not
    installed here, or a module the docs mean as a file of their own, ``main``), ``network`` and
    ``timed out`` from its error; ``no run policy``; else ``block`` (it fails as plain Python too, or its
    #> lines or data say something it does not do). Prints one line per engine fault."""
    causes: Counter = Counter()
    failed = [e for e in entries.values() if e["outcome"] == "failed"]
    rendered: dict = {}
    here = os.getcwd()
    os.chdir(copy)
    try:
        for entry in sorted(failed, key=lambda e: (e["page"], e["index"])):
            if entry["page"] not in rendered:
                rendered[entry["page"]] = renderer.render(copy, docs / entry["page"], fast=True).blocks
            cause = _cause(copy, setup, entry, rendered[entry["page"]], entries, isolation)
            causes[cause] += 1
            if cause == "engine":
                print(f"engine fault: {entry['page']}:{entry['line']}: {entry['reason']}", file=sys.stderr)
    finally:
        os.chdir(here)
    return causes


def _alone(block, isolation: str | None) -> bool:
    """Whether the engine ran the block in a process of its own."""
    return (isolation == "block" and not block.options.get("group")) or bool(block.options.get("isolate")) or \
        (isolation == "variants" and block.variant)


def _cause(copy: Path, setup: Path | None, entry: dict, blocks: list, entries: dict, isolation: str | None) -> str:
    text = f"{entry.get('reason') or ''}\n{entry.get('error') or ''}"
    code = (entry.get("reason_code") or {}).get("code")
    if "has no run policy" in text or "neither marked safe" in text:
        return "no run policy"
    if _ENGINE_FRAME.search(entry.get("error") or ""):
        return "engine"
    if code == "timeout":
        return "timed out"
    if _MISSING.search(text):
        return "missing module"
    if _NETWORK.search(text):
        return "network"
    block = blocks[entry["index"]] if entry["index"] < len(blocks) else None
    if block is None or block.kind != "python" or code not in ("raised", "output_differs"):
        return "block"
    alone = _rerun(copy, setup, [], block)
    earlier = [] if _alone(block, isolation) else [
        (b.code, b.where) for b in blocks[:entry["index"]] if b.kind == "python" and not _alone(b, isolation)
        and entries.get(f"{b.page}#{b.index}", {}).get("outcome") in ("passed", "failed")]
    after = _rerun(copy, setup, earlier, block) if earlier else alone
    if code == "raised":
        return "engine" if 0 in (alone[0], after[0]) else "block"
    recorded = (entry.get("output") or "").rstrip()
    if alone[0] == 0 and alone[1].rstrip() != recorded:
        return "engine"  # alone it runs and prints otherwise: what the page's blocks share changed it
    return "block" if recorded in (alone[1].rstrip(), after[1].rstrip()) else "engine"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("sites", nargs="+", help="a folder, or GIT_DIR@REV[:FOLDER]")
    parser.add_argument("--collect-only", action="store_true", help="time pytest --collect-only, run nothing")
    parser.add_argument("--repeat", type=int, default=1, help="with --collect-only: the best of this many runs")
    parser.add_argument("--setup", action="append", default=[], metavar="NAME=FILE",
                        help="the site whose name starts with NAME gets FILE as the plugin's setup")
    parser.add_argument("--isolation", action="append", default=[], metavar="NAME=MODE",
                        help="the plugin's isolation for the site whose name starts with NAME "
                             "(page, block, variants)")
    parser.add_argument("--keep", metavar="DIR", help="keep each site's copy, with its record, in DIR")
    parser.add_argument("--hooks", action="append", default=[], metavar="NAME",
                        help="keep the hooks of the site whose name starts with NAME (their packages installed)")
    parser.add_argument("--collect-hooks", action="append", default=[], metavar="NAME",
                        help="with --hooks: turn the plugin's collect_hooks on for that site")
    parser.add_argument("--plugins", action="append", default=[], metavar="NAME=PLUGIN[,PLUGIN]",
                        help="keep these plugins of the site whose name starts with NAME (mkdocstrings)")
    parser.add_argument("--serve", action="append", default=[], metavar="URL=FILE",
                        help="what a hook that fetches URL gets: FILE's text (every other URL fails as offline)")
    args = parser.parse_args(argv)
    if args.serve:
        _serve(dict(pair.split("=", 1) for pair in args.serve))
    rows = []
    for site in args.sites:
        name = _name(site)
        collect = any(name.startswith(key) for key in args.collect_hooks)
        rows.append(measure(site, args.collect_only, args.repeat, _given(args.setup, name),
                            _given(args.isolation, name), args.keep,
                            hooks=collect or any(name.startswith(key) for key in args.hooks), collect_hooks=collect,
                            plugins=tuple(filter(None, (_given(args.plugins, name) or "").split(",")))))
    if args.collect_only:
        print("| site | pages | blocks seen | collected (same code) | lines right | collection (best of "
              f"{args.repeat}) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for r in rows:
            print(f"| {r['site']} | {r['pages']} | {r['seen']} | {r['collected']} ({r['agree']}) "
                  f"| {_lines(r)} | {r['time_s']:.1f} s |")
        for r in rows:
            print(f"\n{r['site']}: {r['tail']}; {r['injected']} block(s) injected by extensions, "
                  f"{r['beyond']} pointing past the end of their page")
        return 0
    _full_table(rows)
    return 0


#: Serves ``--serve``'s files to ``requests`` in every Python process started with it on its path (the
#: builds and pytest's collection), and fails any other URL as offline; then the system's own sitecustomize.
_SITECUSTOMIZE = """
import json, os, sys
served = json.loads(os.environ.get("RUOTA_BENCHMARK_SERVE") or "{}")
if served:
    import requests.adapters, requests.exceptions, requests.models

    def send(self, request, **kwargs):
        if request.url not in served:
            raise requests.exceptions.ConnectionError(f"offline (benchmark): {request.url}")
        response = requests.models.Response()
        response.status_code, response.url, response.request, response.encoding = 200, request.url, request, "utf-8"
        with open(served[request.url], "rb") as handle:
            response._content = handle.read()
        return response

    requests.adapters.HTTPAdapter.send = send
here = os.path.dirname(os.path.abspath(__file__))
for folder in sys.path:
    found = os.path.join(folder or ".", "sitecustomize.py")
    if os.path.abspath(folder or ".") != here and os.path.isfile(found):
        exec(compile(open(found).read(), found, "exec"), {"__name__": "sitecustomize", "__file__": found})
        break
"""


def _serve(served: dict[str, str]) -> None:
    """``--serve``: in this process and in every process it starts (PYTHONPATH and the environment)."""
    folder = Path(tempfile.mkdtemp(prefix="external-sites-offline-"))
    atexit.register(shutil.rmtree, folder, True)
    (folder / "sitecustomize.py").write_text(_SITECUSTOMIZE, encoding="utf-8")
    os.environ["RUOTA_BENCHMARK_SERVE"] = json.dumps({url: str(Path(f).resolve()) for url, f in served.items()})
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    exec(compile(_SITECUSTOMIZE.split("here = ", 1)[0], "sitecustomize", "exec"), {})  # noqa: S102 — ours


def _lines(row: dict) -> str:
    """The *lines right* cell: ``30 of 30 (4 in included files)``."""
    included = f" ({row['included']} in included files)" if row["included"] else ""
    return f"{row['right']} of {row['pointed']}{included}"


def _name(spec: str) -> str:
    if "@" in spec and not Path(spec).exists():
        where = Path(spec.partition("@")[0])
        return where.parent.name.split("+")[-1] if where.name == "repo" else where.stem
    return Path(spec).name


def _given(pairs: list[str], name: str) -> str | None:
    found = [value for key, _, value in (p.partition("=") for p in pairs) if name.startswith(key)]
    return found[-1] if found else None


#: The causes of failures, in the table's order.
CAUSES = ("engine", "block", "missing module", "network", "timed out", "no run policy")


def _full_table(rows: list[dict]) -> None:
    print("| site | pages | blocks seen | collected (same code) | lines right | recorded | passed | skipped "
          "| failed | " + " | ".join(CAUSES) + " | pytest time |")
    print("| --- " + "| ---: " * (9 + len(CAUSES)) + "|")
    for r in rows:
        print(f"| {r['site']} | {r['pages']} | {r['seen']} | {r['collected']} ({r['agree']}) "
              f"| {_lines(r)} | {r['recorded']} | {r['passed']} | {r['skipped']} | {r['failed']} | "
              + " | ".join(str(r["causes"][c]) for c in CAUSES) + f" | {r['time_s']:.1f} s |")
    for r in rows:
        code, tail = r["check"]
        built, seconds, listed, last = r["build"]
        print(f"\n{r['site']}: {r['adopted']}; pytest exit {r['exit']}: {r['tail'][0]}; "
              f"{r['injected']} block(s) injected by extensions; {r['made']} block(s) seen that the files do "
              "not hold as shown (made by hooks, where kept)\n"
              f"- record check: exit {code}: {tail[0]}\n"
              f"- mkdocs build with the record: exit {built} in {seconds:.1f} s, {listed} line(s) from ruota_docs"
              f"{'' if built == 0 else ': ' + last}")
        if "marks" in r:
            print("- the hooks' blocks in the build with the record: " +
                  "; ".join(f"{n} {state}" for state, n in r["marks"].most_common()))


if __name__ == "__main__":
    sys.exit(main())
