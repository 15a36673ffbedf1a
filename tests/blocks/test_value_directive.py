"""blocks.value_directive: the <!-- value: … --> directive, read and refused."""

from __future__ import annotations

import re

import pytest

from ruota_docs.blocks import value_directive


@pytest.mark.parametrize(("args", "message"), [
    ("block=b", "value: needs metric="),
    ("metric=m", "value: needs block="),
    ("block=b metric=m colour=red", "value: takes block=, metric=, unit=, digits=, machine=, alike= (got 'colour=red')"),
    ("block=b metric=m digits=two", "value: digits= must be a whole number (got 'two')"),
    ("block=b metric=m machine=tpu", "value: machine= is gpu or cpu (got 'tpu')"),
])
def test_malformed_directives(args, message):
    with pytest.raises(value_directive.ValueDirectiveError, match=re.escape(message)):
        value_directive.parse(args)


def test_which_machine_a_sentence_gives_first():
    assert value_directive.parse("block=b metric=m machine=gpu").machine == "gpu"
    assert value_directive.parse("block=b metric=m").machine == ""
