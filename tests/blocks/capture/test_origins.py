"""blocks.capture.origins: each line tagged with where it was written, through pymdownx.snippets includes."""

from __future__ import annotations

import markdown

from ruota_docs.blocks.capture import BlockCapture, Context, Origin


def render(tmp_path, text: str):
    page = tmp_path / "docs" / "p.md"
    page.parent.mkdir(exist_ok=True)
    md = markdown.Markdown(extensions=["pymdownx.superfences", "pymdownx.snippets", BlockCapture(Context(str(page)))],
                           extension_configs={"pymdownx.snippets": {"base_path": [str(tmp_path)], "check_paths": True}})
    md.convert(text)
    return md.ruota, page


def test_an_origin_is_a_string_that_knows_its_file_and_line():
    line = Origin("print(1)", "/a.py", 3, via=7)
    assert (line, line.path, line.line, line.via) == ("print(1)", "/a.py", 3, 7)


def test_included_lines_know_their_file_and_the_include_line(tmp_path):
    (tmp_path / "inc.py").write_text("a = 1\nb = 2\n", encoding="utf-8")
    state, page = render(tmp_path, '# T\n\n```python\n--8<-- "inc.py"\n```\n')
    (block,) = state.captured
    assert block.code == "a = 1\nb = 2\n"
    lines = range(block.start + 1, block.start + 3)
    assert [state.where(i) for i in lines] == [(4, f"{tmp_path / 'inc.py'}:1"), (4, f"{tmp_path / 'inc.py'}:2")]
    assert state.where(0) == (1, "")


def test_line_ranges_keep_the_files_own_line_numbers(tmp_path):
    (tmp_path / "inc.py").write_text("one\ntwo\nthree\n", encoding="utf-8")
    state, _ = render(tmp_path, '```python\n--8<-- "inc.py:2:3"\n```\n')
    (block,) = state.captured
    assert block.code == "two\nthree"
    assert [state.where(i)[1].rsplit(":", 1)[1] for i in range(block.start + 1, block.start + 3)] == ["2", "3"]


def test_a_missing_include_is_a_problem_at_the_include_line(tmp_path):
    state, _ = render(tmp_path, '# T\n\n--8<-- "nowhere.md"\n')
    assert [p.line for p in state.include_errors] == [3]
    assert "nowhere.md" in state.include_errors[0].message


def test_lines_python_markdown_only_normalised_keep_their_origins_without_a_diff(tmp_path, monkeypatch):
    """Lines of spaces emptied and tabs expanded, each in place: every line keeps its own origin (a diff of
    the page, `line_map.carry`, is for lines another preprocessor changed)."""
    from ruota_docs.blocks import line_map

    def no_diff(*args, **kwargs):
        raise AssertionError("the lines were only normalised: no diff is needed")

    monkeypatch.setattr(line_map, "carry", no_diff)
    state, page = render(tmp_path, "# T\n    \ntext\twith a tab\n   \n```python\nprint(1)\n```\n")
    (block,) = state.captured
    assert block.code == "print(1)"
    assert state.where(block.start) == (5, "")
