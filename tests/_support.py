"""Helpers shared by the package's tests: throwaway doc trees, sub-runs of pytest and mkdocs."""

from __future__ import annotations

import copy
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from ruota_docs.blocks import shown
from ruota_docs.blocks.terms import parse
from ruota_docs.records.schema import Machine

REPO = Path(__file__).resolve().parents[1]
OVERRIDES = REPO / "overrides"

#: Environment variables of the engine that must not leak from the outer test run.
_ENGINE_VARS = ("RUOTA_DOCS_NETWORK", "RUOTA_DOCS_FAKE_DEVICE",
                "RUOTA_DOCS_MEMORY_LIMIT", "RUOTA_DOCS_PAGE", "RUOTA_DOCS_RUN_AS", "RUOTA_DOCS_RUN_AS_ROOT",
                "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT",
                "PYTEST_XDIST_TESTRUNUID")


def reader_folder(parent: Path, prefix: str) -> Path:
    """A fresh folder in ``parent`` that other users can reach (mkdtemp makes it 0700): for
    projects whose pages run as the unprivileged user when the tests run as root."""
    folder = Path(tempfile.mkdtemp(prefix=f"{prefix}-", dir=parent))
    folder.chmod(0o755)
    return folder


def repo_plugin_options(name: str = "ruota_docs") -> dict:
    """The options of plugin ``name`` in the repository's mkdocs.yml."""
    from ruota_docs.blocks.site_config import load_mkdocs_config, plugin_options
    return plugin_options(load_mkdocs_config(REPO), name) or {}


def mkdocs_yml(site: bool = False, record_dir: str = "verification", languages=("es", "en", "fr"),
               check_records: bool = False) -> str:
    """An mkdocs.yml adapted from the repository's: same Markdown extensions (superfences,
    snippets from ``snippets/`` with ``check_paths``); with ``site``,
    the theme (Material with the repository's overrides), search, ruota_docs and i18n plugins
    (``check_records``: the build's `record check` of every record, off for the hand-made records
    of rendering tests; the tests of that gate and of the attack corpus turn it on)."""
    names = {"es": "Español", "en": "English", "fr": "Français"}
    langs = "".join(
        f"        - locale: {lang}\n          name: {names[lang]}\n          build: true\n"
        + ("          default: true\n" if n == 0 else "")
        for n, lang in enumerate(languages)
    )
    # the card matrix of the repository's guides (JSON is YAML too)
    card_matrix = {k: json.dumps(v) for k, v in repo_plugin_options().items() if k in ("key_blocks", "target_cards", "guide_cards")}
    head = textwrap.dedent(f"""\
        site_name: sample
        site_url: https://sample.example.org/
        strict: true
        docs_dir: docs
        site_dir: site
        theme:
          name: material
          custom_dir: {OVERRIDES}
          language: es
          font: false
          features:
            - content.code.copy
            - content.tabs.link
        plugins:
          - search
          - ruota_docs:
              record_dir: {record_dir}
              check_records: {str(check_records).lower()}
              key_blocks: {card_matrix["key_blocks"]}
              target_cards: {card_matrix["target_cards"]}
              guide_cards: {card_matrix["guide_cards"]}
          - i18n:
              docs_structure: folder
              fallback_to_default: true
              reconfigure_material: true
              reconfigure_search: true
              languages:
        """)
    extensions = textwrap.dedent("""\
        markdown_extensions:
          - abbr
          - admonition
          - attr_list
          - def_list
          - footnotes
          - md_in_html
          - tables
          - toc:
              permalink: true
          - pymdownx.details
          - pymdownx.highlight:
              anchor_linenums: true
              line_spans: __span
              pygments_lang_class: true
          - pymdownx.inlinehilite
          - pymdownx.snippets:
              base_path: [snippets]
              check_paths: true
          - pymdownx.superfences
          - pymdownx.tabbed:
              alternate_style: true
          - pymdownx.keys
        """)
    if not site:
        return "site_name: sample\ndocs_dir: docs\n" + _i18n_only(languages) + extensions
    return head + langs + extensions


