"""The page process: runs one page's blocks in order, in one namespace.

Started by :class:`~ruota_docs.run.process.session.PageSession` as
``python -m ruota_docs.run.process.worker CMD_FD RESULT_FD [SETTINGS]`` (``SETTINGS``: the
JSON of :meth:`ruota_docs.run.settings.Settings.for_worker`). It reads one request at a
time from ``CMD_FD`` and answers on ``RESULT_FD``; its stdin is empty and its
stdout/stderr go to a file the parent reads, so a block may print, read stdin or
crash without disturbing the protocol.
"""

from __future__ import annotations

import atexit
import io
import json
import linecache
import contextlib
import os
import struct
import sys
import time
import traceback

_HEADER = struct.Struct("!I")
#: Facts about the block just run that go back with its answer, whatever it raised.
_ANSWER_EXTRA: dict = {}


def send(fd: int, message: dict) -> None:
    data = json.dumps(message).encode()
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def receive(fd: int) -> dict | None:
    header = _read_exact(fd, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    data = _read_exact(fd, size)
    return None if data is None else json.loads(data)


def _read_exact(fd: int, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class MemoryLimitError(ValueError):
    """A ``RUOTA_DOCS_MEMORY_LIMIT`` that is not a size."""


_UNITS = {"": 1, "B": 1, "K": 2**10, "KiB": 2**10, "M": 2**20, "MiB": 2**20, "G": 2**30, "GiB": 2**30,
          "T": 2**40, "TiB": 2**40}


def memory_limit(value: str | None, name: str = "RUOTA_DOCS_MEMORY_LIMIT") -> int | None:
    """A size such as ``RUOTA_DOCS_MEMORY_LIMIT`` (``name``) in bytes: ``1073741824``, ``1GiB``,
    ``512MiB``; None if unset."""
    if not value or not value.strip():
        return None
    number, unit = value.strip(), ""
    while number and not number[-1].isdigit():
        number, unit = number[:-1], number[-1] + unit
    unit = unit.strip()
    try:
        size = int(float(number) * _UNITS[unit])
    except (KeyError, ValueError):
        size = 0
    if size <= 0:
        raise MemoryLimitError(f"{name}={value!r} is not a size: "
                               "write bytes or a number with a unit, e.g. 1GiB")
    return size


_LIMITS = {"data": "RLIMIT_DATA", "nproc": "RLIMIT_NPROC", "fsize": "RLIMIT_FSIZE", "as": "RLIMIT_AS"}


def _apply_limits(limits: dict) -> None:
    """Set the page's resource limits (`ruota_docs.run.sandbox.Limits`), soft and hard, so that a
    block cannot raise them: running out of memory raises MemoryError in the block instead of
    exhausting the machine. Inherited by the processes a block starts."""
    if not any(limits.values()):
        return
    import resource  # noqa: PLC0415 — POSIX only

    for key, name in _LIMITS.items():
        value, which = limits.get(key), getattr(resource, name, None)
        if not value or which is None:
            continue
        hard = resource.getrlimit(which)[1]
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):  # a limit the system does not let this process lower to
            pass


def _die_with_parent(parent: int, fds: tuple[int, ...] = ()) -> None:
    """Outside the sandbox (whose PID namespace does it), end with the test run: where it is
    killed, this process gets SIGKILL instead of running its block on (Linux' PR_SET_PDEATHSIG);
    and keep the daemons a block starts as descendants (`ruota_docs.run.process.session` ends them),
    also where the process running the blocks is killed (`_keep`; ``fds``: its pipes)."""
    if not parent or not sys.platform.startswith("linux"):
        return
    import ctypes  # noqa: PLC0415 — the fallback's only
    import signal  # noqa: PLC0415

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
        # PR_SET_CHILD_SUBREAPER: what a block leaves running when its parent exits (a daemon,
        # whatever its environment) stays this process's descendant, for the session to find
        libc.prctl(36, 1, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the run ended before the signal was asked for
        os._exit(1)
    _keep(libc, signal, fds)


def _keep(libc, signal, fds: tuple[int, ...]) -> None:
    """Split into a keeper, the process the session started, and a child that runs the blocks.
    The keeper only waits: when the child ends, killed too (a crash, the OOM killer, a block's own
    SIGKILL), what the blocks left running is still its descendant, whatever its environment, and
    it kills that before it ends as the child did. The child dies with the keeper."""
    keeper = os.getpid()
    child = os.fork()
    if child == 0:
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG: not inherited through fork
        if os.getppid() != keeper:
            os._exit(1)
        return
    for fd in fds:  # the child's pipes: its end alone tells the session it ended
        os.close(fd)
    status = os.waitpid(child, 0)[1]
    from ruota_docs.run.process.reaper import kill_descendants, reap  # noqa: PLC0415

    kill_descendants(keeper)
    reap()
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # ended by a signal: end by it too, so the session names it
        with contextlib.suppress(OSError, ValueError):  # SIGKILL and SIGSTOP keep theirs anyway
            signal.signal(-code, signal.SIG_DFL)
        os.kill(keeper, -code)
    os._exit(code)


def _remember_source(request: dict) -> None:
    """Let inspect and tracebacks find a block's source by its filename (``page.md:LINE``).

    Without it, tools that read a function's source (TensorFlow's autograph, for one)
    fall back to the ``__main__`` module's source — this worker's — and misread it.
    """
    lines = request["code"].splitlines(keepends=True)
    linecache.cache[request["filename"]] = (len(request["code"]), None, lines, request["filename"])


#: While ``print(…)`` runs: the line of the running block's code it was called from (pytest-examples'
#: place for its output, a print in a function writing under itself); the block's file name.
_PRINTING: list = []
_BLOCK: list = [""]
_PRINT = print


def _print(*args, **kwargs):
    """``print``, remembering where in the running block it was called from (through any wrapper
    the site's set-up puts around it, as pytest-examples' own ``print_callback``)."""
    frame, line = sys._getframe(1), None
    while frame is not None and line is None:
        line = frame.f_lineno if frame.f_code.co_filename == _BLOCK[0] else None
        frame = frame.f_back
    _PRINTING.append(line)
    try:
        _PRINT(*args, **kwargs)
    finally:
        _PRINTING.pop()


_print.__name__ = _print.__qualname__ = "print"


class _Printed:
    """``sys.stdout`` while a block with ``#>`` lines runs: writes go through unchanged,
    and each is remembered with the block line of the top-level statement that made it, and the line
    of the ``print(…)`` call that wrote it (None for what ``pprint`` or a library writes otherwise)."""

    LIMIT = 1_000_000

    def __init__(self, target, filename: str) -> None:
        self._target, self._filename = target, filename
        self.chunks: list[tuple[int | None, str, int | None]] = []
        self._size = 0

    def write(self, text: str) -> int:
        written = self._target.write(text)
        if self._size < self.LIMIT:
            self.chunks.append((self._statement(), text, _PRINTING[-1] if _PRINTING else None))
            self._size += len(text)
        return written

    def _statement(self) -> int | None:
        frame, line = sys._getframe(2), None
        while frame is not None:
            if frame.f_code.co_filename == self._filename:
                line = frame.f_lineno  # keep going: the outermost frame of the block wins
            frame = frame.f_back
        return line

    def __getattr__(self, name):
        return getattr(self._target, name)


#: Top-level ``await``, ``async with`` and ``async for`` compile as in ``python -m asyncio``.
_COMPILE_FLAGS = 0x2000  # ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, without importing ast into every page's process
_CO_COROUTINE = 0x0080  # inspect.CO_COROUTINE: code that awaits at top level compiles to a coroutine
_LOOP: list = []


def _execute(code, namespace: dict) -> None:
    """Run compiled block code; code that awaits at top level runs on the page's event loop,
    one loop for the whole page, as the asyncio REPL keeps one for its session."""
    if not code.co_flags & _CO_COROUTINE:
        exec(code, namespace)  # noqa: S102 — executing the page's code is the point
        return
    import asyncio  # noqa: PLC0415 — only pages that await need it
    import types  # noqa: PLC0415

    if not _LOOP:
        _LOOP.append(asyncio.new_event_loop())
        asyncio.set_event_loop(_LOOP[0])
    # a module's code has no fast locals: as a function, it reads and writes the namespace
    _LOOP[0].run_until_complete(types.FunctionType(code, namespace)())


def _doctest_exec(code, globals_=None, locals_=None) -> None:
    """``exec`` as doctest calls it, for an example that awaits at top level."""
    if locals_ is None and globals_ is not None:
        _execute(code, globals_)
    else:
        exec(code, globals_, locals_)  # noqa: S102


def _run_python(request: dict, namespace: dict) -> dict:
    _remember_source(request)
    code = compile(request["code"], request["filename"], "exec", flags=_COMPILE_FLAGS, dont_inherit=True)
    if not request.get("expect"):
        _execute(code, namespace)
        return {"ok": True}
    original = sys.stdout
    _BLOCK[0] = request["filename"]
    printed = sys.stdout = _Printed(original, request["filename"])
    try:
        _execute(code, namespace)
    finally:
        sys.stdout = original
        _ANSWER_EXTRA["printed"] = printed.chunks
    return {"ok": True}


def _run_doctest(request: dict, namespace: dict) -> dict:
    import doctest  # noqa: PLC0415 — most of this process's start-up otherwise, and most pages have no doctest

    _remember_source(request)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(request["code"], namespace, request["filename"], request["filename"], request["line"])
    test.globs = namespace  # DocTest copies its globals: share the page's namespace both ways
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    # doctest compiles each example with the flags it is given and runs it with ``exec``
    # (looked up in its module): with these, ``>>> await …`` runs as in ``python -m asyncio``
    flags = _COMPILE_FLAGS | doctest._extract_future_flags(namespace)
    doctest.exec = _doctest_exec
    try:
        # run()'s own counts: summarize() would print its summary into the block's output
        failed, attempted = runner.run(test, compileflags=flags, out=report.write, clear_globs=False)
    finally:
        del doctest.exec
    if not failed:
        return {"ok": True, "error": None}
    return {"ok": False, "error": f"{report.getvalue()}{failed} of {attempted} doctest examples failed\n"}


def _main_namespace() -> dict:
    """The page's namespace: the dict of a fresh module that *is* ``__main__`` (``sys.modules``), as
    a script's is: what pickle, copy and multiprocessing look up by ``__main__.Name`` (a class or
    function a block defines) is found there, not in this worker's own module."""
    import types  # noqa: PLC0415

    module = types.ModuleType("__main__")
    sys.modules["__main__"] = module
    return module.__dict__


def _setup(path: str | None) -> str | None:
    """Run the site's set-up file (the plugin's ``setup``) in a namespace of its own; its traceback if it raised."""
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            code = compile(handle.read(), path, "exec")
        exec(code, {"__name__": "__ruota_docs_setup__", "__file__": path})  # noqa: S102 — the site's own set-up
    except BaseException:  # noqa: BLE001 — every block of the page fails with it
        return f"the site's setup file {path} raised:\n{traceback.format_exc()}"
    return None


def main(cmd_fd: int, result_fd: int, settings: dict | None = None) -> None:
    settings = settings or {}
    if settings.get("isolation") != "sandbox":
        _die_with_parent(settings.get("parent", 0), (cmd_fd, result_fd))
    _apply_limits(settings.get("limits") or {})
    namespace = _main_namespace()
    import builtins  # noqa: PLC0415

    builtins.print = _print  # before the site's set-up, which may wrap it in turn
    failed_setup = _setup(settings.get("setup"))
    while True:
        request = receive(cmd_fd)
        if request is None:
            return
        # the block runs as a reader's script would: ``python FILE`` gives sys.argv == [FILE]
        sys.argv[:] = [request.get("script") or request["filename"]]
        started = time.perf_counter()
        try:
            runner = _run_doctest if request["kind"] == "doctest" else _run_python
            answer = {"ok": False, "error": failed_setup} if failed_setup else runner(request, namespace)
        except SystemExit as exit_:
            code = exit_.code
            ok = code in (None, 0)
            answer = {"ok": ok, "error": None if ok else f"SystemExit: {code}"}
        except BaseException as error:  # noqa: BLE001 — report whatever the block raised
            answer = {"ok": False, "error": _format_exception(request["filename"]), "errno": _errno(error)}
        sys.stdout.flush()
        sys.stderr.flush()
        answer.update(_ANSWER_EXTRA)
        _ANSWER_EXTRA.clear()
        answer["duration"] = time.perf_counter() - started
        send(result_fd, answer)


def _errno(error: BaseException) -> int | None:
    """The errno of the OSError behind ``error`` (itself, or what it was raised from): the session
    tells a full disk, the machine's fault, from the block's own."""
    seen = 0
    while error is not None and seen < 8:
        if isinstance(error, OSError) and error.errno:
            return error.errno
        error, seen = error.__cause__ or error.__context__, seen + 1
    return None


def _format_exception(filename: str) -> str:
    """The traceback from the block's own frames onward (not the worker's)."""
    kind, value, tb = sys.exc_info()
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return "".join(traceback.format_exception(kind, value, tb))


def _leave() -> None:
    """End the process once the page has no more blocks. Where the page left nothing for Python's
    own shutdown to do (no exit handler registered, no thread still running), it ends at once, its
    output flushed: the page's session waits for it, and tearing down a process that imported
    PyTorch or TensorFlow module by module takes the page as long as a block."""
    sys.stdout.flush()
    sys.stderr.flush()
    threading = sys.modules.get("threading")
    handlers = getattr(atexit, "_ncallbacks", lambda: 1)()  # CPython's count of exit handlers
    if handlers == 0 and (threading is None or threading.active_count() == 1):
        os._exit(0)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3]) if len(sys.argv) > 3 else None)
    _leave()
