"""Translations that cannot drift: parity checks between a page and its translations.

Spanish (``docs/es``) is the source. For every page, each translation must have:

- the same code blocks in the same order, as the site renders them (the same code, languages,
  requirements, run options and declared evidence);
- the same pinned heading IDs;
- the same link targets;
- the same admonition and tab structure;
- the same numbers in its prose, once each language's separators are normalised (``28,6`` becomes
  ``28.6``; Spanish 15 000, grouped with a narrow no-break space, and English ``15,000`` both become
  ``15000``);
- the same dated claims (``fact:`` directives), with the same dates and sources.

A measured value (``<!-- value: block=ID metric=NAME -->``) counts as a number, so every
language must name the same block and metric. A number that genuinely differs between languages is
written inside ``<span class="l10n">…</span>`` and ignored.

Each language's prose is also held to its glossary (`ruota_docs.translations.glossary`), which
gives one term per concept and rules out its variants.

Whether a translation has fallen behind its Spanish page is a separate question, answered by
`ruota_docs.translations.staleness`.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ruota_docs.blocks import renderer
from ruota_docs.blocks import fact_directive, value_directive
from ruota_docs.blocks.block import Block
from ruota_docs.blocks.pages import front_matter
from ruota_docs.translations.glossary import Glossary

_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<text>.*?)\s*(?:\{[^}]*#(?P<id>[\w-]+)[^}]*\})?\s*$")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\((?P<target><[^>]+>|[^)\s]+)(?:\s+\"[^\"]*\")?\)|<(?P<auto>https?://[^>\s]+)>")
_ADMONITION = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>!!!|\?\?\?\+?)\s+(?P<type>[\w-]+)")
_TAB = re.compile(r"^(?P<indent>[ \t]*)===\+?\s+\"")
_IGNORED = [
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r'<span class="l10n">.*?</span>', re.S),
    re.compile(r"`[^`\n]+`"),
    re.compile(r"\]\([^)]*\)"),
    re.compile(r"https?://[^\s)>\]]+"),
    re.compile(r"\{[^}\n]*\}"),
    re.compile(r"\[\^[^\]]+\]"),
    re.compile(r"</?[a-zA-Z][^>\n]*>"),
]
#: a number, its groups joined by a point, a comma or a no-break space (15 000); a no-break space before it
#: is a group's only after a digit, so « p. 663 » and « 7 × 7 » are numbers of their own
_NUMBER = re.compile(r"(?<![\w.,])(?<!\d[\u00a0\u202f])\d+(?:(?:[.,]|[\u00a0\u202f](?=\d{3}(?!\d)))\d+)*(?![\w])")


@dataclass(frozen=True)
class Problem:
    """One difference between a page and its translation."""

    page: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.message}"


# -- reading a page --------------------------------------------------------------
def split_front_matter(text: str) -> tuple[dict, str, int]:
    """The page's YAML front matter and the rest, as ``(fields, body, lines_of_front_matter)``.

    The fields are read as `ruota_docs.blocks.pages.front_matter` reads them, with scalars as strings."""
    fields, end = front_matter(text)
    return fields, text[end:], text.count("\n", 0, end)


def source_hash(text: str) -> str:
    """The hash a translation records, which is the first 12 hex digits of the source page's SHA-256."""
    return hashlib.sha256(text.replace("\r\n", "\n").encode()).hexdigest()[:12]


@dataclass
class PageText:
    """A page's text and the blocks the site renders from it."""

    page: str
    text: str
    blocks: list[Block]
    problems: list

    @property
    def code_lines(self) -> frozenset[int]:
        """File lines that belong to code blocks written in the page (fence to fence)."""
        lines: set[int] = set()
        for block in self.blocks:
            if block.end_line is not None and not block.source:
                lines.update(range(block.line, block.end_line + 1))
        return frozenset(lines)


def read_page(root: Path, docs_dir: Path, page: str) -> PageText:
    """The page ``docs_dir/page``, rendered as the site renders it. Raises `ValueError` for a page that is not UTF-8."""
    text = _read(Path(docs_dir) / page)
    rendered = renderer.render(root, Path(docs_dir) / page, text, docs_dir, fast=True)
    return PageText(page, text, rendered.blocks, rendered.problems)


def _prose_lines(text: str, code_lines=frozenset()) -> list[tuple[int, str]]:
    """Lines outside front matter and code blocks, numbered as in the file."""
    _, body, offset = split_front_matter(text)
    return [(n + offset, line) for n, line in enumerate(body.splitlines(), 1) if n + offset not in code_lines]


def normalise_number(token: str, lang: str) -> str:
    """The language-independent spelling of a number as written in ``lang``.

    Examples:
        >>> normalise_number("15\\u202f000", "es"), normalise_number("28,6", "fr"), normalise_number("1,076", "en")
        ('15000', '28.6', '1076')
        >>> normalise_number("3\\u202f680", "fr")
        '3680'
    """
    token = token.replace("\u00a0", "").replace("\u202f", "")
    if lang in ("es", "fr"):
        if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", token):
            token = token.replace(".", "")
        if token.count(",") == 1 and "." not in token:
            token = token.replace(",", ".")
    elif re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", token):
        token = token.replace(",", "")
    return token


