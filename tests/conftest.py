"""Shared set-up of the package's tests (helpers live in tests/_support.py)."""

import getpass
import os
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
    _base_temp_without_the_login_name(config)


#: Why a test marked ``root`` is skipped for anyone else.
NEEDS_ROOT = "needs root, to switch users (CI runs these as root after the suite ran as a user who is not: .ci/run)"


def pytest_collection_modifyitems(config, items):
    """``root`` tests skip, saying why, where the tests do not run as root: ``@pytest.mark.root`` or
    ``@pytest.mark.root(reason=…)``. CI runs ``-m "root or switch"`` as root once the whole suite has
    passed as a user who is not root (``switch``: runs for anyone, and differently as root)."""
    if os.geteuid() == 0:
        return
    for item in items:
        marker = item.get_closest_marker("root")
        if marker is not None:
            item.add_marker(pytest.mark.skip(reason=marker.kwargs.get("reason", NEEDS_ROOT)))


def _base_temp_without_the_login_name(config) -> None:
    """pytest's temporary directories are under ``pytest-of-<login>``, and the engine writes a login name as
    ``<user>`` in what blocks print: a test comparing an output with its own tmp_path fails for anyone but
    root. Such a user's run gets a base folder of its own without the name (the controller makes it; xdist's
    workers take a folder in it)."""
    if config.option.basetemp or hasattr(config, "workerinput"):
        return
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        return
    if user != "root" and len(user) >= 3:
        config.option.basetemp = config._ruota_own_basetemp = tempfile.mkdtemp(prefix="ruota-pytest-")


def pytest_sessionfinish(session, exitstatus):
    """The base folder made above is the run's own, so nothing else removes it (pytest prunes only its
    ``pytest-of-<login>`` ones): removed after a run that passed, kept after one that failed, to look at."""
    made = getattr(session.config, "_ruota_own_basetemp", None)
    if made and exitstatus == 0:
        shutil.rmtree(made, ignore_errors=True)


@pytest.hookimpl(wrapper=True, optionalhook=True)  # optional: pytest-xdist may be absent (.ci/lowest)
def pytest_xdist_make_scheduler(config, log):
    """Under ``--dist loadscope`` (make test) every browser test goes to one worker.

    Their session fixtures (the served sites, Chromium, the survey of every page) are
    made once per worker, and loadscope splits work by module: spread over both workers,
    the survey of the real site ran twice. xdist reads ``xdist_group`` marks only under
    ``--dist loadgroup``, and its controller sees node ids, not marks, so the browser
    tests are one scope by their folder, put first in the queue: they are the longest
    chain of the run."""
    scheduler = yield
    split = getattr(scheduler, "_split_scope", None)
    if split is None:  # a --dist without scopes (load, each): nothing to group
        return scheduler
    browser = "tests/browser/"

    def split_scope(nodeid: str) -> str:
        return browser if nodeid.startswith(browser) else split(nodeid)

    scheduler._split_scope = split_scope
    assign = scheduler._assign_work_unit

    def browser_first(node) -> None:
        if browser in scheduler.workqueue:
            scheduler.workqueue.move_to_end(browser, last=False)
        assign(node)

    scheduler._assign_work_unit = browser_first
    return scheduler


@pytest.fixture(scope="session")
def reader_tmp_root():
    """A folder for throwaway projects whose pages run as readers run them.

    Run as root, the engine runs pages as an unprivileged user, which must reach the
    project: pytest's own temporary directories are private to the user running the tests
    (mode 0700), this one is not (0755)."""
    folder = Path(tempfile.mkdtemp(prefix="ruota-tests-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def reader_tmp(reader_tmp_root, request):
    """A fresh folder under `reader_tmp_root` for one test."""
    return reader_folder(reader_tmp_root, request.node.name[:40])
