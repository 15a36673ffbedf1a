"""blocks.line_map: line origins carried across a preprocessor the engine does not know."""

from __future__ import annotations

from ruota_docs.blocks.line_map import carry

BEFORE = ["# T", "{* inc.md *}", "end"]
ORIGINS = [("p.md", 1, ()), ("p.md", 2, ()), ("p.md", 3, ())]


def test_unchanged_lines_keep_their_origin():
    assert carry(BEFORE, ORIGINS, list(BEFORE)) == (ORIGINS, set())


def test_an_expansion_takes_the_origin_of_the_line_it_replaces():
    after = ["# T", "included 1", "included 2", "end"]
    origins, brought = carry(BEFORE, ORIGINS, after)
    assert origins == [ORIGINS[0], ORIGINS[1], ORIGINS[1], ORIGINS[2]]
    assert brought == {1, 2}


def test_generated_lines_take_the_line_above_and_a_line_changed_in_place_keeps_its_own():
    origins, brought = carry(BEFORE, ORIGINS, ["# T", "{* inc.md *}", "generated", "end"])
    assert origins[2] == ("p.md", 2, ()) and brought == {2}  # the line above: the directive
    origins, brought = carry(BEFORE, ORIGINS, ["# T!", "{* inc.md *}", "end"])
    assert origins == ORIGINS and brought == set()


def test_lines_an_extension_brought_in_before_stay_brought_in():
    _, brought = carry(BEFORE, ORIGINS, list(BEFORE), brought_before={1})
    assert brought == {1}


def test_an_include_on_the_files_last_line_points_at_it_not_past_the_end():
    """Python-Markdown appends two blank lines to every page: an expansion that starts with blank
    lines matches them, and its code would be placed on a line past the file's end."""
    before = ["# T", "", "Text.", "", "{* a.py *}", "", ""]
    after = ["# T", "", "Text.", "", "", "", "```python", "print('included')", "```", "", "", "", ""]
    origins = [("p.md", n + 1, None) for n in range(len(before))]
    carried, brought = carry(before, origins, after)
    assert carried[6] == ("p.md", 5, None) and 6 in brought
    assert max(o[1] for o in carried if o) <= len(before)
