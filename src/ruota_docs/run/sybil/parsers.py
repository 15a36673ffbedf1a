"""Sybil's side of the engine: a page's regions are the blocks the site renders.

[`BlockParser`][ruota_docs.run.sybil.parsers.BlockParser] asks `ruota_docs.blocks.renderer` for the page's blocks
(the code blocks readers see, after includes) and turns each of them into a Sybil region at its
page line. A problem that belongs to no block becomes a failing region of its own. Examples are
a directive that precedes no code block, an include outside any block that cannot be found, and
a page that is not UTF-8. Nothing here reads Markdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sybil import Document, Region

from ruota_docs.blocks import site_config
from ruota_docs.blocks.pages import PageError, decode_page, page_key
from ruota_docs.run import render_ahead


@dataclass
class PageProblem:
    """A failing region for a page problem that belongs to no block (never recorded)."""

    page: str
    line: int
    error: str
    number: int = 0  #: its position among the page's problems: what names its test


class PageLayout:
    """Where pages live: the project directory and its docs directory."""

    def __init__(self, root: Path, docs_dir: Path | None = None) -> None:
        self.root = Path(root).resolve()
        self.site = site_config.read(self.root)
        self.docs_dir = Path(docs_dir).resolve() if docs_dir else self.site.docs_dir

    def page_of(self, path: str | Path) -> tuple[str, str]:
        """The page and language of a file, such as ``("es/guides/x.md", "es")``."""
        return page_key(self.docs_dir, Path(path), site_config.languages(self.root))


class PageDocument(Document):
    """A Sybil document type (see Sybil's ``document_types``) for pages that may not be valid UTF-8.

    Instead of an error that stops collection, such a page gets one failing region that names the
    file and line.

    Sybil reads a valid page as `ruota_docs.blocks.pages.decode_page` does: as UTF-8, with or without
    a byte-order mark (`ENCODING`), and with every line ending read as ``\\n``. Only a page that Sybil
    cannot decode is read here. Its undecodable bytes are replaced, and it is parsed as Sybil parses
    any document."""

    #: How Sybil is to read a page: UTF-8, a byte-order mark left out.
    ENCODING = "utf-8-sig"
    decode_error: PageError | None = None

    @classmethod
    def parse(cls, path: str, *parsers, encoding: str = ENCODING) -> Document:
        try:
            return super().parse(path, *parsers, encoding=encoding)
        except UnicodeDecodeError:
            raw = Path(path).read_bytes()
            try:
                decode_page(raw)
            except PageError as problem:
                error = problem
            else:  # the page is UTF-8: what could not be decoded is something a parser read
                raise
        document = cls(raw.decode("utf-8", "replace"), path)
        document.decode_error = error
        for parser in parsers:
            for region in parser(document):
                document.add(region)
        return document


class BlockParser:
    """A Sybil parser that makes one region per block the page renders, in page order.

    Each region gets the evaluator that ``evaluators`` holds for its block's kind. A block whose kind
    has no entry there gets the evaluator in ``default``, and so does a page problem."""

    def __init__(self, layout: PageLayout, evaluators: dict, default) -> None:
        self.layout = layout
        self.evaluators = evaluators
        self.default = default

    def __call__(self, document: Document):
        page, _ = self.layout.page_of(document.path)
        error = getattr(document, "decode_error", None)
        blocks = []
        if error is not None:
            found = [PageProblem(page, error.line, f"{page}:{error.line}: {error}")]
        else:
            # the page a one-page run names was rendered while pytest set itself up (run.render_ahead)
            rendered = render_ahead.take(document.path, document.text, self.layout.docs_dir)
            if rendered is None:
                from ruota_docs.blocks import renderer  # noqa: PLC0415 — Python-Markdown, only where needed

                # highlighting decides nothing about which blocks exist: skip it (most of collecting's time)
                rendered = renderer.render(self.layout.root, Path(document.path), document.text,
                                           self.layout.docs_dir, fast=True)
            found = [PageProblem(page, p.line, f"{page}:{p.line}: {p.message}") for p in rendered.problems]
            blocks = rendered.blocks
        for number, problem in enumerate(found):
            problem.number = number
        found += blocks
        found.sort(key=lambda item: (item.line, getattr(item, "index", -1)))
        starts = _line_starts(document.text)
        last = -1
        for item in found:
            # zero-width regions at the item's line, strictly increasing: Sybil runs them in this order
            offset = max(starts[min(max(item.line, 1), len(starts)) - 1], last + 1)
            offset = min(offset, len(document.text))
            last = offset
            evaluator = self.evaluators.get(getattr(item, "kind", None), self.default)
            yield Region(offset, offset, parsed=item, evaluator=evaluator)


def identify(name: str, example) -> str:
    """A test's ID within its page, unique by construction.

    The ID starts with the index of the block (or of the problem) on the page. Next comes its
    location: the line on the page (so that ``-k line:12`` still selects by line) or, for a fence
    written in an included Markdown file, that file and its line (``file:snippets/part.md,line:5``).
    Last comes the ``id=`` of its ``run:`` directive, where it has one."""
    item = example.parsed
    if isinstance(item, PageProblem):
        return f"sybil:{name},problem:{item.number},line:{item.line}"
    named = f",id:{item.block_id}" if getattr(item, "block_id", None) else ""  # ``-k id:NAME`` selects one block
    # a fence written in an included Markdown file: that file and its line (``-k "part.md and line:12"``)
    written = getattr(item, "written_in", None)
    at = f"file:{written[0]},line:{written[1]}" if written else f"line:{item.line}"
    return f"sybil:{name},block:{item.index},{at}{named}"


def _line_starts(text: str) -> list[int]:
    starts, position = [0], 0
    for line in text.splitlines(keepends=True):
        position += len(line)
        starts.append(position)
    return starts
