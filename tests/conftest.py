"""Shared set-up of the package's tests (helpers live in tests/_support.py)."""

import shutil
import sys
import tempfile
from pathlib import Path

import pytest

# --import-mode=importlib puts no test folder on sys.path: the shared helpers (_support, sitebuild) live here
sys.path.insert(0, str(Path(__file__).parent))

from _support import reader_folder


def pytest_configure(config):
    config.addinivalue_line("markers", "realdocs: reads the repository's own docs/ (fails while pages disagree)")


@pytest.fixture(scope="session")
def reader_tmp_root():
    """A folder for throwaway projects whose pages run as readers run them.

    Run as root, the engine runs pages as an unprivileged user, which must reach the
    project: pytest's own temporary folders are private to the user running the tests
    (mode 0700), this one is not (0755)."""
    folder = Path(tempfile.mkdtemp(prefix="ruota-tests-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def reader_tmp(reader_tmp_root, request):
    """A fresh folder under `reader_tmp_root` for one test."""
    return reader_folder(reader_tmp_root, request.node.name[:40])
