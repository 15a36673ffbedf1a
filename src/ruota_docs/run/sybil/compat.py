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
  from which the pytest plugin reads the block and the page's document.

:func:`check_sybil` stops a run on a Sybil outside the range these were tried with (the one
pyproject.toml declares; ``tests/run/sybil/test_compat.py`` keeps them equal and fails if a
release changes any of them).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sybil import Example, Sybil

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
    """Sybil, naming each test by its block's index on the page, and telling the pytest plugin
    which pages a conftest's hook made with it collects."""

    def __init__(self, *args: Any, identify: Callable[[str, Example], str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._identify = identify

    def identify(self, example: Example) -> str:
        return self._identify(self.name, example)

    def pytest(self) -> Callable[[Path, Any], Any]:
        hook = super().pytest()
        setattr(hook, COLLECTS, self.should_parse)
        return hook
