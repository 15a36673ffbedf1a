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


def test_what_follows_a_block_with_code_annotations_goes_after_their_list():
    annotated = markers.wrap(NONCE, 0, '<pre>x = 1  <span class="c1"># (1)!</span></pre>')
    plain = markers.wrap(NONCE, 1, "<pre>y = 2</pre>")
    html = annotated + "\n<ol>\n<li>one<ol><li>nested</li></ol></li>\n</ol>\n<p>p</p>" + plain + "\n<ol><li>a list</li></ol>"
    filled = markers.fill(html, NONCE, {}, {0: "[panel 0]", 1: "[panel 1]"}, {})
    assert filled == ('<pre>x = 1  <span class="c1"># (1)!</span></pre>\n<ol>\n<li>one<ol><li>nested</li></ol></li>\n'
                      '</ol>[panel 0]\n<p>p</p><pre>y = 2</pre>[panel 1]\n<ol><li>a list</li></ol>')
