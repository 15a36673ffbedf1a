"""``status.compute``: what ``ruota-docs status`` prints, as data (its printing is in test_cli.py)."""

from __future__ import annotations

from _support import write_tree
from test_cli import ALL, CODES, ledger_file, tree  # noqa: F401 — the fixture is used by name

from ruota_docs import status


def test_compute_counts_per_machine_and_names_the_lines(tree):  # noqa: F811
    ledger_file(tree / "verification" / "cpu-x86_64.json", "cpu-x86_64",
                [(0, "passed", CODES[0]), (1, "failed", CODES[1]), (2, "skipped", CODES[2]), (3, "skipped", CODES[3])], ALL)
    ledger_file(tree / "verification" / "rocm-gfx906.json", "rocm-gfx906", [(0, "passed", CODES[0])], ("es/gone.md",))
    report = status.compute(tree, tree / "docs", ["es", "en", "fr"], "verification")
    assert report.machines == ["cpu-x86_64", "rocm-gfx906"]
    es = next(p for p in report.pages if p.page == "es/p.md")
    assert (es.blocks, es.error, es.stale) == (4, None, [])
    assert dict(es.per_machine["cpu-x86_64"]) == {"passed": 1, "failed": 1, "skipped": 2}
    assert es.weak == [7, 12]  # failed here; skipped here and run nowhere else
    assert report.gone == [("es/gone.md", "rocm-gfx906", 1)]
    assert report.weak == 6 and report.unreadable == 0 and report.values_missing == 0


def test_an_unreadable_page_is_reported_not_raised(tree):  # noqa: F811
    (tree / "docs" / "es" / "bad.md").write_bytes(b"\xff\xfe not utf-8")
    report = status.compute(tree, tree / "docs", ["es"], "verification")
    bad = next(p for p in report.pages if p.page == "es/bad.md")
    assert bad.error is not None and report.unreadable == 1


def test_a_block_written_in_an_included_markdown_file_is_named_at_that_file(tmp_path):
    root = write_tree(tmp_path, {"docs/es/p.md": '# P\n\n```python\nx = 1\n```\n\n--8<-- "part.md"\n',
                                 "snippets/part.md": "Text.\n\n```python\ny = 2\n```\n"}, conftest=False)
    page, = status.compute(root, root / "docs", ["es"], "verification").pages
    assert page.weak == [3, "snippets/part.md:3"]
