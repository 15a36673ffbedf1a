"""run.render_ahead: the page a one-page run names, rendered in a forked child."""

from __future__ import annotations

import json
import os
import threading
import warnings

import pytest
from _support import clean_env, outcomes, run_pytest, write_tree

from ruota_docs.blocks import renderer
from ruota_docs.run import render_ahead

PAGE = """\
# Page { #page }

<!-- id=first -->
```python
print("one")
```

Some text.

<!-- run: safe -->
```bash
echo two
```
"""


@pytest.fixture
def site(tmp_path, monkeypatch):
    # under xdist, execnet's thread runs in this process and `start` rightly declines to fork; the
    # child of these tests renders and nothing else, which that thread cannot disturb
    monkeypatch.setattr(render_ahead.threading, "active_count", lambda: 1)
    return write_tree(tmp_path / "site", {"docs/es/page.md": PAGE, "docs/en/page.md": PAGE})


def _shape(blocks) -> list[tuple]:
    return [(b.page, b.index, b.line, b.kind, b.code, b.options, b.signature) for b in blocks]


def test_the_child_renders_the_page_as_the_collector_would(site):
    page = site / "docs" / "es" / "page.md"
    assert render_ahead.start(page)
    taken = render_ahead.take(page, page.read_text(encoding="utf-8"), site / "docs")
    assert taken is not None
    here = renderer.render(site, page, page.read_text(encoding="utf-8"), site / "docs", fast=True)
    assert _shape(taken.blocks) == _shape(here.blocks) and len(here.blocks) == 2
    assert taken.problems == here.problems == []


def test_a_page_changed_since_the_child_read_it_is_rendered_again(site):
    page = site / "docs" / "es" / "page.md"
    assert render_ahead.start(page)
    assert render_ahead.take(page, PAGE + "\nmore\n", site / "docs") is None


def test_another_docs_folder_or_page_is_not_answered_from_the_child(site):
    page = site / "docs" / "es" / "page.md"
    assert render_ahead.start(page)
    assert render_ahead.take(page, PAGE, site / "elsewhere") is None
    assert render_ahead.start(page)
    assert render_ahead.take(site / "docs" / "en" / "page.md", PAGE, site / "docs") is None
    assert render_ahead._AHEAD  # still waiting for its own page: ended by discard
    render_ahead.discard()
    assert not render_ahead._AHEAD


def test_a_file_of_no_site_gets_no_answer(tmp_path, monkeypatch):
    monkeypatch.setattr(render_ahead.threading, "active_count", lambda: 1)  # see `site`
    page = tmp_path / "loose.md"
    page.write_text(PAGE, encoding="utf-8")
    assert render_ahead.start(page)
    assert render_ahead.take(page, PAGE, tmp_path) is None


def test_what_the_child_prints_is_printed_by_the_collector(site, capfd, monkeypatch):
    page = site / "docs" / "es" / "page.md"
    real = render_ahead.render

    def noisy(*args):
        print("printed by an extension")
        os.write(2, b"written to its file descriptor\n")
        warnings.warn("an extension's warning", UserWarning, stacklevel=1)
        return real(*args)

    monkeypatch.setattr(render_ahead, "render", noisy)
    assert render_ahead.start(page)
    with pytest.warns(UserWarning, match="an extension's warning"):
        assert render_ahead.take(page, PAGE, site / "docs") is not None
    printed = capfd.readouterr()
    assert "printed by an extension\n" in printed.err and "written to its file descriptor\n" in printed.err
    assert printed.out == ""


def test_no_child_is_forked_while_threads_run(site, monkeypatch):
    monkeypatch.undo()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not render_ahead.start(site / "docs" / "es" / "page.md")
    finally:
        stop.set()
        thread.join()


WATCH = """
import json, sys

def pytest_collection_finish(session):
    with open("loaded.json", "w") as out:
        json.dump(sorted(m for m in sys.modules if m.split(".")[0] in ("markdown", "pymdownx")
                         or m == "ruota_docs.run.outputs"), out)
"""


def test_a_run_of_one_page_collects_it_from_the_child(site):
    """The run's own process never imports Python-Markdown: the page it runs was rendered in the child
    (nor the ``#>`` checker: none of its blocks has such lines). The site's plugin options were read by
    an earlier run, as in every run but the first after they change: that one validates them with
    MkDocs' own option classes (`ruota_docs.blocks.plugin_config`), which import Python-Markdown."""
    (site / "conftest.py").write_text(WATCH, encoding="utf-8")
    env = clean_env(XDG_CACHE_HOME=str(site.parent / "cache"))  # what the first run keeps, the second finds
    both = run_pytest(site, "docs/es/page.md", "docs/en/page.md", "--no-record", env=env)
    assert both.returncode == 0, both.stdout + both.stderr  # two pages: rendered here, as always
    assert json.loads((site / "loaded.json").read_text(encoding="utf-8")) != []
    done = run_pytest(site, "docs/es/page.md", "--no-record", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert outcomes(done.stdout) == {("es/page.md", 4): "PASSED", ("es/page.md", 11): "PASSED"}
    assert json.loads((site / "loaded.json").read_text(encoding="utf-8")) == []


def test_switched_off_no_child_is_forked_and_the_run_collects_the_same(site, monkeypatch):
    monkeypatch.setenv("RUOTA_DOCS_NO_SPEEDUPS", "render_ahead")
    assert not render_ahead.start(site / "docs" / "es" / "page.md")
    (site / "conftest.py").write_text(WATCH, encoding="utf-8")
    done = run_pytest(site, "docs/es/page.md", "--no-record", env=clean_env(RUOTA_DOCS_NO_SPEEDUPS="render_ahead"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert outcomes(done.stdout) == {("es/page.md", 4): "PASSED", ("es/page.md", 11): "PASSED"}
    assert json.loads((site / "loaded.json").read_text(encoding="utf-8")) != []  # rendered in the run's own process
