"""site.charts: the numbers a block printed, drawn as SVG bars with the same numbers in text."""

from __future__ import annotations

from ruota_docs.site import charts
from ruota_docs.site.formatting import NBSP


def test_the_last_value_printed_under_a_name():
    output = "epoch 1\nloss: 0.9\nloss = 0.35\nval_loss: 1e-2\n"
    assert charts.metric_text(output, "loss") == "0.35"
    assert charts.metric(output, "val_loss") == 0.01
    assert charts.metric(output, "accuracy") is None and charts.metric(None, "loss") is None


def test_bars_are_as_long_as_their_values_and_a_missing_value_is_a_dash():
    svg = charts.bar_chart("Time <s>", [("H200", [("", 2.0, "measured")]), ("RX 7600", [("", 1.0, "reported")]),
                                        ("CPU", [("", None, "measured")])], "s", lambda v: f"{v:.1f}")
    assert svg.startswith('<svg class="ruota-chart" role="img"') and "<title>Time &lt;s&gt;</title>" in svg
    assert 'width="360.0"' in svg and 'width="180.0"' in svg  # the longest bar fills the column
    assert f"2.0{NBSP}s" in svg and 'fill="url(#ruota-hatch)"' in svg and ">—</text>" in svg


def test_a_group_of_named_series_gets_a_heading_and_long_labels_are_cut():
    label = "x" * 50
    svg = charts.bar_chart("t", [("NVIDIA H200 (CUDA)", [(label, 1.0, "measured"), ("b", 2.0, "measured")])], "", str)
    assert 'class="ruota-chart-group">NVIDIA H200 (CUDA)</text>' in svg
    assert "x" * 37 + "…" in svg and label not in svg
