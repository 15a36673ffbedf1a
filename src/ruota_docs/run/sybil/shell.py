"""The evaluators of shell blocks: bash in the page's working directory, and Windows blocks."""

from __future__ import annotations

from ruota_docs.blocks import terms
from ruota_docs.blocks.block import Block
from ruota_docs.records.reason_codes import Reason, reason
from ruota_docs.run.device import os_name
from ruota_docs.run.process.session import Outcome, PageSession
from ruota_docs.run.run_state import RunState
from ruota_docs.run.sybil.evaluators import ExecutingEvaluator


def shell_script(block: Block) -> str:
    """``console`` blocks show prompts: only the lines after ``$ `` are commands."""
    if block.fence_language.lower() not in ("console", "shell-session"):
        return block.code
    return "\n".join(line[2:] for line in block.code.splitlines() if line.startswith("$ "))


class ShellEvaluator(ExecutingEvaluator):
    """``bash``, ``sh``, ``console`` blocks: one bash process each, ``set -euo pipefail``."""

    def execute(self, session: PageSession, block: Block, timeout: float, run: RunState, page_path: str) -> Outcome:
        network = run.settings.network and any(r.name == "network" for r in block.requirements)
        return session.run_shell(shell_script(block), timeout, block.line, network)


class WindowsEvaluator(ShellEvaluator):
    """``powershell``, ``bat`` blocks: run only on Windows; elsewhere skipped, naming this machine's system."""

    def unmet(self, block: Block, network: bool) -> Reason | None:
        if os_name() != "windows":
            return reason("requires", terms=["os=windows"], machine=[terms.OS_LABELS.get(os_name(), os_name())])
        return super().unmet(block, network)
