"""blocks.directives: the directives in HTML comments, their options, and typos that must not pass."""

from __future__ import annotations

import pytest

from ruota_docs.blocks import directives
from ruota_docs.blocks.directives import Directive, DirectiveError


def test_every_directive_has_its_place():
    assert directives.BLOCK_DIRECTIVES == ("requires", "run", "evidence")
    assert directives.PAGE_DIRECTIVES == ("chart", "verification-status", "card-matrix")
    assert (directives.INLINE_DIRECTIVES, directives.SKIP) == (("value", "fact"), "skip")


def test_options_as_shell_words():
    assert Directive("run", 'safe timeout=60 reason="a b"', 3).options() == {"safe": True, "timeout": "60", "reason": "a b"}
    with pytest.raises(DirectiveError, match="malformed run: directive") as raised:
        Directive("run", 'reason="open', 7).options()
    assert raised.value.line == 7


@pytest.mark.parametrize(("line", "name", "args"), [
    ("<!-- requires: rocm -->", "requires", " rocm"),
    ("  > <!-- run: safe -->  ", "run", " safe"),
    ("<!-- card-matrix -->", "card-matrix", None),
])
def test_a_comment_on_a_line_of_its_own(line, name, args):
    found = directives.match_line(line)
    assert (found["name"], found["args"]) == (name, args)


def test_a_comment_inside_a_sentence_is_not_a_line_directive():
    assert directives.match_line("Text <!-- run: safe --> more") is None
    assert directives.match_line("no comment") is None


@pytest.mark.parametrize(("name", "colon", "expected"), [
    ("requires", True, "ours"), ("card-matrix", False, "ours"), ("requires", False, "typo"),
    ("requirs", True, "typo"), ("Run", True, "typo"), ("todo", True, "comment"), ("md", False, "comment"),
])
def test_classify(name, colon, expected):
    assert directives.classify(name, colon) == expected


def test_typo_messages_say_what_was_meant():
    assert directives.typo_message("requires", False) == "<!-- requires … --> needs a colon: <!-- requires: … -->"
    assert directives.typo_message("requirs", True).startswith("unknown directive 'requirs': did you mean 'requires'?")
    assert directives.suggestion("RUN") == "run"


def test_a_misspelt_fact_directive_on_a_line_of_its_own_is_a_typo():
    assert directives.classify("facts", True) == "typo" and directives.suggestion("facts") == "fact"
    assert directives.classify("fact", True) == "ours"
