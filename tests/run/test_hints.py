"""run.hints: a failure for something the machine lacks names the requirement directive that says so."""

from __future__ import annotations

from ruota_docs.run.hints import requirement_hint


def test_a_missing_module_names_its_top_level_package():
    hint = requirement_hint("Traceback …\nModuleNotFoundError: No module named 'diffusers.pipelines'")
    assert "<!-- requires: import=diffusers -->" in hint and "no module 'diffusers'" in hint


def test_an_unreachable_network_names_the_network_requirement():
    assert "<!-- requires: network -->" in requirement_hint("socket.gaierror: [Errno -3] Temporary failure in name resolution")
    assert "pytest --network" in requirement_hint("httpx.ConnectError: [Errno 111]")


def test_other_failures_have_no_hint():
    assert requirement_hint("ZeroDivisionError: division by zero") is None
    assert requirement_hint(None) is None and requirement_hint("") is None
