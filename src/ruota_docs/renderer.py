"""A page's blocks, as the site renders them.

:func:`render` renders a page with Python-Markdown and the site's own
``markdown_extensions`` (:mod:`ruota_docs.site_config`), plus
:class:`~ruota_docs.capture.BlockCapture`, and :func:`assemble` turns what was
captured into the page's :class:`~ruota_docs.blocks.Block` list: the code blocks
readers see, in page order, each with its page line (and ``file:line`` when it was
written in an included file). The MkDocs plugin calls :func:`assemble` on the capture
of the build's own rendering, so the site and the engine cannot disagree.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import markdown

from . import blocks as blocks_mod
from . import markers, pages, site_config
from .blocks import Block
from .capture import BlockCapture, CaptureState, Context, Problem
from .directives import Directive


@dataclass
class PageRender:
    """What rendering one page found."""

    page: str
    lang: str
    blocks: list[Block] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  #: page:line errors that belong to no block
    directives: list[Directive] = field(default_factory=list)  #: chart:, verification-status
    nonce: str = ""


def render(root: Path, path: Path, text: str | None = None, docs_dir: Path | None = None,
           fast: bool = False) -> PageRender:
    """Render the page at ``path`` (its ``text`` if already read) as the site does.

    ``fast`` skips syntax highlighting, which decides nothing about which blocks exist.
    """
    root = Path(root)
    path = Path(path).resolve()
    try:
        setup = site_config.markdown_setup(root)
    except site_config.ConfigError as error:
        page, lang = pages.page_key(docs_dir or root / "docs", path)
        return PageRender(page, lang, problems=[Problem(1, f"cannot render with {error}")])
    docs = Path(docs_dir) if docs_dir else setup.docs_dir
    page, lang = pages.page_key(docs, path)
    try:
        text = pages.read_page(path) if text is None else text
    except pages.PageError as error:
        return PageRender(page, lang, problems=[Problem(error.line, str(error))])
    body, first_line = pages.split_meta(text)
    # ``!relative`` in markdown_extensions points at the folder of the page being rendered
    setup.config._current_page = SimpleNamespace(file=SimpleNamespace(src_path=os.path.relpath(path, setup.docs_dir)))
    capture = BlockCapture(Context(str(path), first_line), fast=fast)
    try:
        md = markdown.Markdown(extensions=[*setup.extensions, capture], extension_configs=setup.extension_configs)
        html = md.convert(body)
    except Exception as error:  # noqa: BLE001 — an extension failed on this page: say so, page by page
        return PageRender(page, lang, problems=[Problem(first_line, f"the renderer failed on this page: "
                                                                    f"{type(error).__name__}: {error}")])
    finally:
        setup.config._current_page = None
    return assemble(md.ruota, html, page, lang, root)


def assemble(state: CaptureState, html: str, page: str, lang: str, root: Path) -> PageRender:
    """The page's blocks from one rendering's capture and HTML."""
    visible = {number: position for position, number in enumerate(markers.visible_blocks(html, state.nonce))}
    captured = [c for c in state.captured if c.number in visible]
    _locate_indented(state, sorted(captured, key=lambda c: visible[c.number]))
    captured.sort(key=lambda c: (state.page_line(c.start), visible[c.number]))
    _apply_skips(state, captured)
    result = PageRender(page, lang, problems=list(state.problems) + _unclosed_fences(state, captured),
                        directives=list(state.page_directives), nonce=state.nonce)
    errors = list(state.include_errors)
    for item in captured:
        line, source = state.where(item.start)
        end = state.origin(item.end - 1) if item.end > item.start else None
        end_line = end[1] if end and end[0] == state.context.path else None
        origins = _code_origins(state, item)
        includes = tuple(sorted({_relative(o[0], root) for o in origins if o and o[0] != state.context.path}))
        block = blocks_mod.build(item, page, lang, line=line, end_line=end_line, source=source,
                                 code_origins=origins, includes=includes, extended=state.extended)
        for problem in [e for e in errors if line <= e.line <= (end_line or line)]:
            errors.remove(problem)
            block.error = block.error or f"{page}:{problem.line}: {problem.message}"
            block.kind = "invalid"
        block.index = len(result.blocks)
        result.blocks.append(block)
    result.problems.extend(errors)
    result.problems.sort(key=lambda p: p.line)
    signature = blocks_mod.page_signature(result.blocks)
    for block in result.blocks:
        block.signature = signature
        block.page_total = len(result.blocks)
    return result


def _code_origins(state: CaptureState, item) -> tuple:
    """``(file, line)`` of each line of a block's code (None where unknown)."""
    count = item.code.count("\n") + 1
    if item.start < 0:
        return (None,) * count
    first = item.start + (0 if item.indented else 1)
    return tuple((o[0], o[1]) if (o := state.origin(first + k)) else None for k in range(count))


