"""The page process's answer as the test run reads it: by the deadline, bounded, checked."""

from __future__ import annotations

import math
import os
import struct
import time

import pytest

from ruota_docs.run.process import answer
from ruota_docs.run.process.worker import send


@pytest.fixture
def pipe():
    read, write = os.pipe()
    yield read, write
    for fd in (read, write):
        try:
            os.close(fd)
        except OSError:
            pass


def soon(seconds: float = 1.0) -> float:
    return time.perf_counter() + seconds


def test_an_answer_of_the_page_process_is_read(pipe):
    read, write = pipe
    send(write, {"ok": False, "error": "Boom\n", "errno": 28, "printed": [[3, "x\n", 3], [None, "y", None]], "duration": 0.5})
    assert answer.receive(read, soon()) == (answer.ANSWER, {"ok": False, "error": "Boom\n", "errno": 28,
                                                             "printed": [[3, "x\n", 3], [None, "y", None]], "duration": 0.5})


def test_the_end_of_the_pipe_and_a_late_answer(pipe):
    read, write = pipe
    started = time.perf_counter()
    assert answer.receive(read, soon(0.2)) == (answer.LATE, None)
    assert 0.15 < time.perf_counter() - started < 2
    os.write(write, struct.pack("!I", 100) + b"{")  # promised, then silence
    assert answer.receive(read, soon(0.2)) == (answer.LATE, None)
    os.close(write)
    assert answer.receive(read, soon()) == (answer.CLOSED, None)


def frame(data: bytes) -> bytes:
    return struct.pack("!I", len(data)) + data


@pytest.mark.parametrize(("frame", "said"), [
    (struct.pack("!I", 2**31), "an answer of 2,147,483,648 bytes (at most 67,108,864)"),
    (frame(b"{x}"), "an answer that is not JSON"),
    (frame(b"[]"), "an answer without its outcome"),
    (frame(b'{"ok": true, "error": 12}'), "an error that is not text"),
    (frame(b'{"ok": true, "errno": "ENOSPC"}'), "an errno that is not a number"),
    (frame(b'{"ok": true, "printed": "x"}'), "printed text of the wrong shape"),
    (frame(b'{"ok": true, "printed": [[1, "x"]]}'), "printed text of the wrong shape"),  # no print line
    (struct.pack("!I", 10) + b'{"ok"', "an answer cut short"),
])
def test_a_malformed_answer_says_what_is_wrong(pipe, frame, said):
    read, write = pipe
    os.write(write, frame)
    if said == "an answer cut short":
        os.close(write)
    assert answer.receive(read, soon()) == (answer.MALFORMED, said)


@pytest.mark.parametrize(("said", "kept"), [(0.25, 0.25), (0, 0.0), (math.nan, 2.0), (math.inf, 2.0), (-1, 2.0),
                                            (5.0, 2.0), ("1", 2.0), (True, 2.0), (None, 2.0)])
def test_a_duration_is_kept_only_where_it_is_one(said, kept):
    assert answer.duration({"duration": said}, 2.0) == kept
