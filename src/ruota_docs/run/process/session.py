"""One page's process, seen from the test run.

A :class:`PageSession` starts a fresh Python process for a page, sends it the
page's blocks one at a time, enforces each block's timeout and reads what the
block printed. A crash or hang ends that process and is reported as the block's
failure, with the signal or the timeout named; the blocks after it are not run.

Every process the page starts carries the session's token in its environment
(``RUOTA_DOCS_SESSION``), so when the page ends, or its process is killed, whatever
it left running is found and killed too — also children that left the process group
(``start_new_session=True``, ``setsid``, daemons that fork twice).

When the suite runs as root, the page's processes run as an unprivileged user
(:mod:`ruota_docs.run.unprivileged`), with HOME in the page's folder; the parent stays
root, so it can still kill them and read what they printed.
"""

from __future__ import annotations

import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ruota_docs.records.reason_codes import Reason, ended, reason
from ruota_docs.records.schema import OUTPUT_LIMIT
from ruota_docs.run.settings import Settings, from_environment
from ruota_docs.run.unprivileged import RunnerError, page_user
from ruota_docs.run.process.worker import MemoryLimitError, memory_limit, receive, send

if TYPE_CHECKING:
    from ruota_docs.run.run_state import OutputUpdate
#: Environment variable naming the page session that started a process.
SESSION_VARIABLE = "RUOTA_DOCS_SESSION"


@dataclass
class Outcome:
    """What happened to one block."""

    status: str  #: "passed", "failed" or "skipped"
    output: str = ""
    duration: float = 0.0
    reason: str | None = None  #: skip reason, or the failure's summary: the English of ``code``
    error: str | None = None  #: traceback or report
    printed: list | None = None  #: for a block with ``#>`` lines: ``[(statement line, text), …]`` it wrote to stdout
    as_root: bool | None = None  #: whether the block's code ran as root; None where none ran
    code: Reason | None = None  #: the reason as a code with arguments (:mod:`ruota_docs.records.reason_codes`)
    #: ``--reuse-record`` and credited translations: the page whose run this is, and when it ran
    reused_from: str | None = None
    ran_at: str | None = None
    #: ``--update-outputs``: the ``#>`` lines the block's run rewrites, and the hash of the code they give
    update: OutputUpdate | None = None
    sha256: str | None = None

    def __post_init__(self) -> None:
        if self.code is not None:  # the record's text is always its code's English
            self.reason = self.code.english()


