"""Turning lexed fences into executable examples, one policy per language.

| language of the fence | what the engine does |
| --- | --- |
| python, py, python3 | executed in the page's process |
| pycon (or python starting `>>>`) | run as a doctest; output checked |
| bash, sh, shell, zsh, console | executed with bash when marked `run: safe`; otherwise needs `run: skip reason="…"` |
| powershell, pwsh, ps1, bat, cmd | Windows only: skipped elsewhere, with that reason |
| yaml, yml, json, toml | parsed; must be valid |
| text, txt, output, plaintext, log, markdown, md, mermaid | output or prose, not code: not executed |
| anything else, or no language | fails unless `run: skip reason="…"` explains it |
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from sybil import Document, Region, Sybil

from .. import requirements
from ..includes import IncludeError, expander_for, load_mkdocs_config
from .lexers import Fence, FencedBlockLexer, LexError, decode_page

PYTHON = ("python", "py", "python3")
DOCTEST = ("pycon",)
SHELL = ("bash", "sh", "shell", "zsh", "console")
WINDOWS = ("powershell", "pwsh", "ps1", "bat", "cmd", "batch")
DATA = ("yaml", "yml", "json", "toml")
NOT_CODE = ("text", "txt", "output", "plaintext", "log", "markdown", "md", "mermaid")
RUN_OPTIONS = ("safe", "skip", "reason", "timeout", "id")


@dataclass
class Block:
    """A code block as the engine runs it: the parsed form of a Sybil region."""

    page: str  #: path under the docs folder, ``es/guides/keras-rx7600.md``
    lang: str  #: the page's language, ``es``
    line: int
    language: str
    kind: str  #: python, doctest, shell, windows, data or invalid
    code: str  #: the code after includes: what readers see and what runs
    index: int = 0  #: position among the page's checked blocks
    requirements: tuple = ()
    options: dict = field(default_factory=dict)
    includes: tuple = ()
    error: str | None = None  #: why the block cannot be run as written
    signature: str = ""  #: identical for pages whose block sequences are identical
    page_total: int = 0  #: how many checked blocks the page has
    outcome: object = None  #: the `ruota_docs.sybil.session.Outcome`, once evaluated

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.code.encode()).hexdigest()

    @property
    def block_id(self) -> str | None:
        value = self.options.get("id")
        return value if isinstance(value, str) else None

    @property
    def not_run_reason(self) -> str | None:
        """The author's reason not to run this block, if any."""
        if self.options.get("skip"):
            return str(self.options.get("reason") or "")
        return None

    def identity(self) -> tuple:
        """What must be equal for two pages to share one execution of this block."""
        reqs = tuple(str(r) for r in self.requirements)
        opts = tuple(sorted((k, str(v)) for k, v in self.options.items() if k != "reason"))
        return (self.kind, self.language, self.code, reqs, opts, self.not_run_reason is not None)


def kind_of(fence: Fence) -> str | None:
    """The policy for a fence's language; ``None`` for blocks that are not code."""
    language = fence.language
    if language in NOT_CODE:
        return None
    if language in PYTHON:
        return "doctest" if fence.body.lstrip().startswith(">>>") else "python"
    if language in DOCTEST:
        return "doctest"
    if language in SHELL:
        return "shell"
    if language in WINDOWS:
        return "windows"
    if language in DATA:
        return "data"
    return "invalid"


def block_from_fence(fence: Fence, page: str, lang: str, root: Path) -> Block | None:
    """Build the `Block` for a fence; problems are kept in ``Block.error``."""
    kind = kind_of(fence)
    if kind is None:
        return None
    block = Block(page=page, lang=lang, line=fence.line, language=fence.language, kind=kind, code=fence.body)
    where = fence.line  # the line an error points at: the directive being read, else the fence
    try:
        for directive in fence.directives:
            where = directive.line
            if directive.name == "requires":
                block.requirements += requirements.parse(directive.args)
            else:
                block.options.update(_run_options(directive))
        where = fence.line
        expander = expander_for(str(root))
        block.includes = tuple(expander.sources(fence.body))
        block.code = expander.expand(fence.body)
    except (requirements.RequirementError, IncludeError, LexError) as error:
        line = getattr(error, "line", None) or where
        block.error = f"{page}:{line}: {error}"
        block.kind = "invalid"
        return block
    if kind == "invalid" and block.not_run_reason is None:
        what = f"language {fence.language!r}" if fence.language else "no language"
        block.error = (
            f"{page}:{fence.line}: code block with {what} has no run policy; give it a known language "
            f"or explain it with <!-- run: skip reason=\"…\" -->"
        )
    elif kind in ("shell", "windows") and not block.options.get("safe") and block.not_run_reason is None:
        block.error = (
            f"{page}:{fence.line}: {fence.language} block is neither marked safe to run "
            f"(<!-- run: safe -->) nor explained (<!-- run: skip reason=\"…\" -->)"
        )
    return block


