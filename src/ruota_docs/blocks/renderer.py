"""A page's blocks, as the site renders them.

The [`render`][ruota_docs.blocks.renderer.render] function renders a page with Python-Markdown
and the site's own ``markdown_extensions`` (`ruota_docs.blocks.site_config`), plus `BlockCapture`
(`ruota_docs.blocks.capture`). The [`assemble`][ruota_docs.blocks.renderer.assemble] function
then turns what was captured into the page's list of `ruota_docs.blocks.Block` objects. These are the code blocks
that readers see, in page order, each with its page line, and with ``file:line`` when it was
written in an included file.

The ``ruota_docs`` MkDocs plugin calls [`assemble`][ruota_docs.blocks.renderer.assemble] on the capture
of the build's own rendering.
"""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import markdown

from ruota_docs.blocks import block as blocks_mod
from ruota_docs.blocks import (fact_directive, generated, markers, mkdocs_page, page_hooks, pages, policies,
                               render_cache, site_config, value_directive)
from ruota_docs.blocks.block import Block
from ruota_docs.blocks.capture import BlockCapture, CaptureState, Context, Problem
from ruota_docs.blocks.directives import KINDS, Directive, DirectiveError


@dataclass
class PageRender:
    """What rendering one page found."""

    page: str
    lang: str
    blocks: list[Block] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  #: page:line errors that belong to no block
    directives: list[Directive] = field(default_factory=list)  #: chart:, verification-status
    nonce: str = ""
    #: ``(start, end, index)``: where in the HTML each block the page's own fences did not write stands
    placed: list[tuple[int, int, int]] = field(default_factory=list)


def render(root: Path, path: Path, text: str | None = None, docs_dir: Path | None = None,
           fast: bool = False) -> PageRender:
    """The page at ``path``, rendered as the site renders it. Pass its ``text`` if it has already been read.

    The ``fast`` option skips syntax highlighting and inline formatting, which play no part in deciding
    which blocks exist.
    """
    root = Path(root)
    path = Path(path).resolve()
    langs = site_config.languages(root)
    try:
        setup = site_config.markdown_setup(root)
    except site_config.ConfigError as error:
        page, lang = pages.page_key(docs_dir or root / "docs", path, langs)
        return PageRender(page, lang, problems=[Problem(1, f"cannot render with {error}")])
    docs = Path(docs_dir) if docs_dir else setup.docs_dir
    page, lang = pages.page_key(docs, path, langs)
    try:
        text = pages.read_page(path) if text is None else text
    except pages.PageError as error:
        return PageRender(page, lang, problems=[Problem(error.line, str(error))])
    # the site's hooks, where pages are collected through them, as `mkdocs build` passes them the page
    hooked = page_hooks.enabled({name: site_config.setting(root, name) for name in ("plugins", "hooks")})
    # (a page the hooks rewrite depends on their code and on what they read: never kept)
    kept = render_cache.key(root, path, docs, text, setup) if fast and not hooked else None
    found = render_cache.load(kept)
    if found is not None:
        return found
    body, first_line = pages.split_meta(text)
    written = body
    try:
        if hooked:
            body, made_by = page_hooks.apply(setup, docs, path, text, body)
    except page_hooks.HookError as error:
        return PageRender(page, lang, problems=[Problem(first_line, str(error))])
    try:
        md, html = _convert(setup, body, path, docs, first_line, fast)
        if _AUTODOC_LEFT.search(html) and site_config.lists_plugin(root, "mkdocstrings"):
            # a ``:::`` line left as text: render again with the extension mkdocstrings adds
            # (loading the plugin is slow, and most pages have none)
            md, html = _convert(site_config.markdown_setup(root, plugins=True), body, path, docs, first_line, fast)
            kept = None  # its blocks come from Python sources: not kept
    except site_config.ConfigError as error:
        return PageRender(page, lang, problems=[Problem(1, f"cannot render with {error}")])
    except Exception as error:  # noqa: BLE001 — an extension failed on this page: say so, page by page
        return PageRender(page, lang, problems=[Problem(first_line, f"the renderer failed on this page: "
                                                                    f"{type(error).__name__}: {error}")])
    state = md.ruota
    if body is written:
        result = assemble(state, html, page, lang, root, text)
        render_cache.store(kept, result, state)
        return result
    result = assemble(state, html, page, lang, root, text[:len(text) - len(written)] + body)
    _into_file(result, written, body, first_line, ", ".join(made_by), str(path))
    return result


