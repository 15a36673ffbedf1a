"""The reason codes records carry: one vocabulary, its English, and its checks."""

from __future__ import annotations

import pytest

from ruota_docs.records import reason_codes
from ruota_docs.records.reason_codes import Reason, ReasonCodeError, reason

DIED = {"code": "died", "args": {"ended": {"signal": "SIGKILL"}}}
#: One example of every code, with the English the engine has always written for it.
SAMPLES = {
    "requires": ({"terms": ["rocm", "arch=gfx906", "vram>=8GiB"], "machine": ["CUDA, NVIDIA H200 (sm_90, 140 GiB)"]},
                 "requires ROCm, arch gfx906, ≥ 8GiB of VRAM; this machine: CUDA, NVIDIA H200 (sm_90, 140 GiB)"),
    "not_run": ({"why": "installs packages"}, "not run: installs packages"),
    "shown_only": ({"kind": "text"}, "not run: output or prose, not code"),
    "page_stopped": ({"cause": {"code": "page_ended", "args": {"line": 12, "why": DIED}}},
                     "not run: an earlier block at line 12 ended the page's process (the page's process died (SIGKILL))"),
    "page_ended": ({"line": 3, "why": {"code": "timeout", "args": {"seconds": 2.0}}},
                   "an earlier block at line 3 ended the page's process (timed out after 2 s)"),
    "cannot_start": ({"detail": "no memory"}, "the page's process cannot start (no memory)"),
    "cannot_start_as_user": ({}, "the page's process cannot start as the unprivileged user"),
    "timeout": ({"seconds": 0.5}, "timed out after 0.5 s"),
    "died": ({"ended": {"signal": 99}}, "the page's process died (signal 99)"),
    "shell_failed": ({"ended": {"exit_status": 3}, "command": "false"}, "the shell block ended with exit status 3 at `false`"),
    "raised": ({"message": "ZeroDivisionError: division by zero"}, "ZeroDivisionError: division by zero"),
    "problem": ({"message": "unknown directive 'x'"}, "unknown directive 'x'"),
    "repository_changed": ({"files": ["docs/x (created)"], "records": [], "notes": [], "also": {"code": "raised",
                            "args": {"message": "OSError: no"}}},
                           "OSError: no; it also wrote into the repository instead of its working directory: docs/x "
                           "(created) (write relative to the current directory, a temporary folder; if another program "
                           "changed these files meanwhile, run the page again)"),
    "output_differs": ({"at": "snippets/a.py:3"},
                       "its output differs from its #> lines (first at snippets/a.py:3; pytest --update-outputs rewrites them)"),
    "outputs_not_updated": ({"at": None, "error": "no"}, "its #> lines cannot be updated: no"),
    "outputs_updated": ({}, "#> lines updated from this run"),
    "data_invalid": ({"format": "json", "error": "Expecting value"}, "invalid json: Expecting value"),
    "data_valid": ({"format": "yaml"}, "valid yaml"),
}


def test_every_code_has_an_example():
    assert set(SAMPLES) == set(reason_codes.CODES)


@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_each_code_says_its_english_and_fits_its_table(code):
    args, english = SAMPLES[code]
    made = reason(code, **args)
    assert made.english() == english
    assert reason_codes.problems(made.to_record()) == []
    assert Reason.from_record(made.to_record()) == made


def test_how_a_process_ended():
    assert reason_codes.ended(3) == {"exit_status": 3}
    assert reason_codes.ended(-9) == {"signal": "SIGKILL"}
    assert reason_codes.ended(-99) == {"signal": 99}


def test_a_code_that_does_not_fit_is_refused_where_it_is_made():
    with pytest.raises(ReasonCodeError, match="timeout needs 'seconds'"):
        reason("timeout")
    with pytest.raises(ReasonCodeError, match="'because' is not a reason code"):
        Reason.from_record({"code": "because", "args": {}})
    with pytest.raises(ReasonCodeError, match="must be one of text, indented"):
        reason("shown_only", kind="python")
