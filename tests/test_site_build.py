"""The real site, built with ``mkdocs build --strict``: pages, languages, switcher, assets."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ruota_docs.collect import page_blocks
from sitebuild import LANGUAGES, ROOT, SOURCE, build, html_path, page_paths, url_path

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    result = build(target)
    assert result.returncode == 0, result.stdout + result.stderr
    # strict mode turns warnings into failure, but say it plainly if any slipped through
    assert "WARNING" not in result.stderr, result.stderr
    return target


class _Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.lang = None
        self.alternates: dict[str, str] = {}
        self.switcher: dict[str, str] = {}
        self.loaded: list[str] = []
        self._in_select = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "link" and a.get("rel") == "alternate" and a.get("hreflang"):
            self.alternates.setdefault(a["hreflang"], a["href"])
        if tag == "a" and "md-select__link" in (a.get("class") or ""):
            self.switcher[a.get("hreflang")] = a.get("href")
        if tag in ("script", "img", "iframe") and a.get("src"):
            self.loaded.append(a["src"])
        if tag == "link" and a.get("rel") in ("stylesheet", "preload", "modulepreload", "icon") and a.get("href"):
            self.loaded.append(a["href"])


def _parse(path: Path) -> _Head:
    parser = _Head()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_page_exists_in_every_language(site):
    missing = [f"{lang}: {page}" for page in page_paths() for lang in LANGUAGES if not html_path(site, page, lang).exists()]
    assert not missing, missing
    guides = {"guides/keras-rx7600.md", "guides/stable-diffusion-rocm.md", "guides/radeon-vii-windows.md", "guides/verify-against-reference.md"}
    assert guides <= set(page_paths())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lang_attribute(site, lang):
    for page in page_paths():
        assert _parse(html_path(site, page, lang)).lang == lang, page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_switcher_leads_to_the_same_page(site, lang):
    for page in page_paths():
        path = html_path(site, page, lang)
        head = _parse(path)
        assert set(head.switcher) == set(LANGUAGES), (page, head.switcher)
        for other, href in head.switcher.items():
            # the home page links by root-relative paths (site_url's path is /)
            target = (site / href.lstrip("/")) if href.startswith("/") else (path.parent / href)
            target = target.resolve()
            target = target / "index.html" if target.is_dir() or not target.suffix else target
            assert target == html_path(site, page, other).resolve(), (page, lang, other, href)


def test_hreflang_alternates_are_absolute(site):
    for page in page_paths():
        head = _parse(html_path(site, page, "en"))
        for lang in LANGUAGES:
            assert lang in head.alternates, (page, head.alternates)
        assert head.alternates.get("x-default", "").startswith("https://ruota-docs.example.org/"), page


def test_nothing_is_loaded_from_another_host(site):
    offenders = []
    for path in site.rglob("*.html"):
        for url in _parse(path).loaded:
            if re.match(r"^(https?:)?//", url):
                offenders.append(f"{path.relative_to(site)}: {url}")
    for path in list(site.rglob("*.css")):
        for url in re.findall(r"url\(\s*['\"]?((?:https?:)?//[^'\")]+)", path.read_text(encoding="utf-8", errors="replace")):
            offenders.append(f"{path.relative_to(site)}: {url}")
        offenders += [f"{path.relative_to(site)}: @import" for _ in re.findall(r"@import\s+url\(\s*['\"]?https?:", path.read_text(errors="replace"))]
    assert not offenders, offenders


def test_sitemap_lists_every_language(site):
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    for page in page_paths():
        for lang in LANGUAGES:
            assert f"https://ruota-docs.example.org{url_path(page, lang)}" in sitemap, (page, lang)


def test_search_index_in_each_language(site):
    index = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    for lang in LANGUAGES:
        assert f'"{lang}"' in index
    for lang in ("en", "fr"):
        assert f'"location":"{lang}/' in index.replace(" ", "")


# -- the interface in the reader's language --------------------------------------------------------------
_NB, _NN = "\u00a0", "\u202f"
_CODE = {"pre", "code", "kbd", "samp", "script", "style", "textarea"}
_INLINE = {"a", "abbr", "b", "cite", "code", "em", "i", "kbd", "mark", "q", "s", "samp", "small", "span", "strong",
           "sub", "sup", "time", "u", "var", "tspan"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Prose(HTMLParser):
    """A page's French prose, block by block (text outside code and outside ``lang="en"``), the
    readable attributes, every code string, and the code blocks as written."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.attributes: list[str] = []
        self.code: set[str] = set()
        self._stack: list[tuple[str, bool]] = []
        self._text: list[str] = []
        self._code_text: list[str] = []

    def _flush(self):
        if "".join(self._text).strip():
            self.blocks.append("".join(self._text))
        self._text = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in _INLINE:
            self._flush()
        off = bool(self._stack and self._stack[-1][1]) or tag in _CODE or (a.get("lang") or "fr")[:2] != "fr"
        if not off:
            self.attributes += [a[k] for k in ("title", "aria-label", "alt", "placeholder") if a.get(k)]
            if tag == "meta" and a.get("name") == "description":
                self.attributes.append(a.get("content") or "")
        if tag not in _VOID:
            self._stack.append((tag, off))

    def handle_endtag(self, tag):
        if tag not in _INLINE:
            self._flush()
        if any(t == tag for t, _ in self._stack):
            while self._stack and self._stack.pop()[0] != tag:
                pass
            if tag in _CODE:
                self.code.add("".join(self._code_text).strip())
                self._code_text = []

    def handle_data(self, data):
        if self._stack and self._stack[-1][1]:
            self._code_text.append(data)
        self._text.append("\0" * len(data) if self._stack and self._stack[-1][1] else data)


