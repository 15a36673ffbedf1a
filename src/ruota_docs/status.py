"""What ``ruota-docs status`` reports: what every machine's record says, page by page.

`compute` reads the pages and the records and returns a `Report`; the CLI only prints it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ruota_docs.blocks import site_config
from ruota_docs.blocks.collect import PageError, page_blocks
from ruota_docs.blocks.pages import read_page
from ruota_docs.records import ledger, verdicts
from ruota_docs.site import values


@dataclass
class PageStatus:
    """One page: its blocks' results per machine, and what is missing or failing."""

    page: str
    blocks: int = 0
    per_machine: dict[str, Counter] = field(default_factory=dict)
    #: ``(line, problem)`` of value directives that are wrong or not measured anywhere.
    unmeasured: list[tuple[int, str]] = field(default_factory=list)
    #: Where blocks no record holds for their current code are written: their page line, or ``file:line``
    #: for a fence written in an included Markdown file.
    stale: list[int | str] = field(default_factory=list)
    #: Where blocks that must run and have no passing record, or failed last time, are written (as ``stale``).
    weak: list[int | str] = field(default_factory=list)
    #: ``(line, message)`` when the page cannot be read at all.
    error: tuple[int, str] | None = None


@dataclass
class Report:
    machines: list[str]
    pages: list[PageStatus]
    #: ``(page, machine, entries)`` recorded for pages that no longer exist.
    gone: list[tuple[str, str, int]]

    @property
    def weak(self) -> int:
        return sum(len(p.weak) for p in self.pages)

    @property
    def values_missing(self) -> int:
        return sum(len(p.unmeasured) for p in self.pages)

    @property
    def unreadable(self) -> int:
        return sum(p.error is not None for p in self.pages)


def _page(root: Path, docs: Path, path: Path, machines: list[str], indexed) -> PageStatus | None:
    page = path.relative_to(docs).as_posix()
    try:
        every = page_blocks(root, docs, path, shown_only=True)
    except PageError as error:
        return PageStatus(page, error=(error.line, str(error)))
    status = PageStatus(page, unmeasured=values.check_page(read_page(path), every, indexed))
    blocks = [b for b in every if not b.shown_only]
    if not blocks and not status.unmeasured:
        return None
    status.blocks = len(blocks)
    status.per_machine = {m: Counter() for m in machines}
    for block in blocks:
        verdict = verdicts.verdict(page, block.index, block.sha256, indexed)
        for result in verdict.results:
            status.per_machine[result.machine_id][result.state] += 1
        if not any(r.state in ("passed", "failed", "skipped") for r in verdict.results):
            status.stale.append(block.source or block.line)
        passed, failed = verdict.by_state("passed"), verdict.by_state("failed")
        if block.not_run_reason is None and (not passed or failed):
            if any(r.state != "skipped" for r in verdict.results) or verdict.absent or not verdict.results:
                status.weak.append(block.source or block.line)
    return status


def _site_pages(root: Path, docs: Path, languages: list[str]) -> list[Path]:
    """The page files of the site: each language folder's, in the languages' order, on a site
    with one folder per language; every page of the docs directory on any other."""
    if not site_config.languages(root).folders:
        return sorted(docs.rglob("*.md"))
    return [path for lang in languages for path in sorted((docs / lang).rglob("*.md"))]


def compute(root: Path, docs: Path, languages: list[str], record_dir: str) -> Report:
    """Every page of every language against every record in ``record_dir``.

    Raises `ruota_docs.records.schema.RecordError` for a record that cannot be read."""
    ledgers = ledger.load_all(root / record_dir)
    indexed = verdicts.index_ledgers(ledgers)
    machines = [verdicts.record_id(d) for d in ledgers]
    pages, seen = [], set()
    for path in _site_pages(root, docs, languages):
        seen.add(path.relative_to(docs).as_posix())
        if (status := _page(root, docs, path, machines, indexed)) is not None:
            pages.append(status)
    gone = sorted((page, str(data.machine_id), len(entries))
                  for data, by_page in indexed for page, entries in by_page.items() if page not in seen)
    return Report(machines, pages, gone)
