"""Hostile input kept bounded (`ruota_docs.records.bounds`): reading, nesting, numbers, characters, names."""

from __future__ import annotations

import os

import pytest

from ruota_docs.records import bounds


def test_a_device_is_never_read_and_a_large_file_is_refused_before_reading(tmp_path):
    with pytest.raises(bounds.NotRegular):
        bounds.read("/dev/zero", 1024)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2048)
    with pytest.raises(bounds.TooLarge, match="2,048 bytes"):
        bounds.read(big, 1024)
    assert bounds.read(big, 4096) == b" " * 2048
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(bounds.NotRegular):
        bounds.read(fifo, 1024)  # opened without blocking, refused before any read


def test_nesting_is_counted_outside_strings():
    assert bounds.depth_problem(b"[" * 17 + b"]" * 17).startswith("objects and arrays nest more than 16")
    assert bounds.depth_problem(b'{"a": "' + b"[" * 40 + b'\\"[", "b": [[1]]}') is None
    assert bounds.depth_problem(b"[" * 16 + b"]" * 16) is None


@pytest.mark.parametrize("raw, message", [
    (b'{"a": NaN}', "NaN is not a number a record may hold"),
    (b'{"a": -Infinity}', "-Infinity is not a number a record may hold"),
    (b'{"a": 1e999}', "1e999 is not a finite number"),
    (b'{"a": 1' + b"0" * 30 + b"}", "an integer of 31 digits"),
])
def test_numbers_a_reader_cannot_show_are_refused(raw, message):
    with pytest.raises(ValueError, match=message):
        bounds.loads(raw)
    assert bounds.loads(b'{"a": 1.5e3, "b": 12}') == {"a": 1500.0, "b": 12}


def test_characters_and_names():
    found = dict(bounds.problems({
        "machine": {"gpu_name": "AMD Radeon RX 7600\u202e", "os": "li\tnux", "torch": "x" * 201},
        "outputs": {"a": "tab\there\r\nline\n", "b": "zero\u200bwidth", "c": "bell\a"},
        "pages": {"p\x1b.md": {}}}))
    assert found["machine.gpu_name"].startswith("holds U+202E (RIGHT-TO-LEFT OVERRIDE)")
    assert found["machine.os"].startswith("holds the control character U+0009")  # a name is one line
    assert found["machine.torch"].startswith("201 characters")
    assert "outputs.a" not in found  # tabs and line ends are what blocks print
    assert found["outputs.b"].startswith("holds U+200B")
    assert found["outputs.c"].startswith("holds the control character U+0007")
    # the place is named escaped too: a report never writes a control character to a terminal or a log
    assert found["pages.p\\u001b.md"] == 'the key "p\\u001b.md" holds the control character U+001B at character 2: ' \
                                        "a name is one line of printable text"


def test_metric_lines_hold_numbers_a_reader_can_be_shown():
    assert bounds.metric_problems("peak_mib: 67.2\nratio = 1e-3\n") == []
    assert len(bounds.metric_problems("peak_mib: 1e999\nops: -1e308\nbig: " + "9" * 40 + "\n")) == 3
    assert bounds.usable_number("67.20") and not bounds.usable_number("nan") and not bounds.usable_number("1e16")
