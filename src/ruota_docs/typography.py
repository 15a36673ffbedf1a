"""French typography of built pages: the spaces French sets before ``: ; ? !`` and inside « ».

The convention is the Imprimerie nationale's, as commonly applied on the web: a
no-break space (U+00A0) before ``:`` and inside guillemets ``« »``, a narrow no-break
space (U+202F) before ``;``, ``?`` and ``!``. An ordinary space there is replaced, a
missing one is added, a right one is left alone, so the pass is idempotent.

Only what readers read as French prose changes: text outside code (``pre``, ``code``,
``kbd``, ``samp``, ``script``, ``style``, ``textarea``), outside elements marked as
another language (``lang="en"``), outside table-of-contents links to headings that
are code, and the attributes people read (``title``, ``aria-label``, ``alt``,
``placeholder``, a page's description). Punctuation inside a word or a URL is not
prose either: ``12:30``, ``localhost:8000``, ``a?b=1``, ``!important``, ``C:\\Users``,
``https://…``, emoticons such as ``:)``.

Text is handled per block (a paragraph, a list item, a cell…), so a colon right after
inline code (``<code>x</code>:``) gets its space too, added to the text beside it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser

NBSP = "\u00a0"
NNBSP = "\u202f"
#: Elements whose text is code, never prose.
CODE = frozenset({"pre", "code", "kbd", "samp", "script", "style", "textarea"})
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
_HEADING = re.compile(r"h[1-6]")


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


def _edits(text: str, editable: list[bool]) -> list[tuple[int, int, str]]:
    """``(start, end, replacement)`` over ``text`` (whose characters may or may not be
    changed, per ``editable``) that give it French spacing."""
    edits = []

    def respace(start: int, end: int, at: int, space: str) -> None:
        """Make ``text[start:end]`` (spaces, maybe none) the single ``space``; an
        insertion goes at ``at``, in the editable character it precedes or follows."""
        if text[start:end] == space:
            return
        if start == end:
            edits.append((at, at, space))
        elif all(editable[start:end]):
            edits.append((start, end, space))

    for match in _PUNCTUATION.finditer(text):
        a, b = match.span()
        if not editable[a]:
            continue
        k = a
        while k > 0 and _is_space(text[k - 1]):
            k -= 1
        if k == 0 or text[k - 1] in "([{«":
            continue  # nothing to hang the sign on, or ``(?)``
        start = a if k < a else k
        while start > 0 and not _is_space(text[start - 1]):
            start -= 1
        end = b
        while end < len(text) and not _is_space(text[end]):
            end += 1
        token = text[start:end]
        if "://" in token or token.startswith("www.") or _EMOTICON.fullmatch(token):
            continue
        if not _AFTER.match(text, b):
            continue  # inside a word: ``12:30``, ``a?b``, ``!important``
        respace(k, a, a, _wanted(text[a]))
    for match in re.finditer("[«»]", text):
        a = match.start()
        if not editable[a]:
            continue
        if text[a] == "«":
            k = a + 1
            while k < len(text) and _is_space(text[k]):
                k += 1
            if k < len(text):
                respace(a + 1, k, a + 1, NBSP)
        else:
            k = a
            while k > 0 and _is_space(text[k - 1]):
                k -= 1
            if k > 0:
                respace(k, a, a, NBSP)
    return sorted(set(edits))  # « » asks twice for the space between them


def french_text(text: str) -> str:
    """French spacing in plain text (an attribute's value, a string)."""
    out = text
    for start, end, new in sorted(_edits(text, [True] * len(text)), reverse=True):
        out = out[:start] + new + out[end:]
    return out


class _Tokens(HTMLParser):
    """The page as tokens, each with the offset where its source text starts."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=False)
        self.starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self.tokens: list[tuple[str, int, str | None, object]] = []

    def _add(self, kind: str, tag: str | None = None, value: object = None) -> None:
        line, column = self.getpos()
        self.tokens.append((kind, self.starts[line - 1] + column, tag, value))

    def handle_starttag(self, tag, attrs):
        self._add("start", tag, attrs)

    def handle_startendtag(self, tag, attrs):
        self._add("empty", tag, attrs)

    def handle_endtag(self, tag):
        self._add("end", tag)

    def handle_data(self, data):
        self._add("text", None, data)

    def handle_entityref(self, name):
        self._add("ref", None, html.unescape(f"&{name};"))

    def handle_charref(self, name):
        self._add("ref", None, html.unescape(f"&#{name};"))

    def handle_comment(self, data):
        self._add("other")

    def handle_decl(self, decl):
        self._add("other")

    def handle_pi(self, data):
        self._add("other")

    def unknown_decl(self, data):
        self._add("other")


def _tokens(source: str) -> tuple[list, list[str]]:
    parser = _Tokens(source)
    parser.feed(source)
    parser.close()
    tokens = parser.tokens
    offsets = [t[1] for t in tokens] + [len(source)]
    raw = [source[offsets[i]:offsets[i + 1]] for i in range(len(tokens))]
    if offsets[0] != 0 or any(b < a for a, b in zip(offsets, offsets[1:])):
        raise ValueError("typography: the HTML parser lost its place in the page")
    return tokens, raw


def _code_headings(tokens) -> set[str]:
    """Ids of headings whose whole text is code: their table-of-contents entries are
    that code, shown without its ``<code>``."""
    found: set[str] = set()
    heading: tuple[str, str | None] | None = None
    inside: list[str | None] = []  # per element open in the heading: "code", "skip" (the ¶ link) or None
    code = prose = False
    for kind, _, tag, value in tokens:
        if heading is None:
            if kind == "start" and _HEADING.fullmatch(tag):
                heading, inside, code, prose = (tag, dict(value).get("id")), [], False, False
            continue
        if kind == "start" and tag not in VOID:
            headerlink = tag == "a" and "headerlink" in (dict(value).get("class") or "")
            inside.append("code" if tag == "code" else "skip" if headerlink else None)
        elif kind == "end" and not inside:
            if tag == heading[0] and heading[1] and code and not prose:
                found.add(heading[1])
            heading = None
        elif kind == "end":
            inside.pop()
        elif kind in ("text", "ref") and str(value).strip():
            if "code" in inside:
                code = True
            elif "skip" not in inside:
                prose = True
    return found


def _attribute(raw: str, name: str, value: str) -> str:
    """``raw`` (a start tag) with attribute ``name`` set to ``value``."""
    pattern = re.compile(rf"(\s{re.escape(name)}\s*=\s*)(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.I)
    return pattern.sub(lambda m: m[1] + '"' + html.escape(value, quote=True) + '"', raw, count=1)


def _french_attributes(tag: str, attrs: list, raw: str) -> str:
    values = dict(attrs)
    names = [n for n in READABLE if values.get(n)]
    if tag == "meta" and (values.get("name") in META_TEXT or values.get("property") in META_TEXT) and values.get("content"):
        names.append("content")
    for name in names:
        fixed = french_text(values[name])
        if fixed != values[name]:
            raw = _attribute(raw, name, fixed)
    return raw


def french(page: str) -> str:
    """``page`` (HTML) with French spacing in its prose; code is left byte for byte."""
    tokens, raw = _tokens(page)
    code_ids = _code_headings(tokens)
    out = list(raw)
    # open elements: (tag, inside code, in French); a lang= attribute sets the language of
    # its element (``<div lang="fr">`` inside a Spanish page body is French again), code stays code
    stack: list[tuple[str, bool, bool]] = []
    flow: list[_Piece] = []

    def flush() -> None:
        if not flow:
            return
        text = "".join(p.text for p in flow)
        owner = [(n, i) for n, p in enumerate(flow) for i in range(len(p.text))]
        editable = [flow[n].editable for n, _ in owner]
        changes: dict[int, list[tuple[int, int, str]]] = {}
        for start, end, new in _edits(text, editable):
            if start == end:  # an insertion: into the editable character it precedes, else follows
                n, i = owner[start] if start < len(text) and editable[start] else (owner[start - 1][0], owner[start - 1][1] + 1)
                changes.setdefault(n, []).append((i, i, new))
                continue
            for pos in range(start, end):
                n, i = owner[pos]
                changes.setdefault(n, []).append((i, i + 1, new if pos == start else ""))
        for n, piece_edits in changes.items():
            piece = flow[n]
            value = piece.text
            for a, b, new in sorted(piece_edits, reverse=True):
                value = value[:a] + new + value[b:]
            out[piece.token] = value
        flow.clear()

    for n, (kind, _, tag, value) in enumerate(tokens):
        code, french_here = stack[-1][1:] if stack else (False, True)
        if kind in ("start", "empty"):
            if tag not in INLINE:
                flush()
            attrs = dict(value)
            href = attrs.get("href") or ""
            code = code or tag in CODE or (tag == "a" and href.startswith("#") and href[1:] in code_ids)
            if attrs.get("lang") is not None:
                french_here = attrs["lang"].lower().startswith("fr")
            if french_here and not code:
                out[n] = _french_attributes(tag, value, raw[n])
            if kind == "start" and tag not in VOID:
                stack.append((tag, code, french_here))
        elif kind == "end":
            if tag not in INLINE:
                flush()
            if any(entry[0] == tag for entry in stack):
                while stack and stack.pop()[0] != tag:
                    pass
        elif kind == "text":
            flow.append(_Piece(n, str(value), french_here and not code))
        elif kind == "ref":
            flow.append(_Piece(n, str(value), False))
    flush()
    return "".join(out)
