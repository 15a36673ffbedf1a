"""blocks.tiers: the evidence a block declares (<!-- evidence: … -->) and the tier its result reaches."""

from __future__ import annotations

import pytest

from ruota_docs.blocks import terms, tiers
from ruota_docs.blocks.directives import Directive, DirectiveError


def parse(args: str, requires: str | None = None) -> tiers.Evidence:
    return tiers.parse(Directive("evidence", args, 7), terms.parse(requires) if requires else ())


def test_compiled_names_its_targets_and_needs_no_card():
    assert parse("compiled arch=gfx1102,gfx906") == tiers.Evidence("compiled", ("gfx1102", "gfx906"))
    assert parse("compiled arch=gfx1102", "import=triton").targets == ("gfx1102",)


def test_checked_needs_a_gpu_requirement():
    assert parse("checked", "gpu import=triton") == tiers.Evidence("checked")
    assert parse("checked", "rocm arch=gfx906").tier == "checked"
    with pytest.raises(DirectiveError, match=r"reached only on a card: the block needs a requirement <!-- requires: gpu -->"):
        parse("checked", "import=triton")


@pytest.mark.parametrize("args, message", [
    ("passed", r"names one tier of compiled, ran, checked \(got passed\)"),
    ("compiled checked arch=gfx906", r"names one tier of compiled, ran, checked \(got compiled, checked\)"),
    ("", r"\(got nothing\)"),
    ("compiled", r"compiled names the gfx targets .* \(got None\)"),
    ("compiled arch=gfx906:xnack-", r"without features"),
    ("compiled arch=906", r"\(got '906'\)"),
    ("compiled arch=gfx906 colour=red", r"unknown evidence: option 'colour'"),
    ("checked arch=gfx906", r"the target of the machine that ran it: write no arch="),
    ("ran", r"evidence: ran needs no directive"),
])
def test_malformed_directives_are_errors_naming_the_line(args, message):
    with pytest.raises(DirectiveError, match=message) as raised:
        parse(args, "gpu")
    assert raised.value.line == 7


@pytest.mark.parametrize("evidence, requires, outcome, tier", [
    (tiers.Evidence("compiled", ("gfx1102",)), None, "passed", "compiled"),
    (tiers.Evidence("compiled", ("gfx1102",)), None, "failed", None),
    (tiers.Evidence("compiled", ("gfx1102",)), None, "skipped", None),
    (None, "rocm arch=gfx906", "passed", "ran"),
    (None, "cuda", "passed", "ran"),
    (None, "gpu", "error", None),
    (tiers.Evidence("checked"), "gpu", "passed", "checked"),
    (tiers.Evidence("checked"), "gpu", "failed", None),
    (None, "hipcc arch=gfx906", "passed", None),  # a compiler is no card
    (None, None, "passed", None),
])
def test_the_tier_a_result_reaches(evidence, requires, outcome, tier):
    assert tiers.derive(evidence, terms.parse(requires) if requires else (), outcome) == tier
