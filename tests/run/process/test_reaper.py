"""A shell block's first process outside the sandbox: it exits as bash did, and nothing it left runs on."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def running(*argv: str) -> list[int]:
    """Live processes (not zombies) whose command line is ``argv``."""
    wanted, found = "\0".join(argv).encode() + b"\0", []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            if Path(f"/proc/{name}/cmdline").read_bytes() == wanted and \
                    Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                found.append(int(name))
        except (OSError, IndexError):
            continue
    return found


def reap(script: str) -> int:
    return subprocess.run([sys.executable, "-P", "-m", "ruota_docs.run.process.reaper", "bash", "-c", script],
                          timeout=30).returncode


def test_what_the_shell_left_running_ends_with_it():
    # out of the process group, the session, and the environment: a subreaper keeps it a descendant
    code = reap("setsid env -i sleep 681 >/dev/null 2>&1 </dev/null & (setsid sh -c 'sleep 682 &' &); sleep 0.2; "
                "exit 3")
    assert code == 3
    deadline = time.time() + 3
    while (running("sleep", "681") or running("sleep", "682")) and time.time() < deadline:
        time.sleep(0.05)
    assert running("sleep", "681") == [] and running("sleep", "682") == []


def test_a_shell_ended_by_a_signal_ends_the_reaper_by_it():
    assert reap("kill -TERM $$") == -15
    assert reap("exit 0") == 0
