"""Curly quotation marks and apostrophes in the API reference's docstrings, as in the rest of the site.

Docstrings are written in source code with straight quotes (``"AMD"``, ``machine's``); the pages
around them use “ ” and ’. Only the text of the docstrings changes (inside mkdocstrings' ``doc
doc-object`` blocks), never code (``pre``, ``code``, ``kbd``, ``samp``, ``script``, ``style``,
``textarea``), attributes or the page's own prose, whose apostrophes follow its language's rules.

A quotation mark opens where it follows a space, the start of the text or an opening bracket and
comes before a letter; it closes elsewhere. An apostrophe between two letters, or after one (the
plural possessive, "records' fields"), is ’. Code right before a mark counts as a letter:
``<code>Record</code>'s`` reads “Record’s”.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"<!--.*?-->|<[^>]*>", re.S)
_CODE = re.compile(r"<(/?)(pre|code|kbd|samp|script|style|textarea)(?=[\s/>])", re.I)
_DIV = re.compile(r"<(/?)div(?=[\s/>])", re.I)
#: Where mkdocstrings opens an object's documentation (its ``class`` begins so, whatever follows).
_DOCSTRING = re.compile(r'<div\s[^>]*class="doc doc-object\b')
_OPENERS = " \t\r\n\u00a0([{“‘—–/"


def _curled(text: str, before: str) -> str:
    """``text`` with its straight quotes curled; ``before``: the character read just before it."""
    out = []
    for at, char in enumerate(text):
        previous = out[-1] if out else before
        following = text[at + 1:at + 2]
        if char == '"':
            out.append("“" if previous in _OPENERS and not following.isspace() else "”")
        elif char == "'":
            opens = previous in _OPENERS and (following.isalnum() or not following)
            out.append("‘" if opens else "’")
        else:
            out.append(char)
    return "".join(out)


def english_docstrings(page: str) -> str:
    """``page`` (HTML) with the quotes of its docstrings' text curled; the rest as it was."""
    if not _DOCSTRING.search(page):
        return page
    out: list[str] = []
    depth = 0  # how many divs deep inside a docstring block (0: outside)
    code = 0  # how many code elements deep
    before = " "  # the last character a reader sees before the next text
    position = 0
    for token in _TOKEN.finditer(page):
        text = page[position:token.start()]
        if text:
            inside = depth and not code
            out.append(_curled(text.replace("&quot;", '"').replace("&#39;", "'"), before) if inside else text)
            before = "a" if code else text[-1]
        tag = token.group(0)
        if depth == 0 and _DOCSTRING.match(tag):
            depth = 1
        elif depth and (div := _DIV.match(tag)):
            depth += -1 if div.group(1) else (0 if tag.endswith("/>") else 1)
        if (element := _CODE.match(tag)) is not None:
            code = max(0, code - 1) if element.group(1) else code + 1
        out.append(tag)
        position = token.end()
    out.append(page[position:])
    return "".join(out)
