"""One page's process, seen from the test run.

A :class:`PageSession` starts a fresh Python process for a page, sends it the
page's blocks one at a time, enforces each block's timeout and reads what the
block printed. A crash or hang ends that process and is reported as the block's
failure, with the signal or the timeout named; the blocks after it are not run.
The timeout is kept from outside: a block that closes its end of the pipe (daemonising
code closes every descriptor) is still stopped when its time is up.

The process runs in the sandbox of :mod:`ruota_docs.run.sandbox` (bubblewrap: its own PID
and network namespaces, the repository read-only, an allow-listed environment, resource
limits), so whatever it starts ends with it. Where the sandbox cannot run, every process
the page starts carries the session's token in its environment (``RUOTA_DOCS_SESSION``),
so when the page ends, or its process is killed, what it left running and kept the token is
found and killed too, and the page's process is a subreaper, so what a block left running
(an ``env -i`` daemon too) stays its descendant and is killed with it; a shell block starts
under a reaper of its own (:mod:`ruota_docs.run.process.reaper`), which does the same for it.
The page's process keeps what a block leaves running even when the process running the blocks
is killed (`ruota_docs.run.process.worker`).
What the page's process reads from the block is checked as the block's own input
(:mod:`ruota_docs.run.process.answer`): an answer by the deadline, of the right shape.

When the suite runs as root, the page's processes run as an unprivileged user
(:mod:`ruota_docs.run.unprivileged`), with HOME in the page's folder; the parent stays
root, so it can still kill them and read what they printed.

A fault of the machine (no space left where the page writes, no temporary directory) is not the
block's: it raises :class:`MachineFault`, which ends the run naming the path, and the block is
not recorded.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import select
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ruota_docs.records.reason_codes import Reason, ended, reason
from ruota_docs.records.schema import OUTPUT_LIMIT
from ruota_docs.run import sandbox
from ruota_docs.run.settings import Settings, from_environment
from ruota_docs.run.unprivileged import RunnerError, page_user
from ruota_docs.run.process import answer as answers
from ruota_docs.run.process.reaper import kill_descendants, kill_repeatedly
from ruota_docs.run.process.worker import MemoryLimitError, send

if TYPE_CHECKING:
    from ruota_docs.run.run_state import OutputUpdate
#: Environment variable naming the page session that started a process.
SESSION_VARIABLE = "RUOTA_DOCS_SESSION"
#: Seconds a block runs before the live line shows it (then once a second).
PROGRESS_AFTER = 5.0
#: Errors of a full disk (or quota): the machine's fault where the page's folder is full indeed.
_FULL = (errno.ENOSPC, errno.EDQUOT)


class MachineFault(RuntimeError):
    """A fault of the machine, not of the block: no space left, a missing temporary directory."""


def _page_folder() -> Path:
    """A new folder for a page, in the temporary directory; a `MachineFault` where there is none."""
    asked = os.environ.get("TMPDIR")
    if asked and not os.path.isdir(asked):  # Python would quietly use another one
        raise MachineFault(f"the temporary directory TMPDIR={asked} does not exist; create it or unset TMPDIR")
    try:
        return Path(tempfile.mkdtemp(prefix="ruota-page-"))
    except OSError as error:
        where = error.filename or tempfile.gettempdir()
        raise MachineFault(f"cannot create the page's folder in {where}: {error.strerror}") from None


def _full(path: Path) -> bool:
    """Whether the file system of ``path`` has (next to) no space left."""
    try:
        info = os.statvfs(path)
    except OSError:
        return False
    return info.f_bavail * info.f_frsize < 1 << 20 or (info.f_files > 0 and info.f_favail == 0)


@dataclass
class Outcome:
    """What happened to one block."""

    status: str  #: "passed", "failed" or "skipped"
    output: str = ""
    duration: float = 0.0
    reason: str | None = None  #: skip reason, or the failure's summary: the English of ``code``
    error: str | None = None  #: traceback or report
    #: for a block with ``#>`` lines, what it wrote to stdout: ``[(statement line, text, own print's line), …]``
    printed: list | None = None
    as_root: bool | None = None  #: whether the block's code ran as root; None where none ran
    code: Reason | None = None  #: the reason as a code with arguments (:mod:`ruota_docs.records.reason_codes`)
    #: ``--reuse-record`` and credited translations: the page whose run this is, and when it ran
    reused_from: str | None = None
    ran_at: str | None = None
    #: ``--update-outputs``: the ``#>`` lines the block's run rewrites, and the hash of the code they give
    update: OutputUpdate | None = None
    sha256: str | None = None
    isolation: str | None = None  #: how the block's code was isolated (`ruota_docs.run.sandbox`); None where none ran

    def __post_init__(self) -> None:
        if self.code is not None:  # the record's text is always its code's English
            self.reason = self.code.english()


class PageSession:
    """The process and working directory of one page."""

    def __init__(self, page: str, env: dict[str, str] | None = None, settings: Settings | None = None,
                 network: bool = False, names: tuple[str, ...] = ()) -> None:
        self.page = page
        self.settings = settings or from_environment()  # outside a pytest run: the environment's
        self.network, self.names = network, tuple(sorted(names))  #: the network; variables the page names
        self.progress = None  #: called as ``progress(where, elapsed, done)`` while a block runs long
        self.workdir = _page_folder()
        self.log_path = self.workdir.parent / f"{self.workdir.name}.log"
        self._log = open(self.log_path, "w+b")  # noqa: SIM115 — closed in close()
        invoking = os.environ if env is None else env
        self.env = sandbox.environment(invoking, self.names, self.settings.allow_env)
        if kept := sandbox.withheld(invoking, self.names, self.settings.allow_env):
            warnings.warn(f"ruota-docs: {page} names {', '.join(kept)} (run: env=), named like a secret: not passed "
                          f"to the page; to pass it, run with --allow-env {' --allow-env '.join(kept)}", stacklevel=2)
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
        home, tmp = self.workdir / "home", self.workdir / "tmp"
        home.mkdir()
        tmp.mkdir()
        if self.runner is not None:
            self.runner.own(self.workdir, home, tmp)
            self.env = self.runner.environment(self.env, home, tmp)
        else:
            self.env.update(HOME=str(home), TMPDIR=str(tmp))
        self._as_user = self.runner.popen_kwargs() if self.runner is not None else {}
        self._user = (self.runner.uid, self.runner.gid, self.runner.groups) if self.runner is not None else None
        try:
            self.isolation, _ = sandbox.choose(self.settings.isolation, self._user, self.runner is not None)
        except sandbox.SandboxError as error:
            self.isolation, self.refused = sandbox.NONE, self.refused or str(error)
        if self.isolation == sandbox.SANDBOX:
            self._as_user = {}  # the sandbox switches to the user itself, keeping its groups
        repository = tuple(str(p) for p in (self.settings.root, self.settings.docs_dir) if p is not None)
        self._readable = sandbox.readable_paths(repository) if self.isolation == sandbox.SANDBOX else []
        self._masked = sandbox.sockets_in(repository) if self.isolation == sandbox.SANDBOX else ()

    def _argv(self, argv: list[str], network: bool) -> list[str]:
        """``argv`` as the page runs it: in the sandbox, where it runs."""
        if self.isolation != sandbox.SANDBOX:
            return argv
        return sandbox.command(argv, self.workdir, network, self._readable, self._user, self.workdir / "tmp",
                               self._masked)

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
        worker = [sys.executable, "-m", "ruota_docs.run.process.worker", str(cmd_r), str(res_w),
                  self.settings.for_worker(self.isolation, os.getpid())]
        self.process = subprocess.Popen(
            self._argv(worker, self.network),
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
            self.settings.limits()
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
                self.settings.limits()
            except MemoryLimitError as error:
                self.dead = reason("cannot_start", detail=str(error))
                return Outcome("failed", code=reason("problem", message=str(error)), error=str(error))
            self._start()
        mark = self._mark()
        started = time.perf_counter()
        deadline = started + timeout
        where = f"{self.page}:{line}"
        try:
            send(self._cmd, {"kind": kind, "code": code, "filename": filename, "line": line, "expect": expect,
                             "script": script})
        except BrokenPipeError:
            pass
        ready = self._until(deadline, self._res, where, started)
        # the block can write on that pipe itself: an answer is read by its deadline, and checked
        how, answer = answers.receive(self._res, deadline) if ready else (answers.LATE, None)
        if how == answers.CLOSED:  # its end of the pipe closed: it ended, or closed its descriptors
            ready = self._until(deadline, None, where, started)
        self._done(where, started)
        elapsed = time.perf_counter() - started
        output = self._output_since(mark)
        if how == answers.ANSWER and isinstance(answer, dict):
            status = "passed" if answer["ok"] else "failed"
            error = answer.get("error")
            if status == "failed" and answer.get("errno") in _FULL and _full(self.workdir):
                raise MachineFault(f"no space left on the device of {self.workdir}, where the page writes "
                                   f"(the block at {where} stopped on it: {(error or '').strip().splitlines()[-1]})")
            summary = error.strip().splitlines()[-1] if error and error.strip() else None
            return Outcome(status, output, answers.duration(answer, elapsed), error=error,
                           printed=answer.get("printed"), as_root=self.as_root,
                           code=reason("raised", message=summary) if summary else None, isolation=self.isolation)
        if how == answers.MALFORMED:
            why = reason("problem", message=f"the page's process sent {answer}, not its answer")
            self._kill()
        elif how == answers.LATE or not ready:
            why = reason("timeout", seconds=float(timeout))
            self._kill()
        else:
            why = reason("died", ended=ended(self._returncode()))
        self.dead = reason("page_ended", line=line, why=why.to_record())
        return Outcome("failed", output, elapsed, code=why, error=why.english(), as_root=self.as_root,
                       isolation=self.isolation)

    def _returncode(self) -> int:
        """How the page's process ended: in the sandbox, bwrap reports a signal as 128 + its
        number, as shells do; negative for a signal, as `subprocess` does."""
        code = self.process.returncode
        if self.isolation == sandbox.SANDBOX and 128 < code < 128 + 65:
            return 128 - code
        return code

    def _until(self, deadline: float, fd: int | None, where: str, started: float,
               proc: subprocess.Popen | None = None) -> bool:
        """Wait until ``fd`` can be read (None: until the process ends) or ``deadline``: whether
        it came first. Shows the live line while a block runs long."""
        proc = proc or self.process
        pidfd = _pidfd(proc) if fd is None else None
        try:
            while True:
                if fd is None and proc.poll() is not None:
                    return True
                now = time.perf_counter()
                if now >= deadline:
                    return False
                if self._wait(deadline - now, fd, pidfd, started - now):
                    return True
                elapsed = time.perf_counter() - started
                if self.progress is not None and elapsed >= PROGRESS_AFTER:
                    self.progress(where, elapsed, False)
        finally:
            if pidfd is not None:
                os.close(pidfd)

    def _wait(self, wait: float, fd: int | None, pidfd: int | None, since_start: float) -> bool:
        """Waits at most ``wait`` seconds for ``fd`` (or the process's ``pidfd``): whether ``fd``
        can be read. ``since_start``: the block's start relative to now (negative)."""
        if self.progress is not None:  # wake up for the live line: first after PROGRESS_AFTER, then each second
            wait = min(wait, max(since_start + PROGRESS_AFTER, 0) or 1.0)
        if fd is None and pidfd is None:
            wait = min(wait, 0.05)
        watched = [x for x in (fd, pidfd) if x is not None]
        if not watched:
            time.sleep(wait)
            return False
        return bool(select.select(watched, [], [], wait)[0]) and fd is not None

    def _done(self, where: str, started: float) -> None:
        elapsed = time.perf_counter() - started
        if self.progress is not None and elapsed >= PROGRESS_AFTER:
            self.progress(where, elapsed, True)

    # -- shell blocks ------------------------------------------------------
    def run_shell(self, script: str, timeout: float, line: int = 0, network: bool = False) -> Outcome:
        """Run a shell block with bash in the page's working directory (in a sandbox of its own:
        what it starts ends with it; ``network``: the block ``requires: network``)."""
        if self.dead:
            return Outcome("skipped", code=reason("page_stopped", cause=self.dead.to_record()))
        if (refused := self._cannot_start()) is not None:
            return refused
        try:
            limits = self.settings.limits()
        except MemoryLimitError as error:
            return Outcome("failed", code=reason("problem", message=str(error)), error=str(error))
        if self.isolation == sandbox.NONE:  # the invoking user's own count of processes
            limits = dataclasses.replace(limits, processes=None)
        mark = self._mark()
        started = time.perf_counter()
        where = f"{self.page}:{line}"
        # bash names the command that failed (set -e stops there) in a file of its own: the
        # block's output, which readers see, stays what its commands printed
        failed_at = Path(self.workdir, ".ruota-docs-failed-command")
        failed_at.unlink(missing_ok=True)
        trap = f"trap 'printf %s \"$BASH_COMMAND\" > {shlex.quote(str(failed_at))}' ERR\n"
        shell = ["bash", "-euo", "pipefail", "-c", limits.ulimit() + trap + script]
        if self.isolation != sandbox.SANDBOX:  # what it leaves running ends with it (see `reaper`)
            # -P, -s: nothing from the page's folder or its HOME, where a block could put a ruota_docs
            # or a .pth of its own that disarms the reaper
            shell = [sys.executable, "-P", "-s", "-m", "ruota_docs.run.process.reaper", *shell]
        proc = subprocess.Popen(
            self._argv(shell, network),
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
            cwd=self.workdir, env=self.env, start_new_session=True, **self._as_user,
        )
        ended_in_time = self._until(started + timeout, None, where, started, proc)
        self._done(where, started)
        if not ended_in_time:
            if self.isolation != sandbox.SANDBOX:
                kill_descendants(proc.pid)
            _killpg(proc)
            if self.isolation != sandbox.SANDBOX:
                kill_session(self.token)
            return Outcome("failed", self._output_since(mark), time.perf_counter() - started,
                           code=reason("timeout", seconds=float(timeout)), as_root=self.as_root,
                           isolation=self.isolation)
        code = proc.wait()
        output = self._output_since(mark)
        elapsed = time.perf_counter() - started
        if code == 0:
            return Outcome("passed", output, elapsed, as_root=self.as_root, isolation=self.isolation)
        if "No space left on device" in output and _full(self.workdir):
            raise MachineFault(f"no space left on the device of {self.workdir}, where the page writes "
                               f"(the block at {where} stopped on it)")
        command = _read_planted(failed_at).strip()
        failed_at.unlink(missing_ok=True)  # the page's next blocks never see it
        failed = reason("shell_failed", ended=ended(code), command=command[:120] or None)
        return Outcome("failed", output, elapsed, code=failed, as_root=self.as_root, isolation=self.isolation)

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
            if self.isolation != sandbox.SANDBOX:
                kill_descendants(self.process.pid)
            _killpg(self.process)
        if self.isolation != sandbox.SANDBOX:  # in the sandbox, its PID namespace ended with it
            kill_session(self.token)

    def close(self) -> None:
        """End the page's process (and anything it left running) and remove its files."""
        if self.process is not None:
            for fd in (self._cmd, self._res):
                try:
                    os.close(fd)
                except OSError:
                    pass
            # its blocks are done: it ends once it reads that there are no more (outside the sandbox,
            # its keeper then ends what they left running: see `worker._keep`)
            _wait(self.process, 5)
            if self.isolation != sandbox.SANDBOX and self.process.poll() is None:
                kill_descendants(self.process.pid)
            _killpg(self.process)
        if self.isolation != sandbox.SANDBOX:
            kill_session(self.token)
        self._log.close()
        shutil.rmtree(self.workdir, ignore_errors=True)
        self.log_path.unlink(missing_ok=True)


# -- the one page a run names, started while the run collects ------------------------
#: The session started ahead, by page: at most one.
_AHEAD: dict[str, PageSession] = {}


def start_ahead(page: str, settings: Settings, network: bool = False, names: tuple[str, ...] = ()) -> None:
    """Start the process of ``page`` before its first block: while pytest is still collecting (and
    rendering) it, in a run that names one page (``pytest docs/es/guide.md``, an author's loop), or
    while the page before it runs (`ruota_docs.run.page_ahead`). The process is the page's own, as any
    page's: fresh, its own folder and sandbox (``network``, ``names``), used for that page only."""
    if _AHEAD:
        return
    session = _AHEAD[page] = PageSession(page, settings=settings, network=network, names=names)
    session.start_early()


def session_for(page: str, settings: Settings, network: bool = False, names: tuple[str, ...] = ()) -> PageSession:
    """The page's session: the one started ahead for it, else a new one (``network``, ``names``:
    what the page's blocks ask of its sandbox)."""
    names = tuple(sorted(names))
    for started, ahead in list(_AHEAD.items()):
        del _AHEAD[started]
        if started == page and ahead.settings == settings and (ahead.network, ahead.names) == (network, names):
            return ahead
        ahead.close()  # another page's (or other settings', another sandbox's): never shared
    return PageSession(page, settings=settings, network=network, names=names)


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
    process group; repeated while new ones appear (a process forking meanwhile), 10 ms apart to
    let the kernel turn them into zombies (no environment left)."""
    return kill_repeatedly(lambda: session_processes(token), rounds=10, pause=0.01)


def _read_planted(path: Path, limit: int = 4096) -> str:
    """The start of a file in the page's folder, where the block could have put a link (to
    ``/etc/shadow``, read by root) or a FIFO (a read that never ends) in its place: only a regular
    file is read, never through a link; "" for anything else."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return ""
    try:
        return os.read(fd, limit).decode("utf-8", "replace") if stat.S_ISREG(os.fstat(fd).st_mode) else ""
    except OSError:
        return ""
    finally:
        os.close(fd)


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


def _pidfd(proc: subprocess.Popen) -> int | None:
    """A descriptor that can be read once ``proc`` ends (None: not Linux 5.3+, or the process is reaped already)."""
    try:
        return os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        return None
