"""run.process.worker: the page process's messages and its memory limit."""

from __future__ import annotations

import os

import pytest

from ruota_docs.run.process import worker


def test_messages_cross_a_pipe_whole():
    read, write = os.pipe()
    try:
        worker.send(write, {"code": "print(1)\n" * 1000, "line": 3})
        assert worker.receive(read) == {"code": "print(1)\n" * 1000, "line": 3}
        os.close(write)
        write = -1
        assert worker.receive(read) is None  # the other end closed
    finally:
        os.close(read)
        if write != -1:
            os.close(write)


@pytest.mark.parametrize(("value", "expected"), [
    (None, None), ("  ", None), ("1073741824", 1073741824), ("1GiB", 2**30), ("512MiB", 512 * 2**20), ("1.5 GiB", 3 * 2**29),
])
def test_memory_limit_sizes(value, expected):
    assert worker.memory_limit(value) == expected


@pytest.mark.parametrize("value", ["lots", "0", "-1GiB", "12parsecs"])
def test_a_memory_limit_that_is_not_a_size_is_an_error(value):
    with pytest.raises(worker.MemoryLimitError, match="is not a size"):
        worker.memory_limit(value)