class PageSession:
    """The process and working directory of one page."""

    def __init__(self, page: str, env: dict[str, str] | None = None, settings: Settings | None = None) -> None:
        self.page = page
        self.settings = settings or from_environment()  # outside a pytest run: the environment's
        self.workdir = Path(tempfile.mkdtemp(prefix="ruota-page-"))
        self.log_path = self.workdir.parent / f"{self.workdir.name}.log"
        self._log = open(self.log_path, "w+b")  # noqa: SIM115 — closed in close()
        self.env = dict(os.environ if env is None else env)
        self.env.update(PYTHONUNBUFFERED="1", PYTHONFAULTHANDLER="1", MPLBACKEND="Agg", RUOTA_DOCS_PAGE=page)
        self.env[SESSION_VARIABLE] = self.token = f"{self.workdir.name}-{os.getpid()}"
        package_root = str(Path(__file__).resolve().parents[3])
        self.env["PYTHONPATH"] = os.pathsep.join(p for p in [package_root, self.env.get("PYTHONPATH", "")] if p)
        self.process: subprocess.Popen | None = None
        self.dead: Reason | None = None  #: why the page's process ended early
        self.refused: str | None = None  #: why the page cannot run as the unprivileged user
        try:
            self.runner = page_user(self.settings)
        except RunnerError as error:
            self.runner, self.refused = None, str(error)
        self.as_root = self.runner is None and hasattr(os, "geteuid") and os.geteuid() == 0
        if self.runner is not None:
            home, tmp = self.workdir / "home", self.workdir / "tmp"
            home.mkdir()
            tmp.mkdir()
            self.runner.own(self.workdir, home, tmp)
            self.env = self.runner.environment(self.env, home, tmp)
        self._as_user = self.runner.popen_kwargs() if self.runner is not None else {}

    def _cannot_start(self) -> Outcome | None:
        """The failure of a page whose user cannot run it (the rest of the page is then not run)."""
        if self.refused is None:
            return None
        self.dead = reason("cannot_start_as_user")
        return Outcome("failed", code=reason("problem", message=self.refused.splitlines()[0]), error=self.refused)

    # -- the Python process ------------------------------------------------
    def _start(self) -> None:
        cmd_r, cmd_w = os.pipe()
        res_r, res_w = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ruota_docs.run.process.worker", str(cmd_r), str(res_w), self.settings.for_worker()],
            pass_fds=(cmd_r, res_w),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            cwd=self.workdir,
            env=self.env,
            start_new_session=True,  # its own process group: a timeout kills the children too
            **self._as_user,
        )
        os.close(cmd_r)
        os.close(res_w)
        self._cmd, self._res = cmd_w, res_r

    def start_early(self) -> None:
        """Start the process now, before its first block, where nothing stands in its way; where
        something does, `run_python` reports it as usual."""
        if self.process is not None or self.refused is not None or self.dead:
            return
        try:
            memory_limit(self.settings.memory_limit)
        except MemoryLimitError:
            return
        self._start()

    def run_python(self, code: str, filename: str, line: int, timeout: float, kind: str = "python",
                   expect: bool = False, script: str = "") -> Outcome:
        """Run one block in the page's process (``expect``: keep what it prints, for its ``#>`` lines;
        ``script``: the file the block reads as ``sys.argv[0]``, as if run with ``python FILE``)."""
        if self.dead:
            return Outcome("skipped", code=reason("page_stopped", cause=self.dead.to_record()))
        if self.process is None:
            if (refused := self._cannot_start()) is not None:
                return refused
            try:
                memory_limit(self.settings.memory_limit)
            except MemoryLimitError as error:
                self.dead = reason("cannot_start", detail=str(error))
                return Outcome("failed", code=reason("problem", message=str(error)), error=str(error))
            self._start()
        mark = self._mark()
        started = time.perf_counter()
        try:
            send(self._cmd, {"kind": kind, "code": code, "filename": filename, "line": line, "expect": expect,
                             "script": script})
        except BrokenPipeError:
            pass
        ready, _, _ = select.select([self._res], [], [], timeout)
        answer = receive(self._res) if ready else None
        elapsed = time.perf_counter() - started
        output = self._output_since(mark)
        if answer is not None:
            status = "passed" if answer["ok"] else "failed"
            error = answer.get("error")
            summary = error.strip().splitlines()[-1] if error and error.strip() else None
            return Outcome(status, output, answer["duration"], error=error, printed=answer.get("printed"),
                           as_root=self.as_root, code=reason("raised", message=summary) if summary else None)
        if not ready:
            why = reason("timeout", seconds=float(timeout))
            self._kill()
        else:
            self.process.wait()
            why = reason("died", ended=ended(self.process.returncode))
        self.dead = reason("page_ended", line=line, why=why.to_record())
        return Outcome("failed", output, elapsed, code=why, error=why.english(), as_root=self.as_root)

    # -- shell blocks ------------------------------------------------------
    def run_shell(self, script: str, timeout: float) -> Outcome:
        """Run a shell block with bash in the page's working directory."""
        if self.dead:
            return Outcome("skipped", code=reason("page_stopped", cause=self.dead.to_record()))
        if (refused := self._cannot_start()) is not None:
            return refused
        mark = self._mark()
        started = time.perf_counter()
        # bash names the command that failed (set -e stops there) in a file of its own: the
        # block's output, which readers see, stays what its commands printed
        failed_at = Path(self.workdir, ".ruota-docs-failed-command")
        failed_at.unlink(missing_ok=True)
        trap = f"trap 'printf %s \"$BASH_COMMAND\" > {shlex.quote(str(failed_at))}' ERR\n"
        proc = subprocess.Popen(
            ["bash", "-euo", "pipefail", "-c", trap + script],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
            cwd=self.workdir, env=self.env, start_new_session=True, **self._as_user,
        )
        try:
            code = proc.wait(timeout)
        except subprocess.TimeoutExpired:
            _killpg(proc)
            return Outcome("failed", self._output_since(mark), time.perf_counter() - started,
                           code=reason("timeout", seconds=float(timeout)), as_root=self.as_root)
        output = self._output_since(mark)
        elapsed = time.perf_counter() - started
        if code == 0:
            return Outcome("passed", output, elapsed, as_root=self.as_root)
        try:
            command = failed_at.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            command = ""
        failed_at.unlink(missing_ok=True)  # the page's next blocks never see it
        failed = reason("shell_failed", ended=ended(code), command=command[:120] or None)
        return Outcome("failed", output, elapsed, code=failed, as_root=self.as_root)

    # -- output and clean-up -------------------------------------------------
    def _mark(self) -> int:
        self._log.flush()
        return os.fstat(self._log.fileno()).st_size

    def _output_since(self, mark: int) -> str:
        """What was printed since ``mark``, reading at most a bounded amount of a huge log (read
        through the log's own descriptor: no file opened again for each block)."""
        fd = self._log.fileno()
        size = os.fstat(fd).st_size - mark
        half = OUTPUT_LIMIT // 2
        if size <= OUTPUT_LIMIT:
            return _read_at(fd, mark, size).decode("utf-8", "replace")
        head, tail = _read_at(fd, mark, half), _read_at(fd, mark + size - half, half)
        omitted = size - 2 * half
        return (f"{head.decode('utf-8', 'replace')}\n… [{omitted:,} bytes of output omitted] …\n"
                f"{tail.decode('utf-8', 'replace')}")

    def _kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            _killpg(self.process)
        kill_session(self.token)

    def close(self) -> None:
        """End the page's process (and anything it left running) and remove its files."""
        if self.process is not None:
            for fd in (self._cmd, self._res):
                try:
                    os.close(fd)
                except OSError:
                    pass
            _wait(self.process, 5)  # its blocks are done: it ends once it reads that there are no more
            _killpg(self.process)
        kill_session(self.token)
        self._log.close()
        shutil.rmtree(self.workdir, ignore_errors=True)
        self.log_path.unlink(missing_ok=True)


