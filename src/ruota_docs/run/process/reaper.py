"""A shell block's first process outside the sandbox: what the block leaves running ends with it.

In the sandbox, a shell block's PID namespace ends everything it started. Without it (the
fallback), a daemon that leaves the block's process group and session and empties its
environment (``setsid env -i sleep 600 &``) is found by neither, and outlived the page. So there
the session starts a shell block as ``python -m ruota_docs.run.process.reaper bash …``: a
subreaper (Linux ``PR_SET_CHILD_SUBREAPER``), so such a daemon stays its descendant, and that
ends with the test run (``PR_SET_PDEATHSIG``); when bash exits, it kills every descendant left
and exits as bash did. Where the block times out, the session kills its descendants itself.

It imports nothing of the engine: it starts once per shell block.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable


def descendants(pid: int) -> list[int]:
    """Live descendants of ``pid`` (Linux ``/proc``; [] elsewhere). Outside the sandbox, the
    page's process (and this reaper) is a subreaper, so a daemon a block started stays among
    them whatever its environment or session."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                ppid = int(handle.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), ()):
            found.append(child)
            stack.append(child)
    return found


def kill_repeatedly(find: Callable[[], list[int]], rounds: int, pause: float = 0.0) -> list[int]:
    """SIGKILL every process ``find`` gives, again while new ones appear (a process forking
    meanwhile), at most ``rounds`` times, ``pause`` seconds apart; the processes killed."""
    killed: list[int] = []
    for _ in range(rounds):
        found = [p for p in find() if p not in killed]
        if not found:
            break
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(pause)
    return killed


def kill_descendants(pid: int) -> list[int]:
    """SIGKILL every descendant of ``pid``, again while new ones appear."""
    return kill_repeatedly(lambda: descendants(pid), rounds=5)


def reap(seconds: float = 2.0) -> None:
    """Wait for every child left (those `kill_descendants` killed, reparented here), ``seconds`` at
    most: one it could not kill (another user's) is left to the session."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                time.sleep(0.005)
        except ChildProcessError:
            return


def _become_subreaper() -> None:
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # noqa: PLC0415

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG: ends with the test run
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def main(argv: list[str]) -> int:
    _become_subreaper()
    try:
        child = subprocess.Popen(argv)
    except OSError as error:
        print(f"ruota-docs: cannot start {argv[0]}: {error.strerror}", file=sys.stderr)
        return 127
    code = child.wait()
    kill_descendants(os.getpid())
    reap()
    if code < 0:  # ended by a signal: end by it too, so the session names it as it did bash's
        with contextlib.suppress(OSError, ValueError):  # SIGKILL and SIGSTOP keep theirs anyway
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
