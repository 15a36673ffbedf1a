"""A page process's answer, read by the test run as what it is: input from the page's own code.

A block runs in the process that answers for it, so it can write on the answer's pipe itself
(its descriptor is on the process's command line), replace the clock the process times it
with, or promise an answer and never send it. The test run therefore reads an answer by the
block's deadline, refuses one over `LIMIT` or of the wrong shape, and keeps a duration only
where it is a real one: between zero and the time the run itself measured.
"""

from __future__ import annotations

import json
import math
import os
import select
import time
from typing import Any

from ruota_docs.run.process.worker import _HEADER

#: The largest answer read (an error, and the printed text of a block with ``#>`` lines, ~1 MB).
LIMIT = 64 * 2**20

#: What `receive` found: an answer, the end of the pipe, the deadline, or something else.
ANSWER, CLOSED, LATE, MALFORMED = "answer", "closed", "late", "malformed"


def receive(fd: int, deadline: float) -> tuple[str, dict[str, Any] | str | None]:
    """``(ANSWER, answer)``, ``(CLOSED, None)``, ``(LATE, None)`` or ``(MALFORMED, what is wrong)``:
    one answer from ``fd``, read by ``deadline`` (a `time.perf_counter` time)."""
    header = _read_by(fd, _HEADER.size, deadline)
    if not isinstance(header, bytes):
        return header, None
    (size,) = _HEADER.unpack(header)
    if size > LIMIT:
        return MALFORMED, f"an answer of {size:,} bytes (at most {LIMIT:,})"
    data = _read_by(fd, size, deadline)
    if not isinstance(data, bytes):
        return (MALFORMED, "an answer cut short") if data == CLOSED else (data, None)
    try:
        answer = json.loads(data)
    except (ValueError, RecursionError):
        return MALFORMED, "an answer that is not JSON"
    wrong = _wrong(answer)
    return (MALFORMED, wrong) if wrong else (ANSWER, answer)


def _read_by(fd: int, size: int, deadline: float) -> bytes | str:
    chunks, left = [], size
    while left:
        wait = deadline - time.perf_counter()
        if wait <= 0 or not select.select([fd], [], [], wait)[0]:
            return LATE
        chunk = os.read(fd, min(left, 2**20))
        if not chunk:
            return CLOSED
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _wrong(answer: Any) -> str | None:
    """What is wrong with an answer's shape (`ruota_docs.run.process.worker.main` sends), or None."""
    if not isinstance(answer, dict) or not isinstance(answer.get("ok"), bool):
        return "an answer without its outcome"
    if not isinstance(answer.get("error"), (str, type(None))):
        return "an error that is not text"
    if not isinstance(answer.get("errno"), (int, type(None))) or isinstance(answer.get("errno"), bool):
        return "an errno that is not a number"
    printed = answer.get("printed")
    if printed is not None and not (isinstance(printed, list) and all(
            isinstance(p, list) and len(p) == 3 and isinstance(p[1], str)
            and all(isinstance(n, (int, type(None))) and not isinstance(n, bool) for n in (p[0], p[2]))
            for p in printed)):
        return "printed text of the wrong shape"
    return None


def duration(answer: dict[str, Any], measured: float) -> float:
    """The block's duration: the page process's own figure where it is one (finite, between zero
    and what the run measured from outside), else the run's."""
    said = answer.get("duration")
    if isinstance(said, (int, float)) and not isinstance(said, bool) and math.isfinite(said) and 0 <= said <= measured:
        return float(said)
    return measured