def _into_file(result: PageRender, written: str, body: str, first_line: int, made_by: str, path: str) -> None:
    """The lines of a page the site's hooks rewrote, counted in its file again: a block whose code
    the file holds (under a fence) keeps its lines there; one the hooks wrote is ``made_by`` them, at
    the file's line where their part of the page stands (its code has no line in the file to rewrite)."""
    lines = page_hooks.LineMap(written, body, first_line)
    held = page_hooks.FileBlocks(written, first_line)
    for block in result.blocks:
        found, was = None, f"{result.page}:{block.line}:"
        if not block.source and block.generated_by is None:
            found = held.find(block.code, fenced=block.kind != "indented")
            if found is None:
                block.made_by = made_by
        if found is not None:
            block.line, block.end_line, at = found
            block.code_origins = tuple((path, n) for n in at)
        else:
            block.code_origins = tuple(None if o and o[0] == path else o for o in block.code_origins)
            block.line, block.end_line = lines.line(block.line)[0], None
        if block.error and block.error.startswith(was):  # its message points into the file too
            block.error = f"{result.page}:{block.line}:{block.error[len(was):]}"
    for problem in result.problems:
        problem.line = lines.line(problem.line)[0]


#: What a ``::: identifier`` line becomes when no extension reads it: a paragraph or a heading.
_AUTODOC_LEFT = re.compile(r"<(?:p|h[1-6])\b[^>]*>::: ?\S")


def _convert(setup, body: str, path: Path, docs: Path, first_line: int, fast: bool):
    """``(md, html)``: the page's body rendered with ``setup`` and the capture."""
    # ``!relative`` in markdown_extensions points at the folder of the page being rendered
    setup.config._current_page = SimpleNamespace(file=SimpleNamespace(src_path=os.path.relpath(path, setup.docs_dir)))
    capture = BlockCapture(Context(str(path), first_line), fast=fast)
    try:
        md = markdown.Markdown(extensions=[*setup.extensions, capture], extension_configs=setup.extension_configs)
        if mkdocs_page.needed(md):
            mkdocs_page.register(md, setup.config, docs, path)  # what MkDocs' Page.render adds: relpath, …
        return md, md.convert(body)
    finally:
        setup.config._current_page = None


#: Why a block the page's HTML shows from no fence of it is not run (kept here for the callers of the renderer).
FOREIGN_REASON = generated.FOREIGN_REASON


def unknown_block(directive: str, block_id: str, blocks) -> str:
    """The error for a ``chart:`` or ``value:`` directive that names no block of the page."""
    known = ", ".join(sorted(b.block_id for b in blocks if b.block_id)) or "none"
    return f"{directive}: no block on this page has id={block_id} (ids here: {known})"


def _unknown_references(result: PageRender, text: str) -> list[Problem]:
    """``chart:`` and ``value:`` directives that name no block of the page: found when the
    page's blocks are collected (by the engine, the command line and the site alike)."""
    ids = {b.block_id for b in result.blocks if b.block_id}
    problems = []
    for directive in result.directives:
        if not KINDS[directive.name].names_block:
            continue
        try:
            block_id = directive.options().get("block")
        except DirectiveError as error:
            problems.append(Problem(directive.line, str(error)))
            continue
        if not isinstance(block_id, str) or not block_id:
            problems.append(Problem(directive.line,
                                    f"{directive.name}: directive needs block=ID (the id= of a run: directive)"))
        elif block_id not in ids:
            problems.append(Problem(directive.line, unknown_block(directive.name, block_id, result.blocks)))
    if "value" not in text and "fact" not in text:
        return problems

    code = {n for b in result.blocks if b.end_line is not None and not b.source for n in range(b.line, b.end_line + 1)}
    problems.extend(_fact_problems(text, code))
    for line, args in value_directive.in_text(text, code):
        try:
            value = value_directive.parse(args)
        except value_directive.ValueDirectiveError as error:
            problems.append(Problem(line, str(error)))
            continue
        if value.block not in ids:
            problems.append(Problem(line, unknown_block("value", value.block, result.blocks)))
    return problems


def _fact_problems(text: str, code: set[int]) -> list[Problem]:
    """``fact:`` directives that cannot be read, or are dated in the future."""
    problems = []
    for line, args in fact_directive.in_text(text, code):
        if args is None:
            problems.append(Problem(line, fact_directive.near_miss_message()))
            continue
        try:
            future = fact_directive.check_date(fact_directive.parse(args), dt.date.today())
        except fact_directive.FactDirectiveError as error:
            future = str(error)
        if future:
            problems.append(Problem(line, future))
    return problems


