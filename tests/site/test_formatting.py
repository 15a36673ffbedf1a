"""site.formatting: quantities, sizes, durations, dates and lists in each language."""

from __future__ import annotations

import datetime as dt

import pytest

from ruota_docs.site import formatting

NB = "\u00a0"


# -- numbers, units, dates -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "unit", "lang", "expected"), [
    (8, "GiB", "fr", f"8{NB}Gio"), (67.2, "MiB", "fr", f"67,2{NB}Mio"), (512, "KiB", "fr", f"512{NB}Kio"),
    (3, "B", "fr", f"3{NB}o"), (8, "GiB", "es", f"8{NB}GiB"), (67.2, "MiB", "en", f"67.2{NB}MiB"),
    (12, "s", "fr", f"12{NB}s"), (1081.4, "MiB", "es", f"1081,4{NB}MiB"), (5, "", "es", "5"),
])
def test_quantities(value, unit, lang, expected):
    assert formatting.quantity(value, unit, lang) == expected


def test_sizes_as_the_requirement_vocabulary_writes_them():
    assert formatting.size("8GiB", "fr") == f"8{NB}Gio"
    assert formatting.size("512MiB", "es") == f"512{NB}MiB"
    assert formatting.size("1.5GiB", "en") == f"1.5{NB}GiB"


@pytest.mark.parametrize(("value", "lang", "expected"), [
    (0.001, "es", f"0,01{NB}s"), (0.42, "fr", f"0,42{NB}s"), (14.04, "en", f"14{NB}s"),
    (17.14, "es", f"17{NB}s"), (125, "fr", f"2{NB}min 5{NB}s"), (120, "en", f"2{NB}min"),
    # hundredths, tenths, then whole seconds, zeros kept: the steps of the shortest shown ("2.0 s" beside "2.7 s")
    (1.23, "en", f"1.2{NB}s"), (1.2, "en", f"1.2{NB}s"), (3, "en", f"3.0{NB}s"), (3.08, "es", f"3,1{NB}s"),
    (0.1, "en", f"0.10{NB}s"), (0.05, "fr", f"0,05{NB}s"), (0.0123, "fr", f"0,01{NB}s"), (0.016, "en", f"0.02{NB}s"),
    (0.996, "en", f"1.0{NB}s"), (9.96, "en", f"10{NB}s"), (59.7, "en", f"1{NB}min"),
])
def test_durations(value, lang, expected):
    assert formatting.seconds(value, lang) == expected


def test_a_duration_under_the_shortest_shown_is_worded_as_less_than_it():
    assert formatting.seconds_under(0.004) and not formatting.seconds_under(0.01)
    assert formatting.seconds_under(float("nan")) is False


def test_spanish_joins_alternatives_after_a_negation_with_ni():
    assert formatting.join(["gfx906", "gfx1030", "gfx1102"], "es", style="nor") == "gfx906, gfx1030 ni gfx1102"
    assert formatting.join(["gfx1102", "gfx1100"], "en", style="nor") == "gfx1102 or gfx1100"
    assert formatting.join(["gfx1031", "gfx1032"], "fr", style="nor") == "gfx1031 ni gfx1032"  # after a negation: « pas encore pour gfx1031 ni gfx1032 »
    assert formatting.join(["gfx906"], "es", style="nor") == "gfx906"
    assert formatting.join(["une NVIDIA H100", "sur un CPU x86-64"], "fr", style="neither") == \
        "une NVIDIA H100 ni sur un CPU x86-64"
    assert formatting.join(["a", "b", "c"], "fr", style="neither") == "a ni b ni c"
    assert formatting.join(["una NVIDIA H100", "en una CPU x86-64"], "es", style="neither") == \
        "una NVIDIA H100 y en una CPU x86-64"


@pytest.mark.parametrize(("day", "lang", "style", "expected"), [
    (dt.datetime(2026, 11, 29, 10), "es", "long", "29 de noviembre de 2026"),
    (dt.datetime(2026, 12, 1, 10), "fr", "long", "1er décembre 2026"),
    (dt.datetime(2026, 12, 1, 10), "fr", "medium", "1er déc. 2026"),
    (dt.datetime(2026, 11, 29, 10), "fr", "long", "29 novembre 2026"),
    (dt.datetime(2026, 11, 29, 10), "en", "long", "29 November 2026"),
    (dt.datetime(2026, 11, 29, 10), "es", "medium", "29 nov. 2026"),
])
def test_dates(day, lang, style, expected):
    assert formatting.date(day, lang, style) == expected
    assert formatting.date(day.isoformat() + "Z", lang, style) == expected


def test_no_date():
    assert formatting.date(None, "fr") == formatting.date("not a date", "es") == "—"


def test_lists_in_each_language():
    items = ["CPU x86_64", "NVIDIA H200 (CUDA)", "AMD Radeon VII (ROCm, gfx906)"]
    assert formatting.join(items, "es") == "CPU x86_64, NVIDIA H200 (CUDA) y AMD Radeon VII (ROCm, gfx906)"
    assert formatting.join(items[:2], "fr") == "CPU x86_64 et NVIDIA H200 (CUDA)"
    assert formatting.join(items, "en") == "CPU x86_64, NVIDIA H200 (CUDA) and AMD Radeon VII (ROCm, gfx906)"
    assert formatting.join(["gfx906", "gfx1102"], "es", "or") == "gfx906 o gfx1102"
