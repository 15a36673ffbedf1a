"""What a block's code states it prints (`ruota_docs.blocks.expected_output`); the run's comparison and
rewriting of ``#>`` lines are tested in tests/run/test_outputs.py."""

from __future__ import annotations

from ruota_docs.blocks.expected_output import expected, missing_from

CODE = 'print("gfx906" in targets)\n#> True\nprint(f"device: {name}")\n#> device: ...\n'


def test_a_recorded_output_holds_the_stated_lines_in_order_among_others():
    lines = expected(CODE)
    assert missing_from(lines, "True\ndevice: AMD Radeon VII\n") is None
    # stderr is recorded with stdout: a warning between the stated lines is no difference
    assert missing_from(lines, "True\nUserWarning: TF32 disabled\ndevice: AMD Radeon VII\n") is None


def test_a_stated_line_missing_or_out_of_order_is_named():
    lines = expected(CODE)
    assert missing_from(lines, "False\ndevice: AMD Radeon VII\n").text == "True"
    assert missing_from(lines, "device: AMD Radeon VII\nTrue\n").text == "device: ..."
    assert missing_from(lines, "").index == 1  # the line in the code that states it


def test_a_line_stated_in_a_function_may_be_printed_when_the_function_is_called():
    """pydantic's dataclasses page: ``__post_init__`` prints before the validator written above it."""
    code = ("class User:\n    def after(self):\n        print('Third')\n        #> Third\n\n"
            "    def __post_init__(self):\n        print('Second')\n        #> Second\n\n"
            "print('Last')\n#> Last\n")
    assert missing_from(expected(code), "Second\nThird\nLast\n") is None
    assert missing_from(expected(code), "Third\nLast\n").text == "Second"
    assert missing_from(expected(code), "Second\nThird\n").text == "Last"


def test_triple_quoted_outputs_are_not_compared_with_a_record():
    code = 'print(data)\n"""\n{\'a\': 1,\n \'b\': 2}\n"""\n'
    assert expected(code) and all(e.loose for e in expected(code))
    assert missing_from(expected(code), "{'a': 1, 'b': 2}\n") is None
