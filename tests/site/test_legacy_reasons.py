"""site.legacy_reasons: the English of records written before reason codes, read back into codes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ruota_docs.blocks.terms import parse
from ruota_docs.site.legacy_reasons import code_of


@pytest.mark.parametrize(("reason", "expected"), [
    ("timed out after 0.5 s", {"code": "timeout", "args": {"seconds": 0.5}}),
    ("the page's process died (SIGKILL)", {"code": "died", "args": {"ended": {"signal": "SIGKILL"}}}),
    ("the shell block ended with exit status 3",
     {"code": "shell_failed", "args": {"ended": {"exit_status": 3}, "command": None}}),
    ("not run: an earlier block at line 3 ended the page's process (timed out after 2 s)",
     {"code": "page_stopped", "args": {"cause": {"code": "page_ended", "args": {
         "line": 3, "why": {"code": "timeout", "args": {"seconds": 2.0}}}}}}),
    ("not run: instala paquetes", {"code": "not_run", "args": {"why": "instala paquetes"}}),
    ("not run: output or prose, not code", {"code": "shown_only", "args": {"kind": "text"}}),
    ("ZeroDivisionError: division by zero", None),
    ("", None),
])
def test_the_engines_old_english(reason, expected):
    assert code_of(reason) == expected


def test_a_requirement_is_read_from_the_blocks_own_terms():
    block = SimpleNamespace(requirements=parse("rocm arch=gfx906"), kind="python")
    assert code_of("requires ROCm, a gfx906 GPU; this machine: CUDA, NVIDIA H200", block)["args"]["machine"] == [
        "CUDA, NVIDIA H200"]
    windows = SimpleNamespace(requirements=(), kind="windows")
    assert code_of("requires Windows; this machine: Linux", windows) == {
        "code": "requires", "args": {"terms": ["os=windows"], "machine": ["Linux"]}}
    assert code_of("requires ROCm; this machine: CPU", SimpleNamespace(requirements=(), kind="python")) is None
