"""run.process.session: one fresh process per page, its blocks sent one at a time, timeouts enforced."""

from __future__ import annotations

import pytest

from ruota_docs.run.process.session import PageSession


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