def assemble(state: CaptureState, html: str, page: str, lang: str, root: Path, text: str = "") -> PageRender:
    """The page's blocks, from one rendering's capture and HTML, and the page's problems.

    The problems include those the capture found and each ``chart:`` or ``value:`` directive that
    names no block of the page. The ``value:`` directives appear in the prose, so they are searched for
    in ``text``, the page's Markdown."""
    visible = {number: position for position, number in enumerate(markers.visible_blocks(html, state.nonce))}
    captured = [c for c in state.captured if c.number in visible]
    _locate_indented(state, sorted(captured, key=lambda c: visible[c.number]))
    captured.sort(key=lambda c: (state.page_line(c.start), visible[c.number]))
    _apply_skips(state, captured)
    result = PageRender(page, lang, problems=list(state.problems) + _unclosed_fences(state, captured),
                        directives=list(state.page_directives), nonce=state.nonce)
    errors = list(state.include_errors)
    try:
        site_policies = policies.read(root)
    except site_config.ConfigError as error:
        site_policies = {}
        result.problems.append(Problem(1, str(error)))
    for item in captured:
        line, source = state.where(item.start)
        if source:
            path, _, at = source.rpartition(":")
            source = f"{_relative(path, root)}:{at}"
        end = state.origin(item.end - 1) if item.end > item.start else None
        end_line = end[1] if end and end[0] == state.context.path else None
        origins = _code_origins(state, item)
        includes = tuple(sorted(_relative(path, root) for path in {o[0] for o in origins if o} - {state.context.path}))
        block = blocks_mod.build(item, page, lang, line=line, end_line=end_line, source=source,
                                 code_origins=origins, includes=includes, extended=state.extended,
                                 policies=site_policies)
        for problem in [e for e in errors if line <= e.line <= (end_line or line)]:
            errors.remove(problem)
            block.error = block.error or f"{page}:{problem.line}: {problem.message}"
            block.kind = "invalid"
        block.index = len(result.blocks)
        block.injected = item.start in state.brought
        result.blocks.append(block)
    _variants(result.blocks)
    generated.add_blocks(result, html, state)  # after the page's own: their indices stay put
    result.problems.extend(errors)
    result.problems.extend(_unknown_references(result, text))
    result.problems.sort(key=lambda p: p.line)
    signature = blocks_mod.page_signature(result.blocks)
    for block in result.blocks:
        block.signature = signature
        block.page_total = len(result.blocks)
    return result


def _variants(blocks: list[Block]) -> None:
    """Mark the blocks one directive brought in several at once (tabs of variants), and give an
    excerpt among them (FastAPI's "Code above omitted") its reason not to run: the whole beside it runs."""
    brought = Counter(b.line for b in blocks if b.injected)
    for block in blocks:
        block.variant = block.injected and brought[block.line] > 1
    for block in blocks:
        whole = next((o for o in blocks if block.variant and o is not block and o.line == block.line and
                      o.kind == block.kind == "python" and _excerpt_of(block.code, o.code)
                      and not _excerpt_of(o.code, block.code)), None)
        if whole is not None and block.not_run_reason is None and not block.error:
            block.skip_reason = (f"an excerpt of the code shown whole beside it (block {whole.index + 1} of "
                                 "the page), which runs")


def _excerpt_of(part: str, whole: str) -> bool:
    """Whether every line of ``part`` but blank lines and comments is a line of ``whole``, in the same order."""
    lines = iter(line.rstrip() for line in whole.split("\n"))
    wanted = [line.rstrip() for line in part.split("\n") if line.strip() and not line.lstrip().startswith("#")]
    return bool(wanted) and all(any(line == w for line in lines) for w in wanted)


def _code_origins(state: CaptureState, item) -> tuple:
    """``(file, line)`` of each line of a block's code (None where unknown)."""
    count = item.code.count("\n") + 1
    if item.start < 0:
        return (None,) * count
    first = item.start + (0 if item.indented else 1 + item.hidden)
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


#: Sybil's skip arguments: an action, then a quoted reason or a condition ``if(…)``.
_SKIP_ARGS = re.compile(r"""^(?P<action>\S+)\s*"""
                        r"""(?:(?P<q>["'])(?P<reason>.*)(?P=q)|(?P<condition>if\s*\(.*\)))?\s*$""", re.S)


