"""The page process: runs one page's blocks in order, in one namespace.

Started by :class:`~ruota_docs.sybil.session.PageSession` as
``python -m ruota_docs.sybil.worker CMD_FD RESULT_FD``. It reads one request at a
time from ``CMD_FD`` and answers on ``RESULT_FD``; its stdin is empty and its
stdout/stderr go to a file the parent reads, so a block may print, read stdin or
crash without disturbing the protocol.
"""

from __future__ import annotations

import doctest
import io
import json
import os
import struct
import sys
import time
import traceback

_HEADER = struct.Struct("!I")


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


def _limit_memory() -> None:
    limit = os.environ.get("RUOTA_DOCS_MEMORY_LIMIT")
    if limit:
        import resource  # noqa: PLC0415 — POSIX only

        resource.setrlimit(resource.RLIMIT_AS, (int(limit), int(limit)))


def _run_python(request: dict, namespace: dict) -> dict:
    code = compile(request["code"], request["filename"], "exec", dont_inherit=True)
    exec(code, namespace)  # noqa: S102 — executing the page's code is the point
    return {"ok": True}


def _run_doctest(request: dict, namespace: dict) -> dict:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(request["code"], namespace, request["filename"], request["filename"], request["line"])
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=report.write, clear_globs=False)
    failed = runner.summarize(verbose=False).failed
    return {"ok": not failed, "error": report.getvalue() if failed else None}


def main(cmd_fd: int, result_fd: int) -> None:
    _limit_memory()
    namespace: dict = {"__name__": "__main__"}
    while True:
        request = receive(cmd_fd)
        if request is None:
            return
        started = time.perf_counter()
        try:
            runner = _run_doctest if request["kind"] == "doctest" else _run_python
            answer = runner(request, namespace)
        except SystemExit as exit_:
            code = exit_.code
            ok = code in (None, 0)
            answer = {"ok": ok, "error": None if ok else f"SystemExit: {code}"}
        except BaseException:  # noqa: BLE001 — report whatever the block raised
            answer = {"ok": False, "error": _format_exception(request["filename"])}
        sys.stdout.flush()
        sys.stderr.flush()
        answer["duration"] = time.perf_counter() - started
        send(result_fd, answer)


def _format_exception(filename: str) -> str:
    """The traceback from the block's own frames onward (not the worker's)."""
    kind, value, tb = sys.exc_info()
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return "".join(traceback.format_exception(kind, value, tb))


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