def numbers(text: str, lang: str, code_lines=frozenset()) -> list[tuple[str, int]]:
    """Every number in the prose, as pairs of ``(normalised number, line)``."""
    found = []
    for n, line in _prose_lines(text, code_lines):
        # a measured value stands for its number: the same block and metric in every language
        for match in value_directive.DIRECTIVE.finditer(re.sub(r"`[^`\n]+`", " ", line)):
            try:
                found.append((value_directive.parse(match["args"]).key, n))
            except value_directive.ValueDirectiveError:
                found.append((f"value:{match['args'].strip()}", n))
        # a checked claim carries the same date and source in every language
        for match in fact_directive.DIRECTIVE.finditer(re.sub(r"`[^`\n]+`", " ", line)):
            try:
                found.append((fact_directive.parse(match["args"]).key, n))
            except fact_directive.FactDirectiveError:
                found.append((f"fact:{match['args'].strip()}", n))
        if _HEADING.match(line) and line.lstrip().startswith("#"):
            line = re.sub(r"\{[^}]*\}", "", line)
        for pattern in _IGNORED:
            line = pattern.sub(" ", line)
        for match in _NUMBER.finditer(line):
            found.append((normalise_number(match.group(0), lang), n))
    return found


def headings(text: str, code_lines=frozenset()) -> list[tuple[int, int, str | None]]:
    """Every heading in the prose, as ``(line, level, pinned ID)``."""
    result = []
    for n, line in _prose_lines(text, code_lines):
        match = _HEADING.match(line)
        if match:
            result.append((n, len(match["level"]), match["id"]))
    return result


def links(text: str, code_lines=frozenset()) -> list[tuple[str, int]]:
    found = []
    for n, line in _prose_lines(text, code_lines):
        line = re.sub(r"`[^`\n]+`", " ", line)
        for match in _LINK.finditer(line):
            target = (match["target"] or match["auto"] or "").strip("<>")
            found.append((target, n))
    return found


