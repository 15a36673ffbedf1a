"""Our directives (``<!-- requires: … -->``, ``run:``, ``chart:``, Sybil's ``skip:``), attached
after fences are formed: a block directive belongs to the block whose fence is on the very
next line, as SuperFences found it; the comment lines themselves are blanked, since they are
for the engine and, left in an admonition, would pull the block into a paragraph."""

from __future__ import annotations

from pathlib import Path

from markdown.preprocessors import Preprocessor

from ruota_docs.blocks import directives, markers, site_config
from ruota_docs.blocks.capture.state import Captured, CaptureState, Problem
from ruota_docs.blocks.directives import Directive


class Directives(Preprocessor):
    """After fences are formed: our directive comments, attached to the fence that
    follows them, and blanked (page directives become a placeholder to fill)."""

    def run(self, lines):
        state = self.md.ruota
        state.post_to_pre = _post_to_pre(len(lines), state)
        by_placeholder = {c.placeholder: c for c in state.captured}
        waiting = _Waiting(state)
        out = list(lines)
        for i, line in enumerate(lines):
            match = directives.match_line(line)
            if match is None:
                if waiting:
                    waiting.settle(_block_at(i, lines, by_placeholder))
            else:
                self._directive(i, match, out, waiting)
        if waiting:
            waiting.settle(None, "is at the end of the page: no code block follows it")
        return out

    def _directive(self, i: int, match, out: list[str], waiting: _Waiting) -> None:
        """The directive on line ``i``: blanked in ``out`` and kept where it belongs (waiting for
        its block, the page's directives, Sybil's skips); a misspelled one waits as a problem."""
        state = self.md.ruota
        name, args = match["name"], match["args"]
        kind = directives.classify(name, args is not None)
        if kind == "comment" or name in directives.INLINE_DIRECTIVES:
            if waiting:
                waiting.settle(None)
            return
        page_line, source = self._where(i)
        source = _shorter(source, state.context.path) if source else ""
        directive = Directive(name, (args or "").strip(), page_line, source)
        out[i] = match["prefix"].rstrip(" \t")
        if kind == "typo":
            written = f" (written at {source})" if source else ""
            waiting.typos.append(Problem(page_line, directives.typo_message(name, args is not None) + written))
        elif name in directives.BLOCK_DIRECTIVES:
            waiting.pending.append(directive)
        elif name in directives.PAGE_DIRECTIVES:
            if waiting:
                waiting.settle(None)
            state.page_directives.append(directive)
            html = markers.directive(state.nonce, len(state.page_directives) - 1)
            out[i] = match["prefix"] + self.md.htmlStash.store(html)
        else:  # Sybil's skip
            state.skips.append((self._pre(i), directive))

    def _pre(self, index: int) -> int:
        mapping = self.md.ruota.post_to_pre
        return mapping[index] if mapping and index < len(mapping) else index

    def _where(self, index: int) -> tuple[int, str]:
        state = self.md.ruota
        if state.post_to_pre is None:
            return state.context.first_line, ""
        return state.where(self._pre(index))


class _Waiting:
    """Block directives (and misspelled ones) read since the last code block, waiting for it."""

    def __init__(self, state: CaptureState) -> None:
        self.state = state
        self.pending: list[Directive] = []
        self.typos: list[Problem] = []

    def __bool__(self) -> bool:
        return bool(self.pending or self.typos)

    def settle(self, captured: Captured | None, reason: str = "is not directly followed by a code block") -> None:
        """Hands what waits to the block ``captured``, or, where no block follows, reports it."""
        if captured is not None:
            captured.directives.extend(self.pending)
            if self.typos:
                captured.error = f"{self.typos[0].line}: {self.typos[0].message}"
        else:
            self.state.problems.extend(Problem(d.line, f"{d.name}: directive at line {d.line} {reason}"
                                               + (f" (written at {d.source})" if d.source else ""))
                                       for d in self.pending)
            self.state.problems.extend(self.typos)
        self.pending.clear()
        self.typos.clear()


def _block_at(i: int, lines: list[str], by_placeholder: dict[str, Captured]) -> Captured | None:
    """The code block whose placeholder is line ``i`` (or, after the blank line Python-Markdown's
    fenced_code puts before its placeholder, line ``i + 1``)."""
    captured = by_placeholder.get(lines[i].lstrip(" \t>"))
    if captured is None and not lines[i].strip() and i + 1 < len(lines):
        following = by_placeholder.get(lines[i + 1].strip())
        captured = following if following is not None and following.collapsed == 3 else None
    return captured


def _shorter(source: str, page: str) -> str:
    """``file:line`` of an included file, relative to the page's folder's project when it can be."""
    path, _, line = source.rpartition(":")
    for folder in Path(page).parents:  # the folder holding mkdocs.yml: paths as authors write them
        if site_config.config_path(folder).exists() and Path(path).is_relative_to(folder):
            return f"{Path(path).relative_to(folder).as_posix()}:{line}"
    return source


def _post_to_pre(count: int, state: CaptureState) -> list[int] | None:
    """Line indices before the fences were collapsed into placeholder lines."""
    spans = {c.start: c for c in state.captured if not c.indented}
    mapping, i, total = [], 0, len(state.lines)
    while i < total:
        captured = spans.get(i)
        mapping += [i] * (captured.collapsed if captured else 1)
        i = captured.end if captured else i + 1
    return mapping if len(mapping) == count else None
