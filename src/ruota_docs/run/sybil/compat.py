"""Where the engine depends on Sybil beyond what Sybil documents: here, and only here.

Everything else in :mod:`ruota_docs.run.sybil` uses Sybil's documented extension points: a
`~sybil.Document` subclass through ``Sybil(document_types=…)``, a parser yielding `~sybil.Region`\\ s,
evaluators that return a failure's text or None, and `~sybil.Example`'s attributes. Three things
have no documented way, and live here:

- a test's name: Sybil's pytest items take it from ``Sybil.identify(example)`` (undocumented),
  which names a test by line and column; two blocks one include brings in share both, so the
  engine names each by its index on the page (`ruota_docs.run.sybil.parsers.identify`);
- whether a conftest already collects a page with the engine's Sybil: the hook that the documented
  `Sybil.pytest` returns carries the Sybil's ``should_parse`` (undocumented), so that the pytest
  plugin does not collect the page a second time;
- the example a pytest item evaluates (:func:`example_of`: Sybil's items hold it as ``example``),
  from which the pytest plugin reads the block and the page's document;
- where pytest says a test is: Sybil's items (``sybil.integration.pytest``, undocumented) place it
  by its region in the page. A fence written in a Markdown file that an include (``--8<--
  "part.md"``) brings into the page has no place of its own there (its region stands at the
  include's line, with every block that include brings in), so the engine's items (`PageItem`)
  report such a block at that file and its line: pytest's location of the test (what
  ``--junitxml`` and editors read), the heading of its failure and the line under it. A block
  written on the page keeps Sybil's.

:func:`check_sybil` stops a run on a Sybil outside the range these were tried with (the one
pyproject.toml declares; ``tests/run/sybil/test_compat.py`` keeps them equal and fails if a
release changes any of them).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sybil import Example, Sybil
from sybil.example import SybilFailure
from sybil.integration.pytest import SybilFailureRepr, SybilFile, SybilItem

from ruota_docs.blocks import compat

#: The Sybil releases :class:`PageSybil` was tried with.
SYBIL = {"sybil": ">=10.1,<11"}
#: The attribute of a collection hook that says which pages it collects with the engine's Sybil.
COLLECTS = "ruota_docs_collects"


class UnsupportedSybil(RuntimeError):
    """A Sybil release the engine's undocumented hooks were not tried with."""


def check_sybil() -> None:
    """Raise `UnsupportedSybil` where the installed Sybil is outside `SYBIL`."""
    found = compat.problems(SYBIL, user="ruota-docs' test collection")
    if found:
        raise UnsupportedSybil("; ".join(found))


def example_of(item: Any) -> Example | None:
    """The Sybil example a pytest item evaluates; None for any other item."""
    found = getattr(item, "example", None)
    return found if isinstance(found, Example) else None


class PageSybil(Sybil):
    """Sybil, naming each test by its block's index on the page, reporting it where the block is
    written (`PageItem`), and telling the pytest plugin which pages a conftest's hook made with it
    collects. ``root`` is the project directory, which an included file's path is relative to."""

    def __init__(self, *args: Any, identify: Callable[[str, Example], str], root: Path, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._identify = identify
        self._root = Path(root)

    @property
    def root(self) -> Path:
        return self._root

    def identify(self, example: Example) -> str:
        return self._identify(self.name, example)

    def pytest(self) -> Callable[[Path, Any], Any]:
        sybil = self

        def pytest_collect_file(file_path: Path, parent: Any) -> PageFile | None:  # Sybil's hook, with our files
            if not sybil.should_parse(file_path):
                return None
            return PageFile.from_parent(parent, path=file_path, sybils=[sybil])

        setattr(pytest_collect_file, COLLECTS, self.should_parse)
        return pytest_collect_file


def written_at(parsed: Any) -> tuple[str, int] | None:
    """``(file, line)`` of a block's fence written in an included Markdown file
    (`ruota_docs.blocks.block.Block.written_in`); None for a fence written on the page, and for a
    page's problem (no block)."""
    return getattr(parsed, "written_in", None)


class _IncludedFailure(SybilFailureRepr):
    """Sybil's failure report, at the file and line where the block's fence is written."""

    def __init__(self, item: PageItem, failure: SybilFailure, file: str, line: int) -> None:
        block = item.example.parsed
        heading = (f"Block {block.index + 1} of {block.page}, written at {file}:{line} (brought in by the include "
                   f"at {item.parent.name}:{block.line}), did not evaluate as expected:")
        super().__init__(item, f"{heading}\n{failure.result}")
        self.at = f"{file}:{line}"

    def toterminal(self, tw: Any) -> None:
        tw.line()
        for line in self.message.splitlines():
            tw.line(line)
        tw.line()
        tw.write(self.at, bold=True, red=True)
        tw.line(": SybilFailure")


class PageItem(SybilItem):
    """One block's test, reported where the block is written."""

    def written(self) -> tuple[Path, int]:
        """``(file, line)`` where the block's fence is written: the page and its line, or the included file."""
        block = self.example.parsed
        found = written_at(block)
        if found is None:
            return self.path, getattr(block, "line", self.example.line)
        return self.parent.root / found[0], found[1]

    def reportinfo(self) -> tuple[Any, int | None, str]:
        found = written_at(self.example.parsed)
        if found is None:
            return super().reportinfo()
        file, line = found
        block = self.example.parsed
        return self.parent.root / file, line, f"{file}:{line} (block {block.index + 1} of {self.path.name})"

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        found = written_at(self.example.parsed)
        if found is not None and isinstance(excinfo.value, SybilFailure):
            return _IncludedFailure(self, excinfo.value, *found)
        return super().repr_failure(excinfo, style)


class PageFile(SybilFile):
    """A page's tests, as `PageItem` s."""

    @property
    def root(self) -> Path:
        """The project directory of the page's Sybil, which an included file's path is relative to."""
        return self.sybils[0].root

    def collect(self):  # Sybil's, with our items
        for sybil in self.sybils:
            document = sybil.parse(self.path)
            self.documents.append(document)
            for example in document.examples():
                yield PageItem.from_parent(self, sybil=sybil, example=example)
