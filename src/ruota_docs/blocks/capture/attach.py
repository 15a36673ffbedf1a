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
        pending: list[Directive] = []  # block directives waiting for their block
        typos: list[Problem] = []  # misspelled directives, ditto
        out = list(lines)

        def settle(captured: Captured | None, reason: str = "is not directly followed by a code block") -> None:
            if captured is not None:
                captured.directives.extend(pending)
                if typos:
                    captured.error = f"{typos[0].line}: {typos[0].message}"
            else:
                state.problems.extend(Problem(d.line, f"{d.name}: directive at line {d.line} {reason}")
                                      for d in pending)
                state.problems.extend(typos)
            pending.clear()
            typos.clear()

        for i, line in enumerate(lines):
            match = directives.match_line(line)
            if match is None:
                if pending or typos:
                    captured = by_placeholder.get(line.lstrip(" \t>"))
                    if captured is None and not line.strip() and i + 1 < len(lines):
                        # Python-Markdown's fenced_code puts a blank line before its placeholder
                        following = by_placeholder.get(lines[i + 1].strip())
                        captured = following if following is not None and following.collapsed == 3 else None
                    settle(captured)
                continue
            name, args = match["name"], match["args"]
            kind = directives.classify(name, args is not None)
            if kind == "comment" or name in directives.INLINE_DIRECTIVES:
                if pending or typos:
                    settle(None)
                continue
            page_line, source = self._where(i)
            directive = Directive(name, (args or "").strip(), page_line, source)
            out[i] = match["prefix"].rstrip(" \t")
            if kind == "typo":
                written = f" (written at {_shorter(source, state.context.path)})" if source else ""
                typos.append(Problem(page_line, directives.typo_message(name, args is not None) + written))
            elif name in directives.BLOCK_DIRECTIVES:
                pending.append(directive)
            elif name in directives.PAGE_DIRECTIVES:
                if pending or typos:
                    settle(None)
                state.page_directives.append(directive)
                html = markers.directive(state.nonce, len(state.page_directives) - 1)
                out[i] = match["prefix"] + self.md.htmlStash.store(html)
            else:  # Sybil's skip
                state.skips.append((self._pre(i), directive))
        if pending or typos:
            settle(None, "is at the end of the page: no code block follows it")
        return out

    def _pre(self, index: int) -> int:
        mapping = self.md.ruota.post_to_pre
        return mapping[index] if mapping and index < len(mapping) else index

    def _where(self, index: int) -> tuple[int, str]:
        state = self.md.ruota
        if state.post_to_pre is None:
            return state.context.first_line, ""
        return state.where(self._pre(index))


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