def _locate_indented(state: CaptureState, in_order: list) -> None:
    """Indented code blocks carry no line: find each one's first line after the block before it."""
    cursor = 0
    for item in in_order:
        if not item.indented:
            cursor = max(cursor, item.end)
            continue
        first = next((ln.strip() for ln in item.code.splitlines() if ln.strip()), "")
        found = next((i for i in range(cursor, len(state.lines)) if state.lines[i].strip() == first and first), None)
        if found is None:
            found = cursor
        item.start, item.end = found, found + item.code.count("\n") + 1
        cursor = item.end


def _apply_skips(state: CaptureState, captured: list) -> None:
    """Sybil's ``<!-- skip: next -->`` and ``skip: start`` … ``skip: end``, as "not run"."""
    opened: tuple[int, Directive] | None = None
    for index, directive in sorted(state.skips, key=lambda s: s[0]):
        action, _, rest = directive.args.partition(" ")
        reason = f"skipped with <!-- skip: {directive.args} --> at line {directive.line}"
        if action == "next":
            target = next((c for c in captured if c.start > index and c.skip is None), None)
            if target is None:
                state.problems.append(Problem(directive.line, "skip: next is not followed by any code block"))
            else:
                target.skip = reason
        elif action == "start":
            opened = (index, directive)
        elif action == "end":
            if opened is None:
                state.problems.append(Problem(directive.line, "skip: end without an earlier skip: start"))
                continue
            for item in captured:
                if opened[0] < item.start < index and item.skip is None:
                    item.skip = f"skipped between <!-- skip: start --> at line {opened[1].line} and <!-- skip: end --> at line {directive.line}"
            opened = None
        else:
            state.problems.append(Problem(directive.line, f"skip: {action!r} is not a skip action (next, start or end)"))
    if opened is not None:
        state.problems.append(Problem(opened[1].line, "skip: start is never closed by skip: end"))


_FENCE = re.compile(r"^[ \t>]*(?P<fence>`{3,}|~{3,})(?P<info>[^`\n]*)$")


def _unclosed_fences(state: CaptureState, captured: list) -> list[Problem]:
    """A fence readers see as text because nothing closes it: the commonest typo, named.

    Only lines outside every rendered block and every HTML comment count; a fence that
    SuperFences closed somewhere unexpected is a block, and the renderer's business."""
    covered = bytearray(len(state.lines))
    for item in captured:
        covered[max(item.start, 0):max(item.end, 0)] = b"\x01" * (max(item.end, 0) - max(item.start, 0))
    text = "\n".join(state.lines)
    for match in re.finditer(r"<!--.*?-->", text, re.S):
        first, last = text.count("\n", 0, match.start()), text.count("\n", 0, match.end())
        covered[first:last + 1] = b"\x01" * (last + 1 - first)
    problems, opened = [], None
    for index, line in enumerate(state.lines):
        match = None if covered[index] else _FENCE.match(line.rstrip())
        if match is None:
            continue
        fence = match["fence"]
        if opened is None:
            opened = (index, fence)
        elif fence[0] == opened[1][0] and len(fence) >= len(opened[1]) and not match["info"].strip():
            opened = None
    if opened is not None:
        line = state.page_line(opened[0])
        problems.append(Problem(line, f"code block opened with {opened[1]} at line {line} is never closed "
                                      f"(readers see it as text)"))
    return problems


def _relative(path: str, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return path
