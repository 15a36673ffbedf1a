"""The engine's blocks are the code blocks MkDocs renders, one for one, on a corpus of small sites.

Each folder of ``tests/corpus/`` is a small MkDocs project (``mkdocs.yml``, ``docs/``,
maybe ``snippets/``) showing one way real MkDocs docs write or include code, and a
``case.yml`` saying what it shows (``about``) and the outcome each runnable block must
get (``outcomes``, in page order). For every project:

1. ``mkdocs build`` (the real one, in this process) renders it; the code blocks are read
   back from the built HTML: the text of every ``<pre><code>``, in page order;
2. the engine's blocks for the same pages must have exactly those codes, in that order;
3. ``pytest`` runs the project with the engine, as CI runs our docs, and the verification
   record must hold one entry per block, with the outcomes ``case.yml`` names.
"""

from __future__ import annotations

import html.parser
import json
import os
import shutil
from pathlib import Path

import pytest
import yaml

from _support import CONFTEST, clean_env, run_pytest
from ruota_docs import renderer
from ruota_docs.device import PROBED_ENV, probe, share

CORPUS = Path(__file__).resolve().parent / "corpus"
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "mkdocs.yml").exists())


class _CodeBlocks(html.parser.HTMLParser):
    """The text of every ``<pre>…<code>`` in a page, line numbers and titles left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self._pre = 0
        self._code = 0
        self._skip = 0
        self._text: list[str] = []
        self._stack: list[bool] = []

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        skipping = tag in ("span", "td", "div") and any(c in ("linenos", "lineno", "linenodiv", "filename") for c in classes)
        if tag not in ("br", "img", "input"):
            self._stack.append(skipping)
        self._skip += skipping
        if tag == "pre":
            self._pre += 1
        elif tag == "code" and self._pre:
            self._code += 1
            if self._code == 1:
                self._text = []

    def handle_endtag(self, tag):
        if tag == "code" and self._code:
            self._code -= 1
            if not self._code:
                self.blocks.append("".join(self._text))
        elif tag == "pre" and self._pre:
            self._pre -= 1
        if self._stack:
            self._skip -= self._stack.pop()

    def handle_data(self, data):
        if self._code and not self._skip:
            self._text.append(data)


def rendered_code_blocks(page_html: str) -> list[str]:
    """The code readers see in a built page (its article, not the theme's chrome)."""
    parser = _CodeBlocks()
    parser.feed(page_html)
    return [b.rstrip("\n") for b in parser.blocks]


def _built_page(site: Path, page: str) -> Path:
    stem = page[:-3]
    if stem == "index" or stem.endswith("/index"):
        return site / stem[: -len("index")] / "index.html"
    return site / stem / "index.html"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Every corpus project copied to a temporary folder and built by MkDocs, once."""
    from mkdocs.commands.build import build  # noqa: PLC0415
    from mkdocs.config import load_config  # noqa: PLC0415

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    base = tmp_path_factory.mktemp("corpus")
    result = {}
    for case in CASES:
        root = base / case
        shutil.copytree(CORPUS / case, root)
        config = load_config(str(root / "mkdocs.yml"), site_dir=str(root / "site"))
        cwd = os.getcwd()
        os.chdir(root)  # pymdownx.snippets resolves a relative base_path from here, as in a build
        try:
            build(config)
        finally:
            os.chdir(cwd)
        result[case] = root
    return result


def _pages(root: Path) -> list[str]:
    docs = root / "docs"
    return sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))


@pytest.mark.parametrize("case", CASES)
def test_engine_blocks_are_the_rendered_code_blocks(built, case):
    root = built[case]
    for page in _pages(root):
        shown = rendered_code_blocks(_built_page(root / "site", page).read_text(encoding="utf-8"))
        engine = renderer.render(root, root / "docs" / page)
        assert not [p for p in engine.problems], f"{case}/{page}: {engine.problems}"
        assert [b.code.rstrip("\n") for b in engine.blocks] == shown, f"{case}/{page}"


@pytest.mark.parametrize("case", CASES)
def test_every_block_gets_its_outcome_in_the_record(built, case, tmp_path):
    root = built[case]
    spec = yaml.safe_load((root / "case.yml").read_text(encoding="utf-8"))
    (root / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    ledger_file = tmp_path / "record.json"
    share(probe())
    run = run_pytest(root, "docs", "-p", "no:xdist", "--ledger", str(ledger_file),
                     env=clean_env(**{PROBED_ENV: os.environ[PROBED_ENV]}))
    entries = json.loads(ledger_file.read_text(encoding="utf-8"))["blocks"] if ledger_file.exists() else {}
    pages = _pages(root)
    expected_total = sum(len(renderer.render(root, root / "docs" / p).blocks) for p in pages)
    assert len(entries) == expected_total, run.stdout[-3000:]
    recorded = [e for p in pages for e in sorted((e for e in entries.values() if e["page"] == p), key=lambda e: e["index"])]
    runnable = [e["outcome"] for e in recorded if not (e["outcome"] == "skipped" and (e["reason"] or "").startswith(
        ("not run: output or prose", "not run: an indented code block")))]
    assert runnable == spec["outcomes"], f"{case}: {spec['about']}\n" + run.stdout[-3000:]
    assert run.returncode == (1 if "failed" in spec["outcomes"] or spec.get("fails") else 0), run.stdout[-3000:]