# -- the one page a run names, started while the run collects ------------------------
#: The session started ahead, by page: at most one.
_AHEAD: dict[str, PageSession] = {}


def start_ahead(page: str, settings: Settings) -> None:
    """Start the process of ``page`` while pytest is still collecting (and rendering) it: the
    run that names one page (``pytest docs/es/guide.md``, an author's loop) then finds it ready.
    The process is the page's own, as any page's: fresh, its own folder, used for that page only."""
    if _AHEAD:
        return
    session = _AHEAD[page] = PageSession(page, settings=settings)
    session.start_early()


def session_for(page: str, settings: Settings) -> PageSession:
    """The page's session: the one started ahead for it, else a new one."""
    for started, ahead in list(_AHEAD.items()):
        del _AHEAD[started]
        if started == page and ahead.settings == settings:
            return ahead
        ahead.close()  # another page's (or other settings'): never shared
    return PageSession(page, settings=settings)


def close_ahead() -> None:
    """End a session started ahead that no block claimed (the page had none to run)."""
    while _AHEAD:
        _AHEAD.popitem()[1].close()


def session_processes(token: str) -> list[int]:
    """Live processes whose environment names the session ``token`` (Linux ``/proc``; [] elsewhere)."""
    needle = f"\0{SESSION_VARIABLE}={token}\0".encode()
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    found = []
    for name in names:
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                environ = handle.read()
        except OSError:  # gone, or another user's
            continue
        if needle in b"\0" + environ:
            found.append(int(name))
    return found


def kill_session(token: str) -> list[int]:
    """SIGKILL every process left by a page session, including those that left its
    process group; repeated while new ones appear (a process forking meanwhile)."""
    killed: list[int] = []
    for _ in range(10):
        pids = session_processes(token)
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)  # let the kernel turn them into zombies (no environment left)
    return killed


def _read_at(fd: int, offset: int, size: int) -> bytes:
    """``size`` bytes of the file ``fd`` from ``offset`` (fewer where it ends first)."""
    chunks = []
    while size > 0:
        chunk = os.pread(fd, size, offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _wait(proc: subprocess.Popen, timeout: float) -> None:
    """Wait until ``proc`` ends, ``timeout`` seconds at most. Where the system can say when a
    process ends (Linux' pidfd), it says so at once: ``Popen.wait`` with a timeout polls,
    sleeping longer each time, and a page whose process took 3 ms to end waited 7."""
    try:
        pidfd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # not Linux 5.3+, or the process is reaped already
        pidfd = None
    if pidfd is not None:
        try:
            select.select([pidfd], [], [], timeout)
        finally:
            os.close(pidfd)
    try:
        proc.wait(0 if pidfd is not None else timeout)
    except subprocess.TimeoutExpired:
        pass


def _killpg(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
