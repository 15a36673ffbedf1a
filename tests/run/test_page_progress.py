"""Progress page by page (``-p ruota_docs.run.page_progress``); the interrupted and resumed run that
uses it is in test_contribute.py."""

from __future__ import annotations

import re

import pytest

from _support import run_pytest, write_tree
from ruota_docs.run.page_progress import elapsed


@pytest.mark.parametrize(("seconds", "shown"), [(8.9, "8 s"), (65, "1 min 5 s"), (3725, "1 h 2 min")])
def test_elapsed_time_reads_as_minutes_and_hours(seconds, shown):
    assert elapsed(seconds) == shown


def test_each_page_says_which_of_how_many_and_when(tmp_path):
    root = write_tree(tmp_path, {f"docs/{lang}/{name}.md": f"# {name}\n\n```python\nprint('{name}')\n```\n"
                                 for lang in ("es", "en", "fr") for name in ("a", "b")})
    ran = run_pytest(root, "docs", "--no-record", "-p", "ruota_docs.run.page_progress")
    assert ran.returncode == 0, ran.stdout[-2000:]
    shown = re.findall(r"^page (\d) of 6: (\S+) \((?:\d+ min )?\d+ s so far\)$", ran.stdout, re.MULTILINE)
    assert shown == [("1", "es/a.md"), ("2", "en/a.md"), ("3", "fr/a.md"), ("4", "es/b.md"), ("5", "en/b.md"),
                     ("6", "fr/b.md")]
    assert "resuming:" not in ran.stdout  # no --reuse-record
    plain = run_pytest(root, "docs", "--no-record")
    assert "page 1 of" not in plain.stdout  # only where asked for
