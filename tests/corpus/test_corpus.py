"""The engine's blocks are the code blocks MkDocs renders, one for one, on a corpus of small sites.

Each folder of ``tests/corpus/`` is a small MkDocs project (``mkdocs.yml``, ``docs/``,
maybe ``snippets/``) showing one way real MkDocs docs write or include code, and a
``case.yml`` saying what it shows (``about``) and the outcome each runnable block must
get (``outcomes``, in page order). For every project:

1. ``mkdocs build`` (the real one, in this process) renders it; the code blocks are read
   back from each page's built HTML: the text of every ``<pre><code>``, in page order
   (:mod:`ruota_docs.blocks.shown`);
2. the engine's blocks for the same pages must have exactly those codes, in that order;
3. ``pytest`` runs the project with the engine, as CI runs our docs, and the verification
   record must hold one entry per block, with the outcomes ``case.yml`` names.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from _support import REPO, clean_env, parsed_blocks, read_ledger, run_pytest
from ruota_docs.blocks import renderer, shown
from ruota_docs.run.device import PROBED_ENV, probe, share

CORPUS = Path(__file__).resolve().parent
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "mkdocs.yml").exists())


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Every corpus project copied to a temporary directory and built by MkDocs, once:
    ``{case: (project directory, {page file: content HTML})}``."""
    base = tmp_path_factory.mktemp("corpus")
    result = {}
    for case in CASES:
        root = base / case
        shutil.copytree(CORPUS / case, root)
        result[case] = root, shown.build(root / "mkdocs.yml", root / "site")
    return result


def _pages(root: Path) -> list[str]:
    docs = root / "docs"
    return sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))


@pytest.mark.parametrize("case", CASES)
def test_engine_blocks_are_the_rendered_code_blocks(built, case):
    root, pages = built[case]
    for page in _pages(root):
        seen = shown.code_blocks(pages[(root / "docs" / page).resolve()])
        for fast in (False, True):  # unhighlighted, as collection renders, finds the same blocks
            engine = renderer.render(root, root / "docs" / page, fast=fast)
            assert not [p for p in engine.problems], f"{case}/{page}: {engine.problems}"
            assert [b.code.rstrip("\n") for b in engine.blocks] == seen, f"{case}/{page} (fast={fast})"


@pytest.mark.parametrize("case", CASES)
def test_the_fast_reading_of_each_built_page_is_the_parsers(built, case):
    """`shown.code_block_spans` reads simple blocks and plain pages without Python's HTML parser: the
    same blocks, at the same offsets, as the parser's handlers find on every page MkDocs built."""
    _, pages = built[case]
    for page, html in pages.items():
        assert shown.code_block_spans(html) == parsed_blocks(html), page


@pytest.mark.parametrize("case", CASES)
def test_every_block_gets_its_outcome_in_the_record(built, case, tmp_path):
    root, _ = built[case]
    spec = yaml.safe_load((root / "case.yml").read_text(encoding="utf-8"))
    (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    ledger_file = tmp_path / "record.json"
    share(probe())
    run = run_pytest(root, "docs", "-p", "no:xdist", "--record", str(ledger_file),
                     env=clean_env(**{PROBED_ENV: os.environ[PROBED_ENV]}))
    entries = read_ledger(ledger_file)["blocks"] if ledger_file.exists() else {}
    pages = _pages(root)
    expected_total = sum(len(renderer.render(root, root / "docs" / p).blocks) for p in pages)
    assert len(entries) == expected_total, run.stdout[-3000:]
    recorded = [e for p in pages for e in sorted((e for e in entries.values() if e["page"] == p), key=lambda e: e["index"])]
    runnable = [e["outcome"] for e in recorded if not (e["outcome"] == "skipped" and (e["reason"] or "").startswith(
        ("not run: output or prose", "not run: an indented code block")))]
    assert runnable == spec["outcomes"], f"{case}: {spec['about']}\n" + run.stdout[-3000:]
    assert run.returncode == (1 if "failed" in spec["outcomes"] or spec.get("fails") else 0), run.stdout[-3000:]


def test_the_comparison_script_agrees_on_a_corpus_project_and_names_a_disagreement(tmp_path):
    script = [sys.executable, str(REPO / "scripts/compare_external_docs.py")]
    ok = subprocess.run([*script, str(CORPUS / "container-content-tabs")], capture_output=True, text=True,
                        env=clean_env(), timeout=120)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "total: 1 pages, 3 rendered blocks, 3 engine blocks, 0 pages and 0 blocks disagree" in ok.stdout
    # a plugin that rewrites a page's code: readers see what the engine does not
    project = shutil.copytree(CORPUS / "container-content-tabs", tmp_path / "hooked")
    (project / "hook.py").write_text("def on_page_markdown(markdown, **kwargs):\n"
                                     "    return markdown.replace('a = 1', 'a = 2')\n", encoding="utf-8")
    with open(project / "mkdocs.yml", "a", encoding="utf-8") as config:
        config.write("hooks: [hook.py]\n")
    differs = subprocess.run([*script, str(project), "--keep-plugins"], capture_output=True, text=True,
                             env=clean_env(), timeout=120)
    assert differs.returncode == 1, differs.stdout + differs.stderr
    assert "docs/index.md: rendered 3, engine 3: DIFFERS at block 1: rendered 'a = 2' / engine 'a = 1'" in differs.stdout


@pytest.mark.parametrize("lang", ["es", "en", "fr"])
def test_the_authors_page_shows_the_own_site_case_word_for_word(lang):
    """docs/<lang>/authoring/own-site.md walks through tests/corpus/own-site: the files it shows are the case's."""
    page = REPO / "docs" / lang / "authoring" / "own-site.md"
    blocks = {b.title: b.code for b in renderer.render(REPO, page).blocks if b.title}
    case = CORPUS / "own-site"
    assert blocks["mkdocs.yml"].rstrip("\n") == (case / "mkdocs.yml").read_text(encoding="utf-8").rstrip("\n")
    assert blocks["docs/index.md"].rstrip("\n") == (case / "docs/index.md").read_text(encoding="utf-8").rstrip("\n")