def _apply_skips(state: CaptureState, captured: list) -> None:
    """Sybil's ``<!-- skip: next -->`` and ``skip: start`` … ``skip: end``, as "not run",
    with Sybil's optional quoted reason (``skip: next "not yet working"``). A condition
    (``skip: next if(…)``) is Python evaluated in Sybil's namespace, which pages do not
    share here: the blocks it governs fail, saying how to write it instead."""
    opened: tuple[int, Directive, re.Match] | None = None
    after = _blocks_after(captured)
    for index, directive in sorted(state.skips, key=lambda s: s[0]):
        parts = _skip_parts(state, directive)
        if parts is None:
            continue
        if parts["action"] == "next":
            _skip_next(state, after(index), directive, parts)
        elif parts["action"] == "start":
            opened = (index, directive, parts)
        elif opened is None:
            state.problems.append(Problem(directive.line, "skip: end without an earlier skip: start"))
        else:
            _skip_between(after(opened[0]), index, opened[1:], directive)
            opened = None
    if opened is not None:
        state.problems.append(Problem(opened[1].line, "skip: start is never closed by skip: end"))


def _blocks_after(captured: list):
    """A function of a line index: the blocks whose fence starts after it, in page order."""
    in_order = sorted(captured, key=lambda c: c.start)
    starts = [c.start for c in in_order]

    def after(index: int):
        return (in_order[i] for i in range(bisect.bisect_right(starts, index), len(in_order)))
    return after


def _skip_parts(state: CaptureState, directive: Directive) -> re.Match | None:
    """A skip directive's action and its reason or condition; None (a problem reported) where its
    action is not one of Sybil's."""
    parts = _SKIP_ARGS.match(directive.args)
    if parts is None or parts["action"] not in ("next", "start", "end"):
        state.problems.append(Problem(directive.line, f"skip: {directive.args!r} is not a skip action "
                                                      "(next, start or end, then a \"reason\" or if(…))"))
        return None
    return parts


def _skip_next(state: CaptureState, following, directive: Directive, parts: re.Match) -> None:
    """``skip: next``: the first block after it not already skipped."""
    target = next((c for c in following if c.skip is None), None)
    if target is None:
        state.problems.append(Problem(directive.line, "skip: next is not followed by any code block"))
    else:
        _turn_off(target, directive, parts["reason"] or f"skipped with <!-- skip: {directive.args} --> at line "
                                                        f"{directive.line}", parts["condition"])


def _skip_between(following, index: int, opened: tuple[Directive, re.Match], end: Directive) -> None:
    """``skip: start`` … ``skip: end`` (at line ``index``): every block between them."""
    start, found = opened
    for item in itertools.takewhile(lambda c: c.start < index, following):
        if item.skip is None:
            _turn_off(item, start, found["reason"] or f"skipped between <!-- skip: start --> at line "
                                                      f"{start.line} and <!-- skip: end --> at line "
                                                      f"{end.line}", found["condition"])


def _turn_off(item, directive: Directive, default: str, condition: str | None) -> None:
    """A block skipped with ``default`` as its reason, or, under a condition, failed saying why."""
    if condition:
        item.error = item.error or (f"{directive.line}: Sybil's conditional skip ({condition}) is not evaluated "
                                    "here: say where the block runs with <!-- requires: … -->, or turn it "
                                    "off with <!-- skip: next \"reason\" -->")
    else:
        item.skip = default


_FENCE = re.compile(r"^[ \t>]*(?P<fence>`{3,}|~{3,})(?P<info>[^`\n]*)$")


def _unclosed_fences(state: CaptureState, captured: list) -> list[Problem]:
    """A fence readers see as text because nothing closes it: the commonest typo, named.

    Only lines outside every rendered block and every HTML comment count; a fence that
    SuperFences closed somewhere unexpected is a block, and the renderer's business."""
    covered = bytearray(len(state.lines))
    for item in captured:
        covered[max(item.start, 0):max(item.end, 0)] = b"\x01" * (max(item.end, 0) - max(item.start, 0))
    text = "\n".join(state.lines)
    if "<!--" in text:
        starts = list(itertools.accumulate((len(line) + 1 for line in state.lines), initial=0))
        for match in re.finditer(r"<!--.*?-->", text, re.S):
            first, last = bisect.bisect_right(starts, match.start()) - 1, bisect.bisect_right(starts, match.end()) - 1
            covered[first:last + 1] = b"\x01" * (last + 1 - first)
    fences = [(i, m["fence"], m["info"].strip())
              for i, line in enumerate(state.lines) if (m := _FENCE.match(line.rstrip()))]
    for position, (index, fence, info) in enumerate(fences):
        # only an opening line that names a language, outside any block and comment, with no
        # line anywhere below that could close it (a bare fence may be a stray closer)
        if covered[index] or not info:
            continue
        if any(f[0] == fence[0] and len(f) >= len(fence) and not i for _, f, i in fences[position + 1:]):
            continue
        line = state.page_line(index)
        return [Problem(line, f"code block opened with {fence} at line {line} is never closed "
                              "(readers see it as text)")]
    return []


def _relative(path: str, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return path
