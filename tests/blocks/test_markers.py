"""blocks.markers: the empty div markers around each rendered block, found and filled in the HTML."""

from __future__ import annotations

from ruota_docs.blocks import markers

NONCE = "ab12"


def page() -> str:
    return ("<p>a</p>" + markers.wrap(NONCE, 0, "<pre>0</pre>") + markers.directive(NONCE, 5)
            + "<!-- " + markers.wrap(NONCE, 1, "<pre>1</pre>") + " -->" + markers.wrap("ffff", 2, "<pre>2</pre>")
            + markers.wrap(NONCE, 3, "<pre>3</pre>") + "<p>z</p>")


def test_only_blocks_outside_comments_and_of_this_nonce_are_visible():
    assert markers.visible_blocks(page(), NONCE) == [0, 3]


def test_fill_puts_what_goes_around_each_block_and_drops_every_other_marker():
    html = markers.fill(page(), NONCE, {0: "[0", 3: "[3"}, {0: "0]"}, {5: "<d>"})
    assert html.startswith("<p>a</p>[0<pre>0</pre>0]<d><!-- <pre>1</pre> --><pre>2</pre>[3<pre>3</pre><p>z</p>")
    assert "data-ruota" not in html


def test_outside_blocks_is_the_html_between_them_without_comments():
    stretches = markers.outside_blocks(page(), NONCE)
    assert [text for _, text in stretches] == ["<p>a</p>", markers.directive(NONCE, 5) + markers.wrap("ffff", 2, "<pre>2</pre>"),
                                               "<p>z</p>"]
    assert stretches[0][0] == 0


def test_elements_are_the_same_markers():
    start, end = markers.elements(NONCE, 7)
    assert (start.get("data-ruota-block"), end.get("data-ruota-end")) == ("ab12:7", "ab12:7")