def _run_options(directive) -> dict:
    options = directive.options()
    unknown = [k for k in options if k not in RUN_OPTIONS]
    if unknown:
        raise LexError(f"unknown run: option {unknown[0]!r}; known: {', '.join(RUN_OPTIONS)}", directive.line)
    if options.get("skip") and not str(options.get("reason", "") or "").strip():
        raise LexError('run: skip needs a reason readers can see: <!-- run: skip reason="…" -->', directive.line)
    if "timeout" in options:
        try:
            if float(options["timeout"]) <= 0:
                raise ValueError
        except (TypeError, ValueError):
            raise LexError(f"run: timeout must be a positive number of seconds (got {options['timeout']!r})", directive.line) from None
    return options


def page_signature(blocks: list[Block]) -> str:
    data = json.dumps([b.identity() for b in blocks], default=str)
    return hashlib.sha256(data.encode()).hexdigest()


class PageLayout:
    """Where pages live: the docs folder and the languages of the site."""

    def __init__(self, root: Path, docs_dir: Path | None = None) -> None:
        self.root = Path(root).resolve()
        config = load_mkdocs_config(self.root)
        self.docs_dir = (docs_dir or self.root / config.get("docs_dir", "docs")).resolve()

    def page_of(self, path: str | Path) -> tuple[str, str]:
        """``(page, lang)`` for a file: ``("es/guides/x.md", "es")``."""
        path = Path(path).resolve()
        try:
            page = path.relative_to(self.docs_dir).as_posix()
        except ValueError:
            page = path.name
        return page, page.split("/", 1)[0] if "/" in page else ""


class PageDocument(Document):
    """A Sybil document that survives a page that is not UTF-8: instead of an error that
    stops collection, the page gets one failing example naming the file and line."""

    decode_error: LexError | None = None

    @classmethod
    def parse(cls, path: str, *parsers, encoding: str = "utf-8") -> Document:
        raw = Path(path).read_bytes()
        try:
            text = decode_page(raw)
            error = None
        except LexError as problem:
            text, error = raw.decode("utf-8", "replace"), problem
        document = cls(text, path)
        document.decode_error = error
        for parser in parsers:
            for region in parser(document):
                document.add(region)
        return document


class BlockParser:
    """A Sybil parser: one `sybil.Region` per checked block of a page."""

    def __init__(self, layout: PageLayout, evaluator) -> None:
        self.layout = layout
        self.lexer = FencedBlockLexer()
        self.evaluator = evaluator

    def __call__(self, document: Document):
        page, lang = self.layout.page_of(document.path)
        regions: list[Region] = []
        blocks: list[Block] = []
        decode_error = getattr(document, "decode_error", None)
        found = self.lexer(document) if decode_error is None else [self.lexer.error_region(document, decode_error)]
        for region in found:
            if "error" in region.lexemes:
                error = region.lexemes["error"]
                block = Block(page, lang, error.line, "", "invalid", "", error=f"{page}:{error.line}: {error}")
            else:
                block = block_from_fence(region.lexemes["fence"], page, lang, self.layout.root)
                if block is None:
                    continue
            block.index = len(blocks)
            blocks.append(block)
            region.parsed = block
            region.evaluator = self.evaluator
            regions.append(region)
        signature = page_signature(blocks)
        unreadable = decode_error is not None or any("error" in r.lexemes for r in regions)
        for block in blocks:
            block.signature = signature
            # an unreadable page has no known number of blocks: the record keeps its other entries
            block.page_total = 0 if unreadable else len(blocks)
        yield from regions


def make_sybil(root: str | Path, docs_dir: str | Path | None = None, patterns=("*.md",)) -> Sybil:
    """The Sybil that collects every page under the docs folder."""
    from .evaluators import BlockEvaluator, teardown_page  # noqa: PLC0415 — avoid an import cycle

    layout = PageLayout(Path(root), Path(docs_dir) if docs_dir else None)
    return Sybil(
        parsers=[BlockParser(layout, BlockEvaluator(layout.root))],
        path=str(layout.docs_dir),
        patterns=list(patterns),
        document_types={".md": PageDocument},
        teardown=teardown_page,
        name="ruota",
    )
