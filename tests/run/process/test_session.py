"""run.process.session: one fresh process per page, its blocks sent one at a time, timeouts enforced."""

from __future__ import annotations

import pytest

from _support import clean_env, outcomes, run_pytest, write_tree
from ruota_docs.run.process import session as sessions
from ruota_docs.run.process.session import PageSession
from ruota_docs.run.settings import from_environment


@pytest.fixture
def session():
    made = PageSession("es/p.md")
    yield made
    made.close()


def test_blocks_share_the_pages_namespace_and_print_what_they_print(session):
    assert session.run_python("x = 41\n", "es/p.md:3", 3, timeout=20).status == "passed"
    shown = session.run_python("print(x + 1)\n", "es/p.md:9", 9, timeout=20)
    assert (shown.status, shown.output) == ("passed", "42\n")


def test_an_exception_fails_its_block_with_the_traceback(session):
    failed = session.run_python("1 / 0\n", "es/p.md:3", 3, timeout=20)
    assert failed.status == "failed" and "ZeroDivisionError" in failed.error
    assert session.run_python("print('still here')\n", "es/p.md:7", 7, timeout=20).status == "passed"


def test_a_hung_block_times_out_and_the_rest_of_the_page_is_skipped(session):
    hung = session.run_python("import time\ntime.sleep(30)\n", "es/p.md:3", 3, timeout=0.5)
    assert (hung.status, hung.reason) == ("failed", "timed out after 0.5 s")
    after = session.run_python("print(1)\n", "es/p.md:9", 9, timeout=5)
    assert after.status == "skipped" and "line 3" in after.reason


def test_shell_blocks_run_in_the_pages_working_directory(session):
    assert session.run_shell("echo hi > f.txt && cat f.txt", timeout=20).output == "hi\n"
    failed = session.run_shell("exit 3", timeout=20)
    assert failed.status == "failed" and "3" in failed.reason


def test_a_page_ends_with_what_it_left_for_pythons_shutdown_done(reader_tmp):
    """A page that registered an exit handler or left a thread running ends as Python ends; one
    that left neither ends at once (`ruota_docs.run.process.worker`), either way with exit status 0.
    Outside the sandbox, where the exit handler can write beside the test."""
    reader_tmp.chmod(0o777)  # where the page's exit handler writes, as whichever user the page runs as
    done = reader_tmp / "handler-ran"
    outside = from_environment(isolation="user")
    for code in (f"import atexit\natexit.register(lambda: open({str(done)!r}, 'w').close())\n",
                 "import threading, time\nthreading.Thread(target=time.sleep, args=(0.2,)).start()\n",
                 "x = 1\n"):
        page = PageSession("es/p.md", settings=outside)
        try:
            assert page.run_python(code, "es/p.md:3", 3, timeout=20).status == "passed"
            process = page.process
        finally:
            page.close()
        assert process.returncode == 0, code
    assert done.exists()


def test_long_output_keeps_its_head_and_tail(session):
    printed = session.run_python("print('a' * 3_000_000 + 'END')\n", "es/p.md:3", 3, timeout=20).output
    assert printed.startswith("aaa") and printed.rstrip().endswith("END") and "bytes of output omitted" in printed


@pytest.fixture
def settings():
    yield from_environment()
    sessions.close_ahead()


def test_the_page_started_ahead_is_the_one_its_blocks_get(settings):
    sessions.start_ahead("es/p.md", settings)
    ahead = sessions._AHEAD["es/p.md"]
    assert ahead.process is not None and ahead.process.poll() is None  # running before any block
    got = sessions.session_for("es/p.md", settings)
    try:
        assert got is ahead
        assert sessions._AHEAD == {}
        done = got.run_python("import os\nprint(os.environ['RUOTA_DOCS_PAGE'], os.getcwd())\n", "es/p.md:3", 3, 20)
        assert done.status == "passed"
        assert done.output.split() == ["es/p.md", str(got.workdir)]
    finally:
        got.close()


def test_another_page_never_gets_the_process_started_for_the_first(settings):
    sessions.start_ahead("es/a.md", settings)
    ahead = sessions._AHEAD["es/a.md"]
    other = sessions.session_for("es/b.md", settings)
    try:
        assert other is not ahead and other.page == "es/b.md"
        assert ahead.process.wait(5) is not None  # ended, its folder gone
        assert not ahead.workdir.exists()
    finally:
        other.close()


def test_an_unclaimed_page_is_ended(settings):
    sessions.start_ahead("es/a.md", settings)
    ahead = sessions._AHEAD["es/a.md"]
    sessions.close_ahead()
    assert ahead.process.poll() is not None and not ahead.workdir.exists()


def test_a_run_naming_one_page_runs_it_in_a_fresh_process_as_any_run(tmp_path):
    """Named alone, the page runs ahead; named with another, not: the outcomes are the same, and
    neither page sees what the other left in its process."""
    page = "# P\n\n```python\nimport os\nassert 'LEFT' not in globals()\nLEFT = 1\nprint(os.getcwd())\n```\n"
    root = write_tree(tmp_path / "site", {"docs/es/a.md": page, "docs/es/b.md": page})
    alone = run_pytest(root, "docs/es/a.md", "--no-record", env=clean_env())
    both = run_pytest(root, "docs/es/a.md", "docs/es/b.md", "--no-record", env=clean_env())
    assert alone.returncode == 0, alone.stdout[-2000:]
    assert both.returncode == 0, both.stdout[-2000:]
    assert set(outcomes(alone.stdout).values()) == {"PASSED"}
    assert len(outcomes(both.stdout)) == 2 and set(outcomes(both.stdout).values()) == {"PASSED"}


def test_only_the_page_a_run_names_is_started_ahead(tmp_path):
    """pytest looks at every file in the named page's folder: the process started while it collects
    is the named page's, not the first page of its folder's (which would be started, then ended)."""
    page = "# P\n\n```python\nprint(1)\n```\n"
    spy = ("import ruota_docs.run.process.session as s\n_start = s.start_ahead\n"
           "def start_ahead(page, *args, **kwargs):\n"
           "    with open('started.txt', 'a') as f:\n        f.write(page + '\\n')\n"
           "    return _start(page, *args, **kwargs)\n"
           "s.start_ahead = start_ahead\n")
    root = write_tree(tmp_path / "site", {"docs/es/a.md": page, "docs/es/b.md": page, "conftest.py": spy})
    done = run_pytest(root, "docs/es/b.md", "--no-record", env=clean_env())
    assert done.returncode == 0, done.stdout[-2000:]
    assert (root / "started.txt").read_text() == "es/b.md\n"


def test_blocks_run_in_the_real_main_module_so_pickling_works(session):
    """What a block defines is ``__main__.Name``, as in a script: pickle and a forked pool find it."""
    code = ("import pickle, multiprocessing, sys\n"
            "class Point:\n    def __init__(self, x):\n        self.x = x\n"
            "def double(p):\n    return p.x * 2\n"
            "print(pickle.loads(pickle.dumps(Point(3))).x, sys.modules['__main__'].Point is Point)\n"
            "with multiprocessing.get_context('fork').Pool(2) as pool:\n    print(pool.map(double, [Point(1), Point(2)]))\n")
    done = session.run_python(code, "es/p.md:3", 3, timeout=60)
    assert (done.status, done.output) == ("passed", "3 True\n[2, 4]\n"), done.error
