"""The code blocks themselves: each fence SuperFences (or Python-Markdown's fenced_code)
formats, with exactly the code, language, options and attributes it hands to its formatter
and the lines of the fence, and each indented code block Python-Markdown keeps as one. Each
block's HTML is wrapped in two empty marker ``div``s (:mod:`ruota_docs.blocks.markers`)."""

from __future__ import annotations

from markdown.treeprocessors import Treeprocessor

from ruota_docs.blocks import line_map, markers, shown
from ruota_docs.blocks.capture.state import Captured


def align(state, lines, tab_length: int = 4) -> None:
    """Line up the page's origins with the lines a fence preprocessor gets: Python-Markdown's
    whitespace normalisation appends blank lines, which have no origin, expands tabs and empties
    lines of spaces, each in place. Where anything else changed the lines (a preprocessor of
    another extension, between includes and fences), each line's origin is carried over to the
    lines as they are now (`line_map.carry`: a diff, 0.3 s for a page of a thousand lines)."""
    extra = len(lines) - len(state.lines)
    if extra >= 0 and not any(line.strip() for line in lines[len(lines) - extra:]) \
            and all(a == b or _normalised(a, tab_length) == b for a, b in zip(state.lines, lines)):
        state.lines = [str(line) for line in lines]
        state.origins += [None] * extra
        return
    state.origins, state.brought = line_map.carry(state.lines, state.origins, lines, state.brought)
    state.lines = [str(line) for line in lines]


def _normalised(line: str, tab_length: int) -> str:
    """A line as Python-Markdown's whitespace normalisation leaves it."""
    line = line.expandtabs(tab_length)
    return "" if not line.strip(" ") else line


class CapturingFences:
    """Mixed into SuperFences' block preprocessor: records each fence it formats."""

    def run(self, lines):
        state = self.md.ruota
        result = super().run(lines)
        state.extended = {str(e["name"]).lower(): [e.get("lang"), e.get("options", {})]
                          for e in self.extend_pygments_lang or [] if isinstance(e, dict) and e.get("name")}
        return result

    def search_nested(self, lines):
        # the lines SuperFences searches: with preserve_tabs, those of run() with the raw
        # fences that its fenced_raw_block preprocessor set aside put back
        align(self.md.ruota, lines, self.md.tab_length)
        return super().search_nested(lines)

    def process_nested_block(self, ws, content, start, end):
        state = self.md.ruota
        name = next((e["name"] for e in self.extension.superfences if e.get("formatter") is self.formatter),
                    "superfences")
        code = self.rebuild_block(self.code)
        hidden = 0
        if name == "superfences" and self.use_pygments and self.stripnl:
            # Pygments' stripnl: readers never see the body's leading blank lines (trailing ones are
            # kept in the code: they change nothing that runs, and records hash them)
            hidden = len(code) - len(code.lstrip("\n"))
            code = code[hidden:]
        state.pending = Captured(
            number=len(state.captured), code=code, fence_language=self.lang or "",
            info=self.first.strip(), start=start, end=end, formatter=name, options=dict(self.options),
            attrs=dict(self.attrs), classes=list(self.classes or []), id=self.id or "", hidden=hidden,
        )
        try:
            super().process_nested_block(ws, content, start, end)
        finally:
            state.pending = None

    def reassemble(self, lines):
        # SuperFences splices each block in with a list copy (quadratic: minutes for a page of
        # 10,000 blocks); its blocks are found in page order and never overlap, so one pass
        # builds the same lines
        spans = [(start, end) for _, start, end in self.stack]
        if any(b[0] < a[1] for a, b in zip(spans, spans[1:])):
            return super().reassemble(lines)
        out, last = [], 0
        for fenced, start, end in self.stack:
            out.extend(lines[last:start])
            out.append(fenced)
            last = end
        out.extend(lines[last:])
        self.stack.clear()
        return out

    def _store(self, source, code, start, end):
        state = self.md.ruota
        captured = state.pending
        if captured is None:  # not through process_nested_block: leave it alone
            return super()._store(source, code, start, end)
        if captured.formatter != "superfences":
            # a custom fence is a block only where readers see code: a diagram's div or a
            # formula is not one; a fence that formats as one code block shows that code (one
            # that renders Markdown into several keeps its source, never run: a custom fence)
            found = shown.code_blocks(code)
            if not found:
                return super()._store(source, code, start, end)
            if len(found) == 1:
                captured.code = found[0]
        super()._store(source, markers.wrap(state.nonce, captured.number, code), start, end)
        captured.placeholder = self.md.htmlStash.get_placeholder(self.md.htmlStash.html_counter - 1)
        state.captured.append(captured)
        return None


class _SearchWatch:
    """fenced_code's block pattern, remembering the last match it returned (the block the
    preprocessor is about to store) and the text it searched."""

    def __init__(self, pattern, owner) -> None:
        self.pattern, self.owner = pattern, owner

    def search(self, text, pos=0):
        match = self.pattern.search(text, pos)
        self.owner._ruota_last = (match, text)
        return match

    def __getattr__(self, name):
        return getattr(self.pattern, name)


class CapturingFencedCode:
    """Mixed into Python-Markdown's own fenced_code preprocessor (MkDocs' default, where a
    site does not use SuperFences): records each block it stores, as `CapturingFences` does."""

    def run(self, lines):
        align(self.md.ruota, lines, self.md.tab_length)
        self._ruota_last, self._ruota_shift = (None, ""), 0
        self.FENCED_BLOCK_RE = _SearchWatch(type(self).FENCED_BLOCK_RE, self)
        stash, store = self.md.htmlStash, self.md.htmlStash.store
        stash.store = self._ruota_store
        try:
            return super().run(lines)
        finally:
            stash.store = store
            del self.FENCED_BLOCK_RE

    def _ruota_store(self, html):
        state, (match, text) = self.md.ruota, self._ruota_last
        stash = self.md.htmlStash
        if match is None:
            return type(stash).store(stash, html)
        # the text has had each earlier block replaced by 3 lines: count back to the page's lines
        start = text.count("\n", 0, match.start()) - self._ruota_shift
        length = match.group(0).count("\n") + 1
        self._ruota_shift += 3 - length
        language = match.group("lang") or ""
        if match.group("attrs"):
            classes = [w[1:] for w in match.group("attrs").split() if w.startswith(".")]
            language = classes[0] if classes else ""
        captured = Captured(number=len(state.captured), code=match.group("code").rstrip("\n"), fence_language=language,
                            info=match.group(0).split("\n", 1)[0].strip(), start=start, end=start + length,
                            formatter="superfences", collapsed=3)
        placeholder = type(stash).store(stash, markers.wrap(state.nonce, captured.number, html))
        captured.placeholder = placeholder
        state.captured.append(captured)
        return placeholder


class IndentedCode(Treeprocessor):
    """Indented code blocks: readers see them as code; they have no language."""

    def run(self, root):
        state = self.md.ruota
        for parent in list(root.iter()):
            for position, child in reversed(list(enumerate(parent))):
                if child.tag != "pre" or len(child) != 1 or child[0].tag != "code":
                    continue
                text = child[0].text or ""
                code = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").rstrip("\n")
                number = len(state.captured)
                state.captured.append(Captured(number, code, "", "", -1, -1, indented=True, formatter=""))
                start, end = markers.elements(state.nonce, number)
                parent.insert(position + 1, end)
                parent.insert(position, start)
        return None
