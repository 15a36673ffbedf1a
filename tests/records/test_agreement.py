"""Outcomes agree with requirements (`ruota_docs.records.agreement`): decided from a record's machine alone."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from _support import CPU_DEVICE, H200
from ruota_docs.blocks.terms import parse
from ruota_docs.records import agreement

GFX1102 = dataclasses.replace(H200, backend="rocm", gpu_name="AMD Radeon RX 7600", arch="gfx1102",
                              vram_bytes=8 * 2**30, cuda=None, hip="6.4", torch="2.9.1+rocm6.4")


@pytest.mark.parametrize("written, device, unmet", [
    ("rocm arch=gfx906", GFX1102, ["arch=gfx906"]),
    ("rocm arch=gfx1102", GFX1102, []),
    ("gpu", CPU_DEVICE, ["gpu"]),
    ("os=windows", GFX1102, ["os=windows"]),
    ("vram>=16GiB", GFX1102, ["vram>=16GiB"]),
    ("torch>=2.10", GFX1102, ["torch>=2.10"]),
    ("network tool=roc-obj-ls hipcc arch=gfx906", CPU_DEVICE, []),  # facts of the run: not provable from a record
])
def test_terms_about_the_machine_are_decided_from_the_record(written, device, unmet):
    assert [str(r) for r in agreement.unmet(parse(written), device)] == unmet


def test_only_a_passed_or_failed_result_is_refused():
    block = SimpleNamespace(requirements=parse("rocm arch=gfx906"), line=7)
    assert agreement.problems({"outcome": "skipped"}, block, GFX1102) is None
    assert agreement.problems({"outcome": "failed"}, block, GFX1102).startswith(
        "failed for the block at line 7, which requires arch=gfx906, on a machine that does not meet it")


def test_a_block_written_in_an_included_markdown_file_is_named_at_that_file():
    block = SimpleNamespace(requirements=parse("rocm"), line=7, source="snippets/part.md:3")
    assert agreement.problems({"outcome": "passed"}, block, CPU_DEVICE).startswith(
        "passed for the block at snippets/part.md:3, which requires rocm,")
