"""The real site, built with ``mkdocs build --strict``: pages, languages, switcher, assets,
links, 404 pages and search indexes — at the root and under a sub-path (a project page)."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from ruota_docs.blocks.collect import page_blocks
from ruota_docs.site.locales import STRINGS
from sitebuild import LANGUAGES, ROOT, SITE_URL, SOURCE, SUBPATH_SITE_URL, html_path, page_paths, shared_build, url_path

pytestmark = pytest.mark.slow

BUILDS = ["site", "subpath_site"]


@dataclass
class Built:
    dir: Path
    site_url: str  #: what it was built for

    @property
    def base(self) -> str:
        """The path the site is served under: ``/`` or ``/ruota-docs/``."""
        return urlsplit(self.site_url).path

    def file_for(self, url: str, page: Path) -> Path | None:
        """The file a link of ``page`` leads to, or None when it leaves the site."""
        if urlsplit(url).scheme and not url.startswith(self.site_url):
            return None
        here = self.base + page.relative_to(self.dir).as_posix()
        path = unquote(urlsplit(urljoin(here, url)).path)
        if not path.startswith(self.base):
            return self.dir / "<outside the base path>" / path
        target = self.dir / path[len(self.base):]
        return target / "index.html" if path.endswith("/") or target.is_dir() else target


def _build(tmp_path_factory, site_url: str) -> Built:
    target, result = shared_build(tmp_path_factory, site_url)
    assert result.returncode == 0, result.stdout + result.stderr
    # strict mode turns warnings into failure, but say it plainly if any slipped through
    assert "WARNING" not in result.stderr, result.stderr
    return Built(target, site_url)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Built:
    return _build(tmp_path_factory, SITE_URL)


@pytest.fixture(scope="module")
def subpath_site(tmp_path_factory) -> Built:
    """Built for a project page, as the deploy does (SITE_URL=https://<owner>.github.io/ruota-docs/)."""
    return _build(tmp_path_factory, SUBPATH_SITE_URL)


@pytest.fixture(scope="module")
def site(built) -> Path:
    return built.dir


@pytest.fixture(params=BUILDS)
def any_build(request, built) -> Built:
    return built if request.param == "site" else request.getfixturevalue("subpath_site")


class _Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.lang = None
        self.title = ""
        self.h1 = ""
        self.canonical = None
        self.alternates: dict[str, str] = {}
        self.switcher: dict[str, str] = {}
        self.loaded: list[str] = []
        self.links: list[str] = []  #: every href and src
        self._in = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if tag in ("title", "h1"):
            self._in = tag
        if tag == "link" and a.get("rel") == "alternate" and a.get("hreflang"):
            self.alternates.setdefault(a["hreflang"], a["href"])
        if tag == "link" and a.get("rel") == "canonical":
            self.canonical = a.get("href")
        if tag == "a" and "md-select__link" in (a.get("class") or ""):
            self.switcher[a.get("hreflang")] = a.get("href")
        if tag in ("script", "img", "iframe") and a.get("src"):
            self.loaded.append(a["src"])
        if tag == "link" and a.get("rel") in ("stylesheet", "preload", "modulepreload", "icon") and a.get("href"):
            self.loaded.append(a["href"])
        self.links += [value for key, value in attrs if key in ("href", "src") and value]

    def handle_endtag(self, tag):
        if tag == self._in:
            self._in = None

    def handle_data(self, data):
        if self._in == "title":
            self.title += data
        elif self._in == "h1":
            self.h1 += data


def _parse(path: Path) -> _Head:
    parser = _Head()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_page_exists_in_every_language(site):
    missing = [f"{lang}: {page}" for page in page_paths() for lang in LANGUAGES if not html_path(site, page, lang).exists()]
    assert not missing, missing
    guides = {"guides/keras-rx7600.md", "guides/stable-diffusion-rocm.md", "guides/radeon-vii-windows.md", "guides/verify-against-reference.md"}
    assert guides <= set(page_paths())


def test_every_markdown_list_renders_as_a_list(site):
    """A list item written right after an indented paragraph with no blank line between them is run into that
    paragraph by Python-Markdown, and readers see "- **Calcul…**" in running text: no paragraph holds one."""
    run_in = []
    for page in page_paths():
        for lang in LANGUAGES:
            body = html_path(site, page, lang).read_text(encoding="utf-8")
            article = body[body.find("<article"):body.find("</article>")]
            run_in += [f"{lang}/{page}: {text[:80]!r}" for text in re.findall(r"<p>(.*?)</p>", article, flags=re.S)
                       if re.search(r"\n[-*] \S", text)]
    assert not run_in, run_in


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lang_attribute(site, lang):
    for page in page_paths():
        assert _parse(html_path(site, page, lang)).lang == lang, page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_switcher_leads_to_the_same_page(any_build, lang):
    for page in page_paths():
        path = html_path(any_build.dir, page, lang)
        head = _parse(path)
        assert set(head.switcher) == set(LANGUAGES), (page, head.switcher)
        for other, href in head.switcher.items():
            assert any_build.file_for(href, path) == html_path(any_build.dir, page, other), (page, lang, other, href)


def test_every_link_and_asset_is_on_the_site(any_build):
    """Every href and src of every page (404 pages included) leads to a file of the site,
    under its base path: nothing points at /assets/… or /en/… of the host's root."""
    broken, checked, pages = [], 0, sorted(any_build.dir.rglob("*.html"))
    assert len(pages) >= len(page_paths()) * len(LANGUAGES) + len(LANGUAGES)
    for path in pages:
        for url in set(_parse(path).links):
            if url.startswith(("#", "mailto:", "data:", "javascript:")):
                continue
            target = any_build.file_for(url, path)
            checked += target is not None
            if target is not None and not target.is_file():
                broken.append(f"{path.relative_to(any_build.dir)}: {url}")
    assert checked > 10 * len(pages), checked
    assert not broken, "\n".join(sorted(broken)[:50])


def test_canonical_and_hreflang_are_absolute(any_build):
    for page in page_paths():
        for lang in LANGUAGES:
            head = _parse(html_path(any_build.dir, page, lang))
            assert head.canonical == any_build.site_url.rstrip("/") + url_path(page, lang), (page, lang)
            assert set(LANGUAGES) <= set(head.alternates), (page, head.alternates)
            assert head.alternates.get("x-default") == any_build.site_url.rstrip("/") + url_path(page, SOURCE), (page, lang)


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


def test_sitemap_lists_every_language(any_build):
    sitemap = (any_build.dir / "sitemap.xml").read_text(encoding="utf-8")
    for page in page_paths():
        for lang in LANGUAGES:
            assert f"{any_build.site_url.rstrip('/')}{url_path(page, lang)}" in sitemap, (page, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_404_page_in_each_language(any_build, lang):
    """Each language's 404 in its folder, the source language's at the root (the one GitHub
    Pages serves); its language selector leads to each language's home."""
    path = any_build.dir / ("" if lang == SOURCE else lang) / "404.html"
    head = _parse(path)
    assert head.lang == lang
    assert head.h1 == STRINGS[lang]["not_found_title"]
    assert head.title == f"{STRINGS[lang]['not_found_title']} – ruota-docs"
    homes = {other: any_build.file_for(href, path) for other, href in head.switcher.items()}
    assert homes == {other: html_path(any_build.dir, "index.md", other) for other in LANGUAGES}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_title_joins_page_and_site_with_an_en_dash(any_build, lang):
    """The browser's title: the page, an en dash, the site (not the theme's spaced hyphen)."""
    for page in page_paths():
        head = html_path(any_build.dir, page, lang).read_text(encoding="utf-8").split("</head>")[0]
        title = html.unescape(re.search(r"<title>(.*?)</title>", head, re.S)[1])
        assert " - " not in title and (title == "ruota-docs" or title.endswith(" – ruota-docs")), (page, lang, title)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_page_without_sections_shows_no_empty_table_of_contents(any_build, lang):
    """A page with no heading below its title hides the table of contents (``hide: [toc]``), which would
    otherwise be an empty panel under its title."""
    for page in page_paths():
        body = html_path(any_build.dir, page, lang).read_text(encoding="utf-8")
        toc = re.search(r'<div class="md-sidebar md-sidebar--secondary"[^>]*>', body)
        if toc and "<h2" not in body.split('<article', 1)[-1]:
            assert " hidden" in toc[0], (page, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_search_index_in_each_language(any_build, lang):
    """At the language's root, lunr set to that language, every page of that language and
    only those (addresses relative to that root), the API reference's sections included."""
    root = any_build.dir / ("" if lang == SOURCE else lang)
    index = json.loads((root / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == [lang]
    pages = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert {root / p / "index.html" if p else root / "index.html" for p in pages} == {html_path(any_build.dir, p, lang) for p in page_paths()}
    api = [doc for doc in index["docs"] if doc["location"].startswith("reference/api/#")]
    sections = json.loads((any_build.dir / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    assert len(api) == len([d for d in sections if d["location"].startswith("reference/api/#")]) > 20


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
        # code stays code; a lang= attribute sets the language of what it holds (the site's own words,
        # lang="fr", inside the API reference's English docstrings are French again)
        in_code = bool(self._stack and self._stack[-1][2]) or tag in _CODE
        foreign = a["lang"][:2] != "fr" if a.get("lang") else bool(self._stack and self._stack[-1][3])
        off = in_code or foreign
        if not off:
            self.attributes += [a[k] for k in ("title", "aria-label", "alt", "placeholder") if a.get(k)]
            if tag == "meta" and a.get("name") == "description":
                self.attributes.append(a.get("content") or "")
        if tag not in _VOID:
            self._stack.append((tag, off, in_code, foreign))

    def handle_endtag(self, tag):
        if tag not in _INLINE:
            self._flush()
        if any(t == tag for t, *_ in self._stack):
            while self._stack and self._stack.pop()[0] != tag:
                pass
            if tag in _CODE:
                self.code.add("".join(self._code_text).strip())
                self._code_text = []

    def handle_data(self, data):
        if self._stack and self._stack[-1][2]:  # code only: an English docstring around it is not code
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
        quoted = text[: m.start()].count("«") > text[: m.start()].count("»")
        if not space and sign == ":" and quoted:
            continue  # a title in another language, or a name (« requires: »), quoted as written
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


#: An ordinary (breakable) space before a French sign that ends a word: what French typography replaces. ``\0``
#: stands for code, which is left as written.
_PLAIN_SPACE_BEFORE_SIGN = re.compile(r"(?<=[^\s\0])[ \t\r\n]+[;:!?]+(?![\w/\\])")
_CODE_ELEMENT = re.compile(r"<(code|pre|kbd|samp)\b[^>]*>.*?</\1\s*>", re.S)


def _plain_spaces(fragment: str, where: str) -> list[str]:
    """Each plain space before ``; : ! ?`` in an HTML fragment's text, code apart."""
    text = html.unescape(re.sub(r"<[^>]+>", "", _CODE_ELEMENT.sub("\0", fragment)))
    return [f"{where}: …{text[max(0, m.start() - 40): m.end() + 10]!r}…"
            for m in _PLAIN_SPACE_BEFORE_SIGN.finditer(text)]


def test_no_plain_space_before_french_punctuation_in_body_headings_toc_or_search(site):
    """Headings with their ¶ permalink, the table of contents, the body and the search index of the French site:
    a no-break space before ``: ; ? !`` everywhere readers meet them, never a space a line may break at."""
    found: dict[str, list[str]] = {"body": [], "headings": [], "table of contents": [], "search index": []}
    seen = dict.fromkeys(found, 0)
    for path in (html_path(site, page, "fr") for page in page_paths()):
        page, where = path.read_text(encoding="utf-8"), path.relative_to(site).as_posix()
        article = re.search(r"<article\b[^>]*>(.*?)</article>", page, re.S)[1]
        prose = _Prose()  # leaves out code and what is marked as another language (the API's docstrings)
        prose.feed(article)
        prose.close()
        for block in prose.blocks:
            found["body"] += _plain_spaces(html.escape(block), where)
        seen["body"] += len(prose.blocks)
        for heading in re.finditer(r"<h([1-6])\b(?![^>]*doc-heading)[^>]*>(.*?)</h\1>", article, re.S):
            found["headings"] += _plain_spaces(heading[2], where)  # the permalink ¶ included, as it is built
            seen["headings"] += 1
        for entry in re.finditer(r'<a href="#[^"]*" class="md-nav__link">(.*?)</a>', page, re.S):
            found["table of contents"] += _plain_spaces(entry[1], where)
            seen["table of contents"] += 1
    index = json.loads((site / "fr" / "search" / "search_index.json").read_text(encoding="utf-8"))
    for doc in index["docs"]:
        english = doc["location"].startswith("reference/api/#")  # a docstring: English, under a French heading
        found["search index"] += _plain_spaces(doc["title"] if english else doc["title"] + "\n" + doc["text"],
                                               f"search index {doc['location']}")
        seen["search index"] += 1
    problems = [p for part in found.values() for p in part]
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all: " + \
        ", ".join(f"{k} {len(v)}" for k, v in found.items()) + ")"
    # guard: every part was read, and French punctuation met (nine headings end in « ? »)
    assert seen["headings"] > 100 and seen["table of contents"] > 100 and seen["search index"] > 100, seen
    assert seen["body"] > 500, seen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_api_reference_links_its_cross_references(site, lang):
    """Docstrings' cross-references are links within the reader's own language, and no reST role is left raw."""
    page = html_path(site, "reference/api.md", lang).read_text(encoding="utf-8")
    assert not re.findall(r":(?:class|func|mod|meth|attr):", re.sub(r"<pre\b.*?</pre>", "", page, flags=re.S))
    links = re.findall(r'<a class="autorefs autorefs-internal"[^>]*href="([^"]*)"', page)
    assert links and all(href.startswith("#ruota_docs.") for href in links), links
    assert all(f'id="{href[1:]}"' in page for href in links), links


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_themes_strings_the_site_words_itself(site, lang):
    """Material's strings that the locale files word their own way (``theme.*``) reach the page's
    configuration, which Material's search reads: the Spanish placeholder says tú, as the site does."""
    page = html_path(site, "index.md", lang).read_text(encoding="utf-8")
    words = json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>', page, re.S)[1])
    assert words["translations"]["search.result.placeholder"] == STRINGS[lang]["theme.search.result.placeholder"]
    assert "Teclee" not in page
    # the frame around the page: Material's Spanish reworded, its French and English kept
    frame = {"es": ("Ir al contenido", "Saltar a contenido"), "fr": ("Aller au contenu", "Ir al contenido"),
             "en": ("Skip to content", "Ir al contenido")}[lang]
    assert frame[0] in page and frame[1] not in page
    assert ("En esta página" in page and "Tabla de contenidos" not in page) if lang == "es" else True
    assert words["translations"]["clipboard.copy"] == STRINGS[lang]["theme.clipboard.copy"] or not STRINGS[lang]["theme.clipboard.copy"]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_french_code_is_left_as_written(site):
    """Typography never reaches code: each checked block of a French page renders byte for byte as on
    the Spanish page, and no code on a French page holds a no-break space its source does not (the
    translators' page writes `3\u202f680` on purpose, as the example of the thin space)."""
    compared = 0
    for page in page_paths():
        codes = {b.code.rstrip("\n") for b in page_blocks(ROOT, ROOT / "docs", ROOT / "docs" / "fr" / page)}
        checked = {lang: [f for f in _code_blocks(html_path(site, page, lang)) if _text(f).rstrip("\n") in codes]
                   for lang in ("es", "fr")}
        assert checked["fr"] == checked["es"], page
        compared += len(checked["fr"])
        prose = _Prose()
        prose.feed(html_path(site, page, "fr").read_text(encoding="utf-8"))
        source = (ROOT / "docs" / "fr" / page).read_text(encoding="utf-8")
        assert not [c for c in prose.code if (_NB in c or _NN in c) and f"`{c}`" not in source], page
    assert compared > 50, compared


def test_frame_strings_are_in_the_readers_language(site):
    """Permalinks, the footer's credit and the site description: Spanish at the root, then each language."""
    words = {"es": ("Enlace permanente", "Hecho con", "Cómo ejecutar IA en GPU de AMD"),
             "en": ("Permanent link", "Made with", "Running AI on AMD GPUs"),
             "fr": ("Lien permanent", "Réalisé avec", "Faire tourner l’IA sur des GPU AMD")}  # French apostrophe
    for lang, (permalink, credit, description) in words.items():
        page = html_path(site, "guides/keras-rx7600.md", lang).read_text(encoding="utf-8")
        assert f'title="{permalink}"' in page and credit in page, lang
        assert re.search(rf'<meta name="description" content="{re.escape(description)}', page), lang
        others = [w for other, ws in words.items() if other != lang for w in ws[:2]]
        assert not [w for w in others if w in page], (lang, [w for w in others if w in page])


def test_what_search_leaves_out_is_on_the_pages_and_not_in_the_index(site):
    """Charts, the status page and the card matrix are kept out of the content Material's search
    parses (`ruota_docs.site.plugin`), and are back on the page."""
    for path in site.rglob("*.html"):
        assert "data-ruota-after-search" not in path.read_text(encoding="utf-8"), path
    matrix = (site / "en" / "card-matrix" / "index.html").read_text(encoding="utf-8")
    caption = STRINGS["en"]["matrix_keys_caption"]
    assert 'class="ruota-card-matrix" data-search-exclude>' in matrix and caption in matrix
    assert '<figure class="ruota-figure" tabindex="0">' in (site / "en" / "verification-status" / "index.html").read_text(encoding="utf-8")
    index = (site / "en" / "search" / "search_index.json").read_text(encoding="utf-8")
    # the page's prose may name the table, in quotes; the table itself is not indexed
    assert caption not in index.replace(f"“{caption}”", "") and "ruota-chart" not in index
