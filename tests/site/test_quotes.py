"""site.quotes: the docstrings of the API reference with curly quotation marks and apostrophes."""

from __future__ import annotations

from ruota_docs.site import quotes

DOC = '<div class="doc doc-object doc-class">{}</div>'


def test_docstring_text_gets_curly_quotes_and_apostrophes():
    page = DOC.format("<p>This machine's system, a Cyrillic \"А\" in \"AMD\", the records' fields.</p>")
    assert quotes.english_docstrings(page) == DOC.format(
        "<p>This machine’s system, a Cyrillic “А” in “AMD”, the records’ fields.</p>")


def test_code_attributes_and_the_pages_own_prose_keep_their_marks():
    prose = "<p>L'API, \"tel quel\".</p>"
    inner = ('<p title="a \'b\'">Use <code>x = "a"</code>\'s value and <code>"s"</code>, '
             "'single' words.</p><pre><code>print('hi')</code></pre>")
    shown = quotes.english_docstrings(prose + DOC.format(inner) + prose)
    assert shown.startswith(prose) and shown.endswith(prose)  # outside the docstring: as written
    assert ('<p title="a \'b\'">Use <code>x = "a"</code>’s value and <code>"s"</code>, ‘single’ words.</p>'
            "<pre><code>print('hi')</code></pre>") in shown


def test_a_quotation_around_code_opens_and_closes():
    page = DOC.format('<p>a Cyrillic "<code>А</code>" in <div>nested</div> "AMD"</p>') + "<p>\"after\"</p>"
    assert quotes.english_docstrings(page) == DOC.format(
        "<p>a Cyrillic “<code>А</code>” in <div>nested</div> “AMD”</p>") + "<p>\"after\"</p>"


def test_a_page_without_docstrings_is_returned_as_is():
    page = "<p>It's \"here\".</p>"
    assert quotes.english_docstrings(page) is page
