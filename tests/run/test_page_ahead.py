"""run.page_ahead: the next page's process, started while the page before it runs."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest
from _support import clean_env, outcomes, run_pytest, write_tree

from ruota_docs.run import page_ahead
from ruota_docs.run.process import session as sessions
from ruota_docs.run.settings import from_environment


def _item(page: str, index: int, runs: bool = True, signature: str = "", **options):
    block = SimpleNamespace(page=page, index=index, signature=signature or f"sig-{page}", options=options,
                            variant=False)
    evaluator = SimpleNamespace(would_execute=lambda b, network: runs)
    document = SimpleNamespace(examples=lambda: [])
    return SimpleNamespace(example=SimpleNamespace(parsed=block, region=SimpleNamespace(evaluator=evaluator),
                                                   document=document))


def _run(items, **settings):
    pages = page_ahead.pages_in_order(items, lambda item: item.example.parsed)
    return SimpleNamespace(pages=pages, settings=dataclasses.replace(from_environment(), **settings))


@pytest.fixture
def started(monkeypatch):
    """The pages `start_ahead` was asked for, with what their sandbox needs (no process is started)."""
    calls = []
    monkeypatch.setattr(sessions, "start_ahead", lambda page, settings, network=False, names=(): calls.append(
        (page, network, names)))
    monkeypatch.delenv("RUOTA_DOCS_NO_SPEEDUPS", raising=False)
    return calls


def test_the_pages_are_taken_in_the_runs_order():
    items = [_item("es/a.md", 0), _item("es/a.md", 1), _item("en/a.md", 0), _item("es/b.md", 0)]
    pages = page_ahead.pages_in_order([*items, SimpleNamespace()], lambda i: getattr(i, "example", None)
                                      and i.example.parsed)
    assert [(page, len(got)) for page, got in pages] == [("es/a.md", 2), ("en/a.md", 1), ("es/b.md", 1)]


def test_the_next_page_that_runs_code_is_started(started):
    run = _run([_item("es/a.md", 0), _item("es/b.md", 0, runs=False), _item("es/c.md", 0)])
    page_ahead.start_next(run, "es/a.md")
    assert started == [("es/c.md", False, ())]  # b's blocks all skip: it needs no process


def test_the_last_page_starts_nothing(started):
    run = _run([_item("es/a.md", 0), _item("es/b.md", 0)])
    page_ahead.start_next(run, "es/b.md")
    assert started == []


def test_a_translation_credited_with_its_source_is_passed_over(started):
    items = [_item("es/a.md", 0, signature="same"), _item("fr/a.md", 0, signature="same"), _item("es/b.md", 0)]
    page_ahead.start_next(_run(items, reuse_translations=True), "es/a.md")
    page_ahead.start_next(_run(items, reuse_translations=False), "es/a.md")
    assert started == [("es/b.md", False, ()), ("fr/a.md", False, ())]


def test_blocks_run_in_processes_of_their_own_start_no_page(started):
    run = _run([_item("es/a.md", 0), _item("es/b.md", 0)], block_isolation=True)
    page_ahead.start_next(run, "es/a.md")
    run = _run([_item("es/a.md", 0), _item("es/b.md", 0, isolate=True)])
    page_ahead.start_next(run, "es/a.md")
    assert started == []


def test_switched_off_it_starts_nothing(started, monkeypatch):
    monkeypatch.setenv("RUOTA_DOCS_NO_SPEEDUPS", "page_ahead")
    page_ahead.start_next(_run([_item("es/a.md", 0), _item("es/b.md", 0)]), "es/a.md")
    assert started == []


PAGE = """\
# {name}

```python
import os
assert "LEFT" not in globals(), "another page's process"
LEFT = "{name}"
print(os.environ["RUOTA_DOCS_PAGE"], os.getcwd())
```

```python
print(LEFT)
```
"""


@pytest.mark.parametrize("off", ["", "page_ahead"])
def test_each_page_runs_in_a_fresh_process_of_its_own_with_it_on_or_off(tmp_path, off):
    """Three pages, one with nothing to run: every block passes, each page in a process no other page
    used (its namespace empty at its first block), whether the next page's process starts ahead or not."""
    pages = {f"docs/es/{name}.md": PAGE.format(name=name) for name in ("a", "c")}
    pages["docs/es/b.md"] = "# b\n\nNo code here.\n"
    root = write_tree(tmp_path / "site", pages)
    done = run_pytest(root, "docs", "--no-record", env=clean_env(RUOTA_DOCS_NO_SPEEDUPS=off))
    assert done.returncode == 0, done.stdout[-3000:]
    assert outcomes(done.stdout) == {("es/a.md", 3): "PASSED", ("es/a.md", 10): "PASSED",
                                     ("es/c.md", 3): "PASSED", ("es/c.md", 10): "PASSED"}


def test_a_fault_of_the_machine_is_left_to_the_next_page_to_meet(monkeypatch):
    def full(*args, **kwargs):
        raise sessions.MachineFault("no space left")
    monkeypatch.setattr(sessions, "start_ahead", full)
    monkeypatch.delenv("RUOTA_DOCS_NO_SPEEDUPS", raising=False)
    page_ahead.start_next(_run([_item("es/a.md", 0), _item("es/b.md", 0)]), "es/a.md")  # raises nothing
