"""Fixtures of the fault-injection tests: throwaway doc trees, and the figures they measure."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # faulttree, beside this file (--import-mode=importlib)

from faulttree import DocTree

#: ``(what, value)`` lines measured by the tests, printed at the end of the run.
FIGURES: list[tuple[str, str]] = []


@pytest.fixture
def tree(reader_tmp) -> DocTree:
    """A fresh throwaway project (mkdocs.yml, conftest.py, docs/es|en|fr, snippets/), where
    the unprivileged user pages run as (when run as root) can reach it."""
    return DocTree(reader_tmp / "project")


@pytest.fixture
def figure():
    """``figure("what", "value")``: a measured figure, shown in the run's summary."""
    return lambda what, value: FIGURES.append((what, value))


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.write_sep("-", "ruota-docs fault figures")
        for what, value in FIGURES:
            terminalreporter.write_line(f"{what}: {value}")