# a sign of French punctuation that ends a word: followed by a space, a closing sign or the end
_SIGN = re.compile(r"(?P<before>.?)(?P<space>[ \t\n\u00a0\u202f]*)(?P<sign>[;:!?])(?=[)\]»\"'’”]*(?:[\s.,…]|$))")


def _french_problems(text: str, where: str) -> tuple[list[str], int]:
    """Spacing mistakes in one block of French text (``\\0`` stands for code), and how many signs it checked."""
    problems, checked = [], 0
    for m in _SIGN.finditer(text):
        before, space, sign = m["before"], m["space"], m["sign"]
        token = re.findall(r"\S*$", text[: m.start("sign")].rstrip())[0] if not space else ""
        if not before or before in "\0([{«" or "://" in token or re.fullmatch(r"[A-Z]", token):
            continue
        checked += 1
        wanted = _NB if sign == ":" else _NN
        if space != wanted:
            problems.append(f"{where}: {space!r} before {sign!r} in …{text[max(0, m.start() - 40): m.end() + 20]!r}…")
    for m in re.finditer("[«»]", text):
        checked += 1
        opening = m[0] == "«"
        space = re.match(r"[ \u00a0\u202f]*", text[m.end():] if opening else text[: m.start()][::-1])[0]
        if space != _NB:
            problems.append(f"{where}: guillemet without its no-break space in …{text[max(0, m.start() - 30): m.end() + 30]!r}…")
    return problems, checked


def _code_blocks(path: Path) -> list[str]:
    """The page's code blocks as Pygments wrote them (titles, which are prose, and the verification outputs apart)."""
    page = path.read_text(encoding="utf-8")
    return re.findall(r'<div class="language-[^"]*highlight">(?:<span class="filename">[^<]*</span>)?(<pre>.*?</pre>)</div>',
                      page, flags=re.S)


def test_french_pages_have_french_spacing(site):
    """Before ``: ; ? !`` and inside « »: the right no-break space in every French page's prose,
    interface and readable attributes; code, URLs and English API docs as they are."""
    problems, checked = [], 0
    paths = [html_path(site, page, "fr") for page in page_paths()]
    for path in paths:
        prose = _Prose()
        prose.feed(path.read_text(encoding="utf-8"))
        prose.close()
        where = path.relative_to(site).as_posix()
        for text in prose.blocks + prose.attributes:
            if text.replace("\0", "").strip() in prose.code:
                continue  # a table-of-contents entry of a heading that is code
            found, n = _french_problems(text, where)
            problems += found
            checked += n
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all)"
    assert checked > 300, checked  # guard: the check did meet French punctuation


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_french_code_is_left_as_written(site):
    """Typography never reaches code: each checked block of a French page renders byte for byte as on
    the Spanish page, and no code on a French page holds a no-break space (the sources have none)."""
    compared = 0
    for page in page_paths():
        codes = {b.code.rstrip("\n") for b in page_blocks(ROOT, ROOT / "docs", ROOT / "docs" / "fr" / page)}
        checked = {lang: [f for f in _code_blocks(html_path(site, page, lang)) if _text(f).rstrip("\n") in codes]
                   for lang in ("es", "fr")}
        assert checked["fr"] == checked["es"], page
        compared += len(checked["fr"])
        prose = _Prose()
        prose.feed(html_path(site, page, "fr").read_text(encoding="utf-8"))
        assert not [c for c in prose.code if _NB in c or _NN in c], page
    assert compared > 50, compared


def test_frame_strings_are_in_the_readers_language(site):
    """Permalinks, the footer's credit and the site description: Spanish at the root, then each language."""
    words = {"es": ("Enlace permanente", "Hecho con", "IA en GPU de AMD"),
             "en": ("Permanent link", "Made with", "Running AI on AMD GPUs"),
             "fr": ("Lien permanent", "Réalisé avec", "L'IA sur des GPU AMD")}
    for lang, (permalink, credit, description) in words.items():
        page = html_path(site, "guides/keras-rx7600.md", lang).read_text(encoding="utf-8")
        assert f'title="{permalink}"' in page and credit in page, lang
        assert re.search(rf'<meta name="description" content="{re.escape(description)}', page.replace("&#39;", "'")), lang
        others = [w for other, ws in words.items() if other != lang for w in ws[:2]]
        assert not [w for w in others if w in page], (lang, [w for w in others if w in page])