def _i18n_only(languages) -> str:
    """Just enough of the i18n plugin entry for the CLI to learn the languages (never built)."""
    items = "".join(f"        - locale: {lang}\n" + ("          default: true\n" if n == 0 else "")
                    for n, lang in enumerate(languages))
    return "plugins:\n  - i18n:\n      docs_structure: folder\n      languages:\n" + items


def write_tree(root: Path, files: dict[str, str], site: bool = False, conftest: bool = True) -> Path:
    """A throwaway project: mkdocs.yml, pytest.ini (with ``conftest``: a project set up for
    pytest sub-runs, which need no conftest.py: the engine's plugin finds the site) and the files."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "mkdocs.yml").write_text(mkdocs_yml(site=site), encoding="utf-8")
    if conftest:
        # rootdir of the sub-run is the tree, never the repository
        (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return root


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a sub-run. Its pages keep the privileges of the tests: these trees
    live in pytest's private temporary directories, out of the unprivileged user's reach (the
    switch itself is tested with `reader_folder` trees: tests/run/test_unprivileged.py, tests/faults)."""
    env = {k: v for k, v in os.environ.items() if k not in _ENGINE_VARS}
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["RUOTA_DOCS_RUN_AS_ROOT"] = "1"
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def run_pytest(root: Path, *args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m pytest`` in ``root``, in a subprocess."""
    return subprocess.run([sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", *args],
                          cwd=root, env=env or clean_env(), capture_output=True, text=True, timeout=timeout)


_RESULT = re.compile(r"^(PASSED|FAILED|SKIPPED|ERROR)\s+(?:\[\d+\]\s+)?(?P<path>docs/\S+?\.md)"
                     r"(?:::sybil:ruota,(?:block|problem):\d+,(?:file:(?P<file>[^,]+),)?line:(?P<line>\d+)"
                     r"|:(?P<line2>\d+))")


def outcomes(stdout: str) -> dict[tuple[str, int], str]:
    """``{("es/a.md", 3): "PASSED", …}`` from the ``-rA`` short summary of a sub-run (a block written
    in an included Markdown file under that file's path and line)."""
    found = {}
    summary = stdout.split("short test summary info", 1)[-1]
    for line in summary.splitlines():
        match = _RESULT.match(line)
        if match:
            page = match["file"] or match["path"].removeprefix("docs/")
            found[(page, int(match["line"] or match["line2"]))] = match[1]
    return found


def read_ledger(path: Path) -> dict:
    """A record as one JSON object: its head, and ``blocks``, one entry per page and language
    (`ruota_docs.records.schema.Result.to_entry`, keyed ``page#index``)."""
    from ruota_docs.records import ledger

    return as_dict(ledger.load(path))


def as_dict(record) -> dict:
    """A `ruota_docs.records.schema.Record` as `read_ledger` gives it."""
    return record.to_dict()


def results_of(entries) -> dict:
    """Entries (`Result.to_entry`'s form) as a record's results: block → result."""
    from ruota_docs.records.schema import BlockRef, Result

    return {BlockRef.from_entry(e): Result.from_entry(e) for e in entries}


def record_of(data: dict):
    """A record given as `read_ledger` gives one (its head, and its ``blocks``) as the model."""
    from ruota_docs.records.schema import Record

    return Record.from_dict(data)


def stored_form(data: dict) -> dict:
    """The JSON object the engine writes for a record given as `read_ledger` gives one."""
    return json.loads(record_of(data).to_json())


def run_mkdocs(root: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(root / "mkdocs.yml")],
                          cwd=root, env=clean_env(), capture_output=True, text=True, timeout=timeout)


# -- synthetic records -------------------------------------------------------------------------------------------
#: An RX 7600 as PyTorch on ROCm describes it (no such record is committed: tests build theirs in tmp folders).
RX7600 = {"backend": "rocm", "gpu_name": "AMD Radeon RX 7600", "arch": "gfx1102", "vram_bytes": 8_573_157_376, "gpu_count": 1,
          "os": "linux", "machine": "x86_64", "python": "3.12.3", "torch": "2.9.1+rocm6.4", "hip": "6.4.43482-0f2d60242",
          "cuda": None, "packages": {"torch": "2.9.1+rocm6.4", "numpy": "2.3.4"}, "machine_id": "rocm-gfx1102"}


def synthetic_record(root: Path, machine: dict, outcome=None, when: str = "2026-11-28T09:30:00Z", pages=None) -> dict:
    """A record of ``machine`` for the pages under ``root/docs`` (or ``pages``), from their current blocks.

    ``outcome(block)`` gives ``(outcome, output, reason)`` per block (the reason as English, or
    as a `ruota_docs.records.reason_codes.Reason`: recorded with its code); by default every block
    that is meant to run passes, printing ``ran on <gpu>``, and ``run: skip`` blocks are skipped.
    """
    from ruota_docs.records.reason_codes import reason as reason_code
    from ruota_docs.blocks.collect import page_blocks
    from ruota_docs.run.results import block_ref

    docs = root / "docs"
    blocks = {}
    for path in sorted(docs.rglob("*.md")):
        key = path.relative_to(docs).as_posix()
        if pages is not None and key not in pages:
            continue
        for block in page_blocks(root, docs, path):
            if outcome is not None:
                state, output, reason = outcome(block)
            elif block.not_run_reason is not None:
                state, output, reason = "skipped", "", reason_code("not_run", why=block.not_run_reason)
            else:
                state, output, reason = "passed", f"ran on {machine.get('gpu_name') or 'the CPU'}\n", None
            ref = block_ref(block)  # a fence written in an included Markdown file: its line there, and the file
            blocks[f"{block.page}#{block.index}"] = {
                "page": block.page, "lang": block.lang, "index": block.index, "line": ref.line,
                **({"file": ref.file} if ref.file else {}),
                "language": block.fence_language, "sha256": block.sha256, "id": block.block_id, "outcome": state,
                "reason": getattr(reason, "english", lambda: reason)(), "error": None, "duration": 0.25,
                "output": output, "ran_at": when, "reused_from": None, "signature": block.signature,
                "as_root": False if state != "skipped" else None,
                "reason_code": reason.to_record() if hasattr(reason, "to_record") else None}
    return {"schema": 3, "kind": "ruota-docs/ledger", "machine_id": machine["machine_id"], "machine": copy.deepcopy(machine),
            "provenance": {"kind": "sent", "commit": None}, "updated": when, "blocks": blocks}


# Reading a built page

def article(path: Path) -> str:
    """A built page's <article>, without the inline icons."""
    text = path.read_text(encoding="utf-8")
    body = text[text.index("<article"):text.index("</article>")]
    return re.sub(r'<svg class="ruota-icon".*?</svg>', "", body, flags=re.S)


def panels(page: str) -> list[str]:
    """The verification panel under each block, in order."""
    starts = [m.start() for m in re.finditer(r'<div class="ruota-verify ', page)]
    return [page[a:b] for a, b in zip(starts, starts[1:] + [len(page)])]


def words(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


# Machines and blocks as the site's modules read them

RADEON_VII = Machine(backend="rocm", gpu_name="AMD Radeon VII", arch="gfx906", vram_bytes=16 * 2**30, gpu_count=1,
                    os="windows", machine="x86_64", python="3.12.4", torch="2.9.1+rocm7.14", hip="7.14.0")
H200 = Machine(backend="cuda", gpu_name="NVIDIA H200", arch="sm_90", vram_bytes=143_771 * 2**20, gpu_count=1,
              os="linux", machine="x86_64", python="3.11.7", torch="2.13.0+cu130", cuda="13.0")
CPU_DEVICE = Machine(backend="cpu", gpu_name=None, arch=None, vram_bytes=None, gpu_count=0,
                    os="linux", machine="x86_64", python="3.10.12", torch=None)


@dataclass
class FragmentBlock:
    """What the page's fragments read of a block (the engine's own block has more)."""

    kind: str = "python"
    requirements: tuple = ()
    options: dict = field(default_factory=dict)
    evidence: object = None  #: `ruota_docs.blocks.tiers.Evidence` where declared

    @property
    def not_run_reason(self) -> str | None:
        return str(self.options.get("reason") or "") if self.options.get("skip") else None


def fragment_block(requires: str = "", kind: str = "python", **options) -> FragmentBlock:
    return FragmentBlock(kind, parse(requires) if requires else (), options)


def ledger_entry(outcome: str, reason: str | None = None, **extra):
    """One block's result in a record, as the site reads it (`ruota_docs.records.schema.Result`)."""
    from ruota_docs.records.schema import Result

    return Result(**{"fence_language": "python", "sha256": "x", "outcome": outcome, "reason": reason, "duration": 2.5,
                     "ran_at": "2026-12-01T10:00:00Z"} | extra)


# Editing a project as an author does

def edit(path: Path, old: str, new: str) -> None:
    """Change a file as an editor saves it: new content, a later modification time."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    stamp = path.stat().st_mtime_ns
    path.write_text(text.replace(old, new), encoding="utf-8")
    if path.stat().st_mtime_ns <= stamp:  # a coarse clock: make the change visible
        os.utime(path, ns=(stamp + 1_000_000, stamp + 1_000_000))



def stale_install() -> None:
    """Fail, saying why, where the installed entry points predate the plugin with ``on_serve``."""
    import pytest
    from mkdocs.plugins import get_plugins

    named = get_plugins()["ruota_docs"].value
    if named != "ruota_docs.serve.plugin:LivePreviewPlugin":
        pytest.fail(f"mkdocs.yml's ruota_docs loads {named}: the installed entry points are stale "
                    "(reinstall the package: pip install -e .)", pytrace=False)


# Evaluating a page's blocks in this process, as Sybil does without the pytest plugin

@dataclass
class Evaluated:
    """A block, and the outcome its evaluator decided (`ruota_docs.run.run_state.RunState.take`)."""

    block: object
    outcome: object = None

    def __getattr__(self, name: str):
        return getattr(self.block, name)


def evaluate_page(root: Path, page: str, state=None) -> list[tuple[Evaluated, str | None]]:
    """``(block with its outcome, what was raised or None)`` for each block of ``docs/<page>``,
    evaluated in order in one page process, which is ended afterwards (``state``: the run's state,
    `ruota_docs.run.run_state.RunState`, shared by the pages of one run; default: a run of this page alone)."""
    from ruota_docs.run.run_state import RunState
    from ruota_docs.run.settings import from_environment
    from ruota_docs.run.sybil import make_sybil
    from ruota_docs.run.sybil.evaluators import RUN_FIXTURE, teardown_page

    document = make_sybil(root).parse(root / "docs" / page)
    state = document.namespace[RUN_FIXTURE] = state or RunState(from_environment(root))
    results = []
    try:
        for example in document.examples():
            try:
                example.evaluate()
            except Exception as raised:  # noqa: BLE001 — a failure or a skip, kept for the test to read
                said = f"{type(raised).__name__}: {raised}"
            else:
                said = None
            block = example.parsed
            outcome = state.take(block.page, block.index) if hasattr(block, "index") else None
            results.append((Evaluated(block, outcome), said))
    finally:
        teardown_page(document.namespace)
    return results


def parsed_blocks(page_html: str) -> list[tuple[int, int, str]]:
    """``(start, end, code)`` of each code block of ``page_html`` as Python's HTML parser alone reads it
    (`ruota_docs.blocks.shown._CodeBlocks`): the reference `shown.code_block_spans`'s faster reading is held to."""
    parser = shown._CodeBlocks()
    parser.feed(page_html)
    parser.close()
    found = []
    for n, (start, end, index) in enumerate(parser.spans):
        following = parser.spans[n + 1][2] if n + 1 < len(parser.spans) else len(parser.blocks)
        if following > index:
            found.append((start, end if end >= 0 else len(page_html), parser.blocks[index].rstrip("\n")))
    return found
