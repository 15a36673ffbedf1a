"""The typography of built pages: the spaces French sets before ``: ; ? !`` and inside « », its
apostrophes, and English quotation marks.

The convention is the Imprimerie nationale's, as commonly applied on the web: a
no-break space (U+00A0) before ``:`` and inside guillemets ``« »``, a narrow no-break
space (U+202F) before ``;``, ``?`` and ``!``. An ordinary space there is replaced, a
missing one is added, a right one is left alone, so the pass is idempotent. The
apostrophe of an elision is the typographic one (``l’API``), as in print, and an ordinal is set
as ``1<sup>er</sup>``.

Only what readers read as French prose changes: text outside code (``pre``, ``code``,
``kbd``, ``samp``, ``script``, ``style``, ``textarea``), outside elements marked as
another language (``lang="en"``), outside table-of-contents links to headings that
are code, and the attributes people read (``title``, ``aria-label``, ``alt``,
``placeholder``, a page's description). Punctuation inside a word or a URL is not
prose either: ``12:30``, ``localhost:8000``, ``a?b=1``, ``!important``, ``C:\\Users``,
``https://…``, emoticons such as ``:)``. Inside guillemets, a colon written with no space before
it is left so: the quotation is a title in another language or a name (« requires: »), whose
spacing is its own; one written with a space gets the no-break one.

Text is handled per block (a paragraph, a list item, a cell…), so a colon right after
inline code (``<code>x</code>:``) gets its space too, added to the text beside it.

A number keeps its unit or its percent sign on the same line: ``8 Go``, ``28,6 s`` (no-break
space), ``80 %`` (narrow no-break space); a day keeps its month: ``6 décembre`` (no-break space).

The page is read in one pass with regular expressions, as HTML parsers read it; code blocks
(``pre``, scripts, styles, text areas) are copied unread, and only the attributes that
decide something are parsed: a small share of what ``html.parser`` took, which was most of
a French build's share of the plugin (benchmarks/RESULTS.md, "Figures behind the code").
"""

from __future__ import annotations

import bisect
import html
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

