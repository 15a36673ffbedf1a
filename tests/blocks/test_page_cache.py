"""What the build keeps of each page's rendering (ruota_docs.blocks.page_cache), and when it stops holding."""

from __future__ import annotations

import os

import pytest

from ruota_docs.blocks import page_cache


@pytest.fixture(autouse=True)
def empty_cache():
    page_cache.clear()
    yield
    page_cache.clear()


def touch(path, when_ns: int) -> None:
    os.utime(path, ns=(when_ns, when_ns))


def test_blocks_hold_until_the_page_or_an_include_changes(tmp_path):
    page, snippet, other = tmp_path / "page.md", tmp_path / "s.py", tmp_path / "other.py"
    for path in (page, snippet, other):
        path.write_text("x\n", encoding="utf-8")
        touch(path, 1_000_000_000)
    assert page_cache.blocks(page) is None and page_cache.last(page) is None
    page_cache.remember(page, ["block 0", "block 1"], [snippet])
    assert page_cache.blocks(page) == ["block 0", "block 1"] and page_cache.last(page) is not None
    touch(other, 2_000_000_000)  # not included: nothing changes
    assert page_cache.blocks(page) == ["block 0", "block 1"]
    touch(snippet, 2_000_000_000)
    assert page_cache.blocks(page) is None
    page_cache.remember(page, ["block 0"], [snippet])
    touch(page, 3_000_000_000)
    assert page_cache.blocks(page) is None
    assert page_cache.last(page).blocks == ("block 0",)  # its last rendering, whatever changed since


def test_a_deleted_include_ends_the_entry(tmp_path):
    page, snippet = tmp_path / "page.md", tmp_path / "s.py"
    page.write_text("x\n", encoding="utf-8")
    snippet.write_text("y\n", encoding="utf-8")
    page_cache.remember(page, [], [snippet])
    snippet.unlink()
    assert page_cache.blocks(page) is None


def test_pages_including_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # pymdownx.snippets opens includes relative to the current directory
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets").mkdir()
    a, b = tmp_path / "docs" / "a.md", tmp_path / "docs" / "b.md"
    shared, own = tmp_path / "snippets" / "shared.py", tmp_path / "snippets" / "own.py"
    for path in (a, b, shared, own):
        path.write_text("x\n", encoding="utf-8")
    page_cache.remember(a, [], ["snippets/shared.py", "snippets/own.py"])
    page_cache.remember(b, [], [shared])
    assert page_cache.including([shared]) == {a, b}
    assert page_cache.including(["snippets/own.py"]) == {a}
    assert page_cache.including([a]) == set()  # a page does not include itself


def test_pages_that_list_their_language(tmp_path):
    for lang in ("es", "fr"):
        (tmp_path / lang).mkdir()
        for name in ("status.md", "guide.md"):
            (tmp_path / lang / name).write_text("x\n", encoding="utf-8")
            page_cache.remember(tmp_path / lang / name, [], lists_pages=name == "status.md")
    assert page_cache.listing(tmp_path / "es") == {tmp_path / "es" / "status.md"}
    assert page_cache.listing(tmp_path / "e") == set()  # a folder, not a prefix of names
