"""pytest's side of a page's tests: where pytest says a block is.

Sybil's own items name a test's file and line by its region in the page. A fence written in
a Markdown file that an include (``--8<-- "part.md"``) brings into the page has no place of
its own in the page: its region stands at the include's line, where every block that include
brings in stands too. Here such a block's test is reported where its fence is written — that
file and its line — in pytest's location of the test (what ``--junitxml`` and editors read),
the heading of its failure and the line under it; a block written on the page keeps Sybil's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sybil.example import SybilFailure
from sybil.integration.pytest import SybilFailureRepr, SybilFile, SybilItem


def written_at(parsed: Any) -> tuple[str, int] | None:
    """``(file, line)`` of a block's fence written in an included Markdown file (`Block.written_in`);
    None for a fence written on the page, and for a page's problem (no block)."""
    return getattr(parsed, "written_in", None)


class _IncludedFailure(SybilFailureRepr):
    """Sybil's failure report, at the file and line where the block's fence is written."""

    def __init__(self, item: PageItem, failure: SybilFailure, file: str, line: int) -> None:
        block = item.example.parsed
        heading = (f"Block {block.index + 1} of {block.page}, written at {file}:{line} (brought in by the include "
                   f"at {item.parent.name}:{block.line}), did not evaluate as expected:")
        super().__init__(item, f"{heading}\n{failure.result}")
        self.at = f"{file}:{line}"

    def toterminal(self, tw) -> None:
        tw.line()
        for line in self.message.splitlines():
            tw.line(line)
        tw.line()
        tw.write(self.at, bold=True, red=True)
        tw.line(": SybilFailure")


class PageItem(SybilItem):
    """One block's test, reported where the block is written."""

    root: Path = Path()  #: the project folder, which a block's included file is relative to

    def written(self) -> tuple[Path, int]:
        """``(file, line)`` where the block's fence is written: the page and its line, or the included file."""
        block = self.example.parsed
        found = written_at(block)
        return (self.root / found[0], found[1]) if found else (self.path, getattr(block, "line", self.example.line))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        found = written_at(self.example.parsed)
        if found is None:
            return super().reportinfo()
        file, line = found
        block = self.example.parsed
        return self.root / file, line, f"{file}:{line} (block {block.index + 1} of {self.path.name})"

    def repr_failure(self, excinfo, style=None):
        found = written_at(self.example.parsed)
        if found is not None and isinstance(excinfo.value, SybilFailure):
            return _IncludedFailure(self, excinfo.value, *found)
        return super().repr_failure(excinfo, style)


class PageFile(SybilFile):
    """A page's tests, as `PageItem` s."""

    root: Path = Path()

    def collect(self):  # Sybil's, with our items
        for sybil in self.sybils:
            document = sybil.parse(self.path)
            self.documents.append(document)
            for example in document.examples():
                item = PageItem.from_parent(self, sybil=sybil, example=example)
                item.root = self.root
                yield item


def integration(sybil, root: Path):
    """What ``Sybil.pytest()`` returns (a ``pytest_collect_file`` hook), collecting `PageItem` s. The closure
    keeps Sybil's name ``sybils``: the engine's pytest plugin finds a conftest's Sybil by it."""
    sybils = (sybil,)

    def pytest_collect_file(file_path: Path, parent) -> PageFile | None:
        if not any(s.should_parse(file_path) for s in sybils):
            return None
        collected = PageFile.from_parent(parent, path=file_path, sybils=sybils)
        collected.root = Path(root)
        return collected

    return pytest_collect_file