NBSP = "\u00a0"
NNBSP = "\u202f"
#: Elements whose text is code, never prose.
CODE = frozenset({"pre", "code", "kbd", "samp", "script", "style", "textarea"})
#: Elements whose text is already set apart from the line (``1<sup>er</sup>``, a footnote's number): left as it is.
SET_APART = frozenset({"sup", "sub"})
#: Elements that run inside a line of text; any other element starts or ends a block.
INLINE = frozenset({"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "i", "ins", "kbd",
                    "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "tspan"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                  "track", "wbr"})
#: Attributes whose value is read (or heard) as text.
READABLE = frozenset({"title", "aria-label", "alt", "placeholder"})
#: ``<meta name|property=…>`` whose ``content`` is prose.
META_TEXT = frozenset({"description", "og:title", "og:description", "twitter:title", "twitter:description"})

_SPACES = " \t\r\n\f\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" + NBSP + NNBSP
_PUNCTUATION = re.compile(r"[;:!?]+")
_AFTER = re.compile(r"[)\]}\"'’”»]*(?:[\s.,…]|$)")
_EMOTICON = re.compile(r"[:;]'?-?(?:\)+|\(+|[\[\]DPpOo3/\\|*])")


def _wanted(sign: str) -> str:
    return NBSP if sign == ":" else NNBSP


def _is_space(char: str) -> bool:
    return char in _SPACES


@dataclass
class _Piece:
    """A run of text in a block: its characters, and whether it may be changed."""

    token: int
    text: str
    editable: bool


#: An edit of a block's text: ``(start, end, replacement)``.
_Edit = tuple[int, int, str]


def _spaces_before(text: str, at: int) -> int:
    """Where the run of spaces that ends at ``at`` starts (``at`` if there is none)."""
    while at > 0 and _is_space(text[at - 1]):
        at -= 1
    return at


def _spaces_after(text: str, at: int) -> int:
    """Where the run of spaces that starts at ``at`` ends (``at`` if there is none)."""
    while at < len(text) and _is_space(text[at]):
        at += 1
    return at


def _respaced(text: str, editable, start: int, end: int, at: int, space: str) -> _Edit | None:
    """The edit that makes ``text[start:end]`` (spaces, maybe none) the single ``space``, or
    None (already so, or not editable); an insertion goes at ``at``, in the editable character
    it precedes or follows."""
    if text[start:end] == space:
        return None
    if start == end:
        return at, at, space
    if all(editable[start:end]):
        return start, end, space
    return None


def _in_literal(text: str, start: int, end: int) -> bool:
    """Whether the word around ``text[start:end]`` (up to the spaces either side) is an
    address or an emoticon, whose signs are not punctuation."""
    while start > 0 and not _is_space(text[start - 1]):
        start -= 1
    while end < len(text) and not _is_space(text[end]):
        end += 1
    token = text[start:end]
    return "://" in token or token.startswith("www.") or bool(_EMOTICON.fullmatch(token))


def _punctuation_edits(text: str, editable) -> Iterator[_Edit | None]:
    """The space each high sign (``: ; ! ?``) wants before it."""
    for match in _PUNCTUATION.finditer(text):
        a, b = match.span()
        if not editable[a]:
            continue
        k = _spaces_before(text, a)
        if k == 0 or text[k - 1] in "([{«":
            continue  # nothing to hang the sign on, or ``(?)``
        if _in_literal(text, a if k < a else k, b):
            continue
        if not _AFTER.match(text, b):
            continue  # inside a word: ``12:30``, ``a?b``, ``!important``
        if k == a and text[a] == ":" and _quoted(text, a):
            continue  # « ROCm para Stable Diffusion: límites », « requires: »: a quotation keeps its own spacing
        yield _respaced(text, editable, k, a, a, _wanted(text[a]))


def _quoted(text: str, at: int) -> bool:
    """Whether ``text[at]`` is inside guillemets (more « than » before it)."""
    before = text[:at]
    return before.count("«") > before.count("»")


def _guillemet_edits(text: str, editable) -> Iterator[_Edit | None]:
    """The no-break space inside each guillemet: after ``«``, before ``»``."""
    for match in re.finditer("[«»]", text):
        a = match.start()
        if not editable[a]:
            continue
        if text[a] == "«":
            k = _spaces_after(text, a + 1)
            if k < len(text):
                yield _respaced(text, editable, a + 1, k, a + 1, NBSP)
        else:
            k = _spaces_before(text, a)
            if k > 0:
                yield _respaced(text, editable, k, a, a, NBSP)


#: A number and its unit or ``%``, parted by one ordinary space: ``8 Go``, ``28,6 s``, ``80 %``.
_UNIT = re.compile(r"(?<![\w.,])\d+(?:[.,\u202f\u00a0]\d+)* (?P<unit>%|[KMGT]i?[oB]|o|ms|min|s|h)(?![\w'’])")


def _unit_edits(text: str, editable) -> Iterator[_Edit | None]:
    """The space that keeps a number with its unit (no-break) or its ``%`` (narrow no-break)."""
    for match in _UNIT.finditer(text):
        space = match.start("unit") - 1
        if editable[space]:
            yield _respaced(text, editable, space, space + 1, space, NNBSP if match["unit"] == "%" else NBSP)


#: A day and its month, parted by one ordinary space: ``6 décembre``, ``1er mars``.
_DAY = re.compile(r"(?<![\w.,])(?:1er|\d{1,2}) (?:janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre"
                  r"|novembre|décembre)(?![\w'’])")


def _date_edits(text: str, editable) -> Iterator[_Edit | None]:
    """The no-break space that keeps a day with its month (``6 décembre 2026`` never breaks after the 6)."""
    for match in _DAY.finditer(text):
        space = text.index(" ", match.start())
        if editable[space]:
            yield _respaced(text, editable, space, space + 1, space, NBSP)


#: ``1er``, ``1re`` (premier, première): a word of its own.
_FIRST = re.compile(r"(?<![\w.,])1(?:er|re)(?![\w'’])")


def _ordinal_edits(text: str, editable) -> Iterator[_Edit]:
    """The ordinal as print sets it, ``1<sup>er</sup> décembre``: markup, so in a page's text only (an
    attribute keeps ``1er``)."""
    for match in _FIRST.finditer(text):
        if all(editable[match.start():match.end()]):
            yield match.start() + 1, match.end(), f"<sup>{match[0][1:]}</sup>"


def _apostrophe_edits(text: str, editable) -> Iterator[_Edit | None]:
    """The typographic apostrophe of an elision between letters (``l’API``, ``aujourd’hui``, ``qu’il``); a
    straight mark anywhere else (a quotation, an address) is left alone."""
    for match in re.finditer("'", text):
        a = match.start()
        if (editable[a] and 0 < a < len(text) - 1 and text[a - 1].isalpha() and text[a + 1].isalpha()
                and not _in_literal(text, a, a + 1)):
            yield a, a + 1, "’"


def _edits(text: str, editable: list[bool]) -> list[_Edit]:
    """``(start, end, replacement)`` over ``text`` (whose characters may or may not be
    changed, per ``editable``) that give it French spacing and apostrophes."""
    edits = itertools.chain(_punctuation_edits(text, editable), _guillemet_edits(text, editable),
                            _unit_edits(text, editable), _date_edits(text, editable),
                            _apostrophe_edits(text, editable))
    return sorted({edit for edit in edits if edit is not None})  # « » asks twice for the space between them


def _page_edits(text: str, editable: list[bool]) -> list[_Edit]:
    """`_edits`, and the superscript of ``1er``: the edits of a page's text, where markup may go."""
    return sorted({*_edits(text, editable), *_ordinal_edits(text, editable)})


def french_text(text: str) -> str:
    """French spacing in plain text (an attribute's value, a string)."""
    out = text
    for start, end, new in sorted(_edits(text, [True] * len(text)), reverse=True):
        out = out[:start] + new + out[end:]
    return out


#: One token of the page: a comment or declaration, a tag, or a character reference; the
#: text between them is text. ``<`` that opens no tag and ``&`` that starts no reference
#: are text too, as HTML parsers read them.
_TOKEN = re.compile(r"""
    <!--.*?(?:-->|\Z) | <![^>]*>? | <\?[^>]*>?
  | </(?P<end>[a-zA-Z][^\s/>]*)[^>]*>?
  | <(?P<start>[a-zA-Z][^\s/>]*)(?P<attrs>(?:[^>"']|"[^"]*"|'[^']*')*)>
  | (?P<ref>&(?:[a-zA-Z][a-zA-Z0-9]*|\#[0-9]+|\#[xX][0-9a-fA-F]+);)
""", re.S | re.X)
#: An attribute in a start tag: its name, and its value quoted either way or not at all.
_ATTRIBUTE = re.compile(r"""([^\s/>"'=][^\s/>=]*)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]*))?""")
#: A start tag with an attribute that decides something here (the others are never read).
_READ_ATTRIBUTES = re.compile(r"\s(?:lang|href|title|aria-label|alt|placeholder|content)\s*=", re.I)
#: Code elements that are blocks: everything up to their end tag is left as it is, unread.
_CODE_BLOCKS = {tag: re.compile(rf"<(/?){tag}(?=[\s/>])", re.I) for tag in ("pre", "script", "style", "textarea")}
#: A heading, its attributes and its content.
_HEADINGS = re.compile(r"<(h[1-6])(\s[^>]*)?>(.*?)</\1\s*>", re.S | re.I)
#: A sign French spacing is about: a block without one in its prose is left alone.
_SIGNS = re.compile(r"[;:!?«»']|\d [%A-Za-z]|1er|1re")


def _attributes(inside: str) -> dict[str, str | None]:
    """A start tag's attributes: names lowercased, values unquoted and unescaped, ``None``
    for an attribute without a value (the last of a repeated name counts)."""
    found = {}
    for match in _ATTRIBUTE.finditer(inside):
        name, value = match.groups()
        if value is not None:
            value = html.unescape(value[1:-1] if value[:1] in ("'", '"') else value)
        found[name.lower()] = value
    return found


def _block_end(page: str, tag: str, position: int) -> int:
    """Where the code block ``tag`` opened before ``position`` ends (after its end tag; the
    end of the page where it is not closed). ``<pre>`` may hold ``<pre>``; scripts, styles
    and text areas hold raw text, where nothing is a tag but their end tag."""
    pattern, depth = _CODE_BLOCKS[tag], 1
    for match in pattern.finditer(page, position):
        if not match[1]:
            depth += tag == "pre"
            continue
        depth -= 1
        if depth == 0:
            close = page.find(">", match.end())
            return len(page) if close < 0 else close + 1
    return len(page)


def _code_headings(page: str) -> set[str]:
    """Ids of headings whose whole text is code: their table-of-contents entries are
    that code, shown without its ``<code>``."""
    found: set[str] = set()
    for heading in _HEADINGS.finditer(page):
        ident = _attributes(heading[2] or "").get("id")
        if not ident or "<code" not in heading[3]:
            continue
        inside: list[str | None] = []  # per element open in the heading: "code", "skip" (the ¶ link) or None
        code = prose = False
        position, content = 0, heading[3]
        for match in _TOKEN.finditer(content):
            if content[position:match.start()].strip():
                code, prose = code or "code" in inside, prose or ("code" not in inside and "skip" not in inside)
            position = match.end()
            tag = match["start"]
            if tag and not match.group().endswith("/>") and tag.lower() not in VOID:
                tag = tag.lower()
                headerlink = tag == "a" and "headerlink" in (_attributes(match["attrs"]).get("class") or "")
                inside.append("code" if tag == "code" else "skip" if headerlink else None)
            elif match["end"] and inside:
                inside.pop()
            elif match["ref"] and html.unescape(match.group()).strip():
                code, prose = code or "code" in inside, prose or ("code" not in inside and "skip" not in inside)
        if content[position:].strip():
            code, prose = code or "code" in inside, prose or ("code" not in inside and "skip" not in inside)
        if code and not prose:
            found.add(ident)
    return found


def _is_permalink(attrs: dict) -> bool:
    """The permalink the toc extension appends to a heading (``<a class="headerlink" href="#id">¶</a>``)."""
    return "headerlink" in (attrs.get("class") or "").split() and (attrs.get("href") or "").startswith("#")


def _attribute(raw: str, name: str, value: str) -> str:
    """``raw`` (a start tag) with attribute ``name`` set to ``value``."""
    pattern = re.compile(rf"(\s{re.escape(name)}\s*=\s*)(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.I)
    return pattern.sub(lambda m: m[1] + '"' + html.escape(value, quote=True) + '"', raw, count=1)


def _readable_attributes(tag: str, values: dict, raw: str, plain: Callable[[str], str]) -> str:
    """``raw`` with the values people read (a title, a page's description) set by ``plain``."""
    names = [n for n in READABLE if values.get(n)]
    describes = values.get("name") in META_TEXT or values.get("property") in META_TEXT
    if tag == "meta" and describes and values.get("content"):
        names.append("content")
    for name in names:
        fixed = plain(values[name])
        if fixed != values[name]:
            raw = _attribute(raw, name, fixed)
    return raw


def _respace(flow: list[_Piece], out: list[str], rules: _Rules) -> None:
    """The ``rules``' edits in one block's text, ``flow``: its pieces' new text goes to ``out``."""
    if not any(piece.editable and rules.signs.search(piece.text) for piece in flow):
        return
    text = "".join(p.text for p in flow)
    starts = list(itertools.accumulate((len(p.text) for p in flow[:-1]), initial=0))
    editable = b"".join((b"\1" if p.editable else b"\0") * len(p.text) for p in flow)

    def owner(position: int) -> tuple[int, int]:
        n = bisect.bisect_right(starts, position) - 1
        return n, position - starts[n]

    changes: dict[int, list[tuple[int, int, str]]] = {}
    for start, end, new in rules.edits(text, editable):
        if start == end:  # an insertion: into the editable character it precedes, else follows
            if start < len(text) and editable[start]:
                n, i = owner(start)
            else:
                n, i = owner(start - 1)
                i += 1
            changes.setdefault(n, []).append((i, i, new))
            continue
        for pos in range(start, end):
            n, i = owner(pos)
            changes.setdefault(n, []).append((i, i + 1, new if pos == start else ""))
    for n, piece_edits in changes.items():
        value = flow[n].text
        for a, b, new in sorted(piece_edits, reverse=True):
            value = value[:a] + new + value[b:]
        out[flow[n].token] = value


def _inside(tag: str, attrs: dict, code: bool, in_language: bool, code_ids: set[str],
            lang: str) -> tuple[bool, bool]:
    """Whether the content of the element ``tag`` opens (with ``attrs``, inside an element
    whose content is ``code`` and ``in_language``) is code, and is in ``lang``: code stays code, a
    link to a heading of code is code, a superscript is set apart, and a lang= attribute sets the element’s language."""
    href = attrs.get("href") or ""
    code = code or tag in CODE or tag in SET_APART or (tag == "a" and href.startswith("#") and href[1:] in code_ids)
    if attrs.get("lang") is not None:
        in_language = attrs["lang"].lower().startswith(lang)
    return code, in_language


def _close(stack: list[tuple[str, bool, bool]], open_tags: dict[str, int], tag: str) -> None:
    """Close the innermost open ``tag`` and every element opened inside it; an end tag of no
    open element closes nothing."""
    if not open_tags.get(tag):
        return
    while stack:
        closed = stack.pop()[0]
        open_tags[closed] -= 1
        if closed == tag:
            break


@dataclass(frozen=True)
class _Rules:
    """A language's typography: the language (a ``lang`` prefix), the edits of a block's text,
    a sign without which a block is left alone, and the same edits for plain text (attributes)."""

    lang: str
    edits: Callable[[str, list[bool]], list[_Edit]]
    signs: re.Pattern[str]
    plain: Callable[[str], str]


#: Where a quotation mark opens rather than closes: after these (or at the start of a block).
_OPENS_AFTER = frozenset(_SPACES) | frozenset("([{“‘—–/-")


def _quote_edits(text: str, editable: list[bool]) -> list[_Edit]:
    """The curly form of each straight quotation mark and apostrophe: ``“`` or ``‘`` where it opens
    (at the start, after a space or an opening bracket), ``”`` or ``’`` elsewhere (``it’s``, the
    guides’ blocks). A mark alone between spaces, or in an address, is left alone."""
    edits = []
    for match in re.finditer("[\"']", text):
        a = match.start()
        if not editable[a] or _in_literal(text, a, a + 1):
            continue
        opens = a == 0 or text[a - 1] in _OPENS_AFTER
        if opens and (a + 1 == len(text) or _is_space(text[a + 1])):
            continue
        edits.append((a, a + 1, ("“" if opens else "”") if match[0] == '"' else ("‘" if opens else "’")))
    return edits


def english_text(text: str) -> str:
    """English quotation marks and apostrophes in plain text (an attribute's value, a string)."""
    out = text
    for start, end, new in sorted(_quote_edits(text, [True] * len(text)), reverse=True):
        out = out[:start] + new + out[end:]
    return out


_FRENCH = _Rules("fr", _page_edits, _SIGNS, french_text)
_ENGLISH = _Rules("en", _quote_edits, re.compile("[\"']"), english_text)


def french(page: str) -> str:
    """``page`` (HTML) with French spacing in its prose; code is left byte for byte."""
    return _Walk(page, _FRENCH, True).run()


def english(page: str, default: bool = True) -> str:
    """``page`` (HTML) with English quotation marks and apostrophes (“ ” ‘ ’) in its English
    prose: the whole page where it is English (``default``, or ``<html lang="en">``), else only
    the elements marked ``lang="en"`` (the API's docstrings on a Spanish page). Code is left byte
    for byte."""
    return _Walk(page, _ENGLISH, default).run()


class _Walk:
    """One walk through a page's HTML: text between tags is gathered into a flow of prose, edited
    by the language's ``rules`` where a block-level tag ends it."""

    def __init__(self, page: str, rules: _Rules, default: bool) -> None:
        self.page, self.rules, self.default = page, rules, default
        self.code_ids = _code_headings(page)
        self.out: list[str] = []
        # open elements: (tag, inside code, in the rules' language); a lang= attribute sets the language
        # of its element (``<div lang="fr">`` inside a Spanish page body is French again), code stays code
        self.stack: list[tuple[str, bool, bool]] = []
        self.open_tags: dict[str, int] = {}
        self.flow: list[_Piece] = []

    def flush(self) -> None:
        if self.flow:
            _respace(self.flow, self.out, self.rules)
            self.flow.clear()

    def run(self) -> str:
        page, out = self.page, self.out
        position = 0
        while True:
            match = _TOKEN.search(page, position)
            at = match.start() if match else len(page)
            if at > position:
                code, here = self.stack[-1][1:] if self.stack else (False, self.default)
                out.append(page[position:at])
                self.flow.append(_Piece(len(out) - 1, out[-1], here and not code))
            if match is None:
                break
            raw, position = match.group(), match.end()
            if match["start"]:
                position = self.start_tag(match, at, position)
            elif match["end"]:
                tag = match["end"].lower()
                if tag not in INLINE:
                    self.flush()
                out.append(raw)
                _close(self.stack, self.open_tags, tag)
            else:
                out.append(raw)
                if match["ref"]:
                    # an escaped apostrophe (``n&#x27;a``, as templates write one) is prose like any other
                    char = html.unescape(raw)
                    code, here = self.stack[-1][1:] if self.stack else (False, self.default)
                    self.flow.append(_Piece(len(out) - 1, char, char == "'" and here and not code))
        self.flush()
        return "".join(out)

    def start_tag(self, match: re.Match[str], at: int, position: int) -> int:
        """A start tag: its attributes in the language's typography where its text is in that language; a
        code block passed over whole.
        Returns where the walk goes on."""
        raw, tag = match.group(), match["start"].lower()
        if tag not in INLINE:
            self.flush()
        empty = raw.endswith("/>")
        if tag in _CODE_BLOCKS and not empty:  # left as it is, up to its end tag
            position = _block_end(self.page, tag, position)
            self.out.append(self.page[at:position])
            self.flush()
            return position
        code, here = self.stack[-1][1:] if self.stack else (False, self.default)
        attrs = _attributes(match["attrs"]) if _READ_ATTRIBUTES.search(raw) else {}
        if tag == "a" and _is_permalink(attrs):
            self.flush()  # the heading's text ends before its ¶: « Pourquoi ?¶ » would read as one word
        code, here = _inside(tag, attrs, code, here, self.code_ids, self.rules.lang)
        self.out.append(_readable_attributes(tag, attrs, raw, self.rules.plain) if here and not code and attrs else raw)
        if not empty and tag not in VOID:
            self.stack.append((tag, code, here))
            self.open_tags[tag] = self.open_tags.get(tag, 0) + 1
        return position
