"""Fixtures of the site's tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ruota_docs.records import reason_codes
from ruota_docs.run.guard import repository_note
from ruota_docs.run.process.session import PageSession

sys.path.insert(0, str(Path(__file__).parent))  # cardsite, beside this file (--import-mode=importlib)

from cardsite import make_project


@pytest.fixture(scope="module")
def engine_messages():
    """What the engine really records when a block times out, kills its process or a shell fails:
    each reason's English, and its code under ``code:NAME``."""
    said = {}

    def keep(name: str, outcome) -> None:
        said[name], said[f"code:{name}"] = outcome.reason, outcome.code.to_record()

    session = PageSession("es/p.md")
    try:
        keep("timeout", session.run_python("import time\ntime.sleep(30)\n", "es/p.md:3", 3, timeout=0.5))
        keep("dead", session.run_python("print(1)\n", "es/p.md:9", 9, timeout=5))
    finally:
        session.close()
    session = PageSession("es/p.md")
    try:
        keep("killed", session.run_python("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", "es/p.md:3", 3, timeout=20))
    finally:
        session.close()
    session = PageSession("es/p.md")
    try:
        keep("shell", session.run_shell("exit 3", timeout=20))
    finally:
        session.close()
    said["wrote"] = repository_note(["docs/es/x.md (created)"])
    said["code:wrote"] = reason_codes.reason("repository_changed", files=["docs/es/x.md (created)"], records=[], notes=[],
                                             also=None).to_record()
    return said


@pytest.fixture
def project(tmp_path):
    """The card matrix's throwaway site (cardsite)."""
    return make_project(tmp_path)


@pytest.fixture(autouse=True)
def guide_cards():
    """The repository's guides and their cards (its mkdocs.yml's ``guide_cards``), as a build of it
    sets them, for the tests that render a guide's panels and values without a build."""
    from _support import repo_plugin_options
    from ruota_docs.site import evidence, groups

    options = repo_plugin_options()
    groups.use_guide_targets(evidence.guide_targets(options["guide_cards"],
                                                    evidence.target_cards(options["target_cards"])))
    yield
    groups.use_guide_targets({})