def structure(text: str, code_lines=frozenset()) -> list[tuple[str, int, int]]:
    """The page's admonitions and tabs, in order, as ``(kind, depth, line)``."""
    result = []
    for n, line in _prose_lines(text, code_lines):
        match = _ADMONITION.match(line)
        if match:
            result.append((f"{match['marker']} {match['type']}", len(match["indent"].expandtabs(4)) // 4, n))
        elif _TAB.match(line):
            result.append(("=== tab", len(_TAB.match(line)["indent"].expandtabs(4)) // 4, n))
    return result


def blocks(page: PageText) -> list[tuple[tuple, int]]:
    """What must be equal about each block, with the block's line.

    That is the language, the code, the requirements, the run options and the evidence it declares. Only
    the code of a block that runs is compared, since a block that only shows output may be translated."""
    result = []
    for block in page.blocks:
        content = "" if block.shown_only else block.sha256[:10]
        options = tuple(sorted((k, str(v)) for k, v in block.options.items() if k != "reason"))
        requires = tuple(str(r) for r in block.requirements)
        evidence = (block.evidence.tier, block.evidence.targets) if block.evidence else None
        said = (block.fence_language, content, requires, options, block.not_run_reason is not None, evidence)
        result.append((said, block.line))
    return result


# -- comparing a page with a translation -------------------------------------------
def _multiset_diff(source, target, what: str, page: str, src_page: str) -> list[Problem]:
    problems = []
    src = Counter(v for v, _ in source)
    dst = Counter(v for v, _ in target)
    for value in sorted((src - dst).keys()):
        line = next(n for v, n in source if v == value)
        problems.append(Problem(page, 1, f"{what} {value!r} from {src_page}:{line} is missing here"))
    for value in sorted((dst - src).keys()):
        line = next(n for v, n in target if v == value)
        problems.append(Problem(page, line, f"{what} {value!r} is not in {src_page}"))
    return problems


def compare(source: PageText, target: PageText, lang: str, source_lang: str = "es") -> list[Problem]:
    """Every difference between the page ``target`` (in ``lang``) and its ``source``."""
    problems: list[Problem] = [Problem(target.page, p.line, p.message) for p in target.problems]
    source_page, page = source.page, target.page
    problems += _block_problems(blocks(source), blocks(target), page, source_page)
    source_text, text = source.text, target.text
    src_code, dst_code = source.code_lines, target.code_lines
    src_ids = [h for h in headings(source_text, src_code) if h[1] > 1]
    dst_ids = [h for h in headings(text, dst_code) if h[1] > 1]
    for line, _, hid in dst_ids:
        if hid is None:
            problems.append(Problem(page, line, "heading has no pinned id ({ #id })"))
    if [h[2] for h in src_ids] != [h[2] for h in dst_ids]:
        problems.extend(_multiset_diff([(h[2], h[0]) for h in src_ids], [(h[2], h[0]) for h in dst_ids],
                                       "heading id", page, source_page)
                        or [Problem(page, 1, f"heading ids are in another order than in {source_page}")])
    problems.extend(_multiset_diff(links(source_text, src_code), links(text, dst_code),
                                   "link target", page, source_page))
    problems.extend(_multiset_diff(numbers(source_text, source_lang, src_code), numbers(text, lang, dst_code),
                                   "number", page, source_page))
    problems += _structure_problems(structure(source_text, src_code), structure(text, dst_code), page, source_page)
    return problems


def _block_problems(src_blocks: list, dst_blocks: list, page: str, source_page: str) -> list[Problem]:
    """Code blocks missing, added or different, by their place."""
    problems = []
    for i in range(max(len(src_blocks), len(dst_blocks))):
        if i >= len(dst_blocks):
            problems.append(Problem(page, 1, f"code block {i + 1} ({source_page}:{src_blocks[i][1]}) is missing here"))
        elif i >= len(src_blocks):
            problems.append(Problem(page, dst_blocks[i][1], f"code block {i + 1} is not in {source_page}"))
        elif src_blocks[i][0] != dst_blocks[i][0]:
            problems.append(Problem(page, dst_blocks[i][1],
                                    f"code block {i + 1} differs from {source_page}:{src_blocks[i][1]} "
                                    f"(language, code, requirements, run options or evidence)"))
    return problems


def _structure_problems(src_struct: list, dst_struct: list, page: str, source_page: str) -> list[Problem]:
    """The first admonition or tab that differs in kind or depth (none where they all agree)."""
    if [s[:2] for s in src_struct] == [s[:2] for s in dst_struct]:
        return []
    for i, (a, b) in enumerate(zip(src_struct + [None] * len(dst_struct), dst_struct + [None] * len(src_struct))):
        if a is None or b is None or a[:2] != b[:2]:
            where = b[2] if b else 1
            expected = f"{a[0]} at depth {a[1]} ({source_page}:{a[2]})" if a else "nothing more"
            found = f"{b[0]} at depth {b[1]}" if b else "nothing"
            return [Problem(page, where, f"admonition/tab {i + 1}: expected {expected}, found {found}")]
    return []


# -- the whole docs directory ---------------------------------------------------------
def pages_by_language(docs_dir: Path, languages: list[str]) -> dict[str, set[str]]:
    return {lang: {p.relative_to(docs_dir / lang).as_posix() for p in (docs_dir / lang).rglob("*.md")}
            for lang in languages}


def check(docs_dir: Path, languages: list[str], source_lang: str = "es", untranslated: list[str] = (),
          root: Path | None = None, glossaries: dict[str, Glossary] | None = None) -> list[Problem]:
    """Every parity problem in the docs directory, and every variant that a language's glossary rules out.

    The ``root`` argument is the project directory, by default the docs directory's parent."""
    docs_dir = Path(docs_dir)
    root = Path(root) if root else docs_dir.parent
    present = pages_by_language(docs_dir, languages)
    every = set().union(*present.values())
    problems: list[Problem] = []
    for rel in sorted(every):
        if rel not in present[source_lang]:
            for lang in languages:
                if rel in present[lang]:
                    problems.append(Problem(f"{lang}/{rel}", 1,
                                            f"page has no {source_lang} source ({source_lang}/{rel} is missing)"))
            continue
        problems += _page_problems(root, docs_dir, rel, languages, source_lang, present, untranslated)
    problems.extend(glossary_problems(root, docs_dir, present, glossaries or {}))
    return problems


def _page_problems(root: Path, docs_dir: Path, rel: str, languages: list[str], source_lang: str,
                   present: dict[str, set[str]], untranslated) -> list[Problem]:
    """Every problem in page ``rel``'s translations, checked against its source (which exists)."""
    source_page = f"{source_lang}/{rel}"
    try:
        source = read_page(root, docs_dir, source_page)
    except ValueError as error:
        return [Problem(source_page, 1, str(error))]
    problems = []
    for lang in languages:
        if lang == source_lang:
            continue
        page = f"{lang}/{rel}"
        if rel not in present[lang]:
            if rel not in untranslated:
                problems.append(Problem(page, 1, f"translation of {source_page} is missing (add it, or list the "
                                                 "page under 'untranslated' in the ruota_docs plugin options)"))
            continue
        try:
            target = read_page(root, docs_dir, page)
        except ValueError as error:
            problems.append(Problem(page, 1, str(error)))
            continue
        problems.extend(compare(source, target, lang, source_lang))
    return problems


def glossary_problems(root: Path, docs_dir: Path, present: dict[str, set[str]],
                      glossaries: dict[str, Glossary]) -> list[Problem]:
    """Every variant a language's glossary rules out, in the prose of that language's pages."""
    problems = []
    for lang, glossary in glossaries.items():
        for rel in sorted(present.get(lang, ())):
            page = f"{lang}/{rel}"
            try:
                rendered = read_page(root, docs_dir, page)
            except ValueError:
                continue  # check() reports a page it cannot read
            lines = _prose_lines(rendered.text, rendered.code_lines)
            problems.extend(Problem(page, f.line, glossary.message(f)) for f in glossary.findings(lines))
    return problems


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 (byte {error.start}): save the file as UTF-8") from None
