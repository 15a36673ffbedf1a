"""A Python-Markdown extension that records the code blocks a page renders.

Added after the site's own extensions, it changes nothing readers see. While the
page renders it records:

- every fenced block SuperFences formats, with exactly the code, language, options
  and attributes it hands to its formatter, and the lines of the fence;
- every indented code block Python-Markdown keeps as one;
- where each line came from — the page, or a file included with ``--8<--`` at any
  depth — by tagging lines as they enter (:class:`Origin`);
- our directives (``<!-- requires: … -->``, ``run:``, ``chart:``, Sybil's ``skip:``):
  a block directive belongs to the block whose fence is on the very next line, as
  SuperFences found it; the comment lines themselves are blanked, since they are for
  the engine and, left in an admonition, would pull the block into a paragraph.

Each recorded block's HTML is wrapped in two empty marker ``div``s
(:mod:`ruota_docs.blocks.markers`). A block counts only if its marker reaches the page's
HTML outside any comment: a fence SuperFences formatted and then gave back (inside an
indented code block), or one inside an HTML comment, never does.
"""

from __future__ import annotations

import html
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from markdown import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from ruota_docs.blocks import directives, markers, shown, site_config
from ruota_docs.blocks.directives import Directive


class Origin(str):
    """A line of Markdown that remembers the file and line it was written at, and, for a
    line of an included file, the page line of the include that brought it in."""

    def __new__(cls, text: str, path: str, line: int, via: int | None = None):
        self = super().__new__(cls, text)
        self.path, self.line, self.via = path, line, via
        return self

    def __radd__(self, other):
        # pymdownx.snippets indents included lines with ``space + line``
        if isinstance(other, str):
            return Origin(str(other) + str(self), self.path, self.line, self.via)
        return NotImplemented


class _CycleGuard(set):
    """pymdownx.snippets silently skips a file already being included; we note it."""

    def __init__(self, items, owner) -> None:
        super().__init__(items)
        self.owner = owner

    def __contains__(self, item: object) -> bool:
        if set.__contains__(self, item):
            self.owner._ruota_problem(f"circular include of {self.owner._ruota_shown(str(item))}")
            return True
        return False


class _Watch:
    """A compiled pattern that remembers the last line it was asked to match: the line
    pymdownx.snippets is reading when it opens a file."""

    def __init__(self, pattern, owner) -> None:
        self.pattern, self.owner = pattern, owner

    def match(self, line, *args):
        self.owner._ruota_line = line
        return self.pattern.match(line, *args)

    def __getattr__(self, name):
        return getattr(self.pattern, name)


@dataclass
class Captured:
    """One code block as the renderer produced it."""

    number: int  #: capture order (markers carry it)
    code: str  #: exactly what the formatter highlighted: what readers see
    language: str  #: as written (``py3``, ``python``, ``''``)
    info: str  #: the opening fence line without its indentation
    start: int  #: index of the fence's first line among the page's lines (after includes)
    end: int  #: index after its last line
    indented: bool = False  #: an indented code block, not a fence
    collapsed: int = 1  #: lines the fence became (SuperFences: its placeholder; fenced_code: 3)
    hidden: int = 0  #: leading blank lines of the fence's body that the highlighter drops
    formatter: str = "superfences"  #: the SuperFences entry that formatted it
    options: dict = field(default_factory=dict)
    attrs: dict = field(default_factory=dict)
    classes: list = field(default_factory=list)
    id: str = ""
    placeholder: str = ""
    directives: list[Directive] = field(default_factory=list)
    error: str | None = None  #: a misspelled directive right before it
    skip: str | None = None  #: the reason given by Sybil's ``skip:``


@dataclass
class Problem:
    """Something wrong on a page that belongs to no block."""

    line: int
    message: str


@dataclass
class Context:
    """What the extension needs to know about the page being rendered."""

    path: str  #: the page file (absolute), as origins name it
    first_line: int = 1  #: the file line of the Markdown's first line (after front matter)
    record_missing: bool | None = None  #: None: as the site's ``check_paths`` says


class CaptureState:
    """Everything recorded while one page renders (kept on the Markdown instance)."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.nonce = secrets.token_hex(4)
        self.captured: list[Captured] = []
        self.origins: list[tuple[str, int, int | None] | None] = []
        self.lines: list[str] = []  #: the page's lines after includes, before fences are formed
        self.aligned = True  #: whether those lines are the ones SuperFences saw
        self.post_to_pre: list[int] | None = None
        self.page_directives: list[Directive] = []
        self.skips: list[tuple[int, Directive]] = []  #: (line index, directive)
        self.problems: list[Problem] = []
        self.include_errors: list[Problem] = []  #: at the page line of the include
        self.pending: Captured | None = None
        self.extended: dict = {}  #: the site's extend_pygments_lang, ``{name: [lang, options]}``

    # -- where a line came from -------------------------------------------------------
    def origin(self, index: int) -> tuple[str, int, int | None] | None:
        """``(file, line, via)`` of line ``index``; an untagged line follows the one above."""
        if not 0 <= index < len(self.origins):
            return None
        for back in range(index, -1, -1):
            found = self.origins[back]
            if found is not None:
                return found[0], found[1] + (index - back), found[2]
        return None

    def page_line(self, index: int) -> int:
        """The page's line for line ``index``; for an included line, the line of the include."""
        found = self.origin(index)
        if found is None:
            return self.context.first_line
        if found[0] == self.context.path:
            return found[1]
        return found[2] if found[2] is not None else self._last_page_line(index)

    def _last_page_line(self, index: int) -> int:
        """For lines appended after the page (``auto_append``): its last line."""
        lines = [o[1] for o in self.origins[: index + 1] if o is not None and o[0] == self.context.path]
        return lines[-1] if lines else self.context.first_line

    def where(self, index: int) -> tuple[int, str]:
        """``(page line, "file:line" or "")`` for line ``index``."""
        origin = self.origin(index)
        source = f"{origin[0]}:{origin[1]}" if origin and origin[0] != self.context.path else ""
        return self.page_line(index), source


# -- the pieces registered on the Markdown instance --------------------------------------
class _TagPageLines(Preprocessor):
    """Before includes: each of the page's own lines learns its file line."""

    def run(self, lines):
        context = self.md.ruota.context
        return [Origin(line, context.path, context.first_line + n) for n, line in enumerate(lines)]


class _RememberLines(Preprocessor):
    """After includes: keep where each line came from, and the lines themselves."""

    def run(self, lines):
        state = self.md.ruota
        state.origins = [(line.path, line.line, line.via) if isinstance(line, Origin) else None for line in lines]
        state.lines = [str(line) for line in lines]
        return lines


class _FileWatch:
    """pymdownx.snippets' pattern that splits an include into path and line ranges or section,
    remembering its last match (before 13.1 only: see `_TrackedSnippets._ruota_tag_file`)."""

    def __init__(self, pattern, owner) -> None:
        self.pattern, self.owner = pattern, owner

    def match(self, path, *args):
        self.owner._ruota_target = found = self.pattern.match(path, *args)
        return found

    def __getattr__(self, name):
        return getattr(self.pattern, name)


class _TrackedSnippets:
    """Mixed into the site's pymdownx.snippets preprocessor: included lines carry their
    origin, and a circular include or (with the site's ``check_paths``) a missing file
    or section is noted at the include's page line instead of aborting the page, so
    that only the block that includes it fails.

    pymdownx.snippets 13.1 reads every included file through ``read_lines``, where lines
    are tagged as they enter. Before 13.1 it opens the file inline: the lines are tagged
    where they surface, in ``extract_section`` and ``parse_snippets`` (`_ruota_tag_file`)."""

    def run(self, lines):
        state = self._ruota_md.ruota
        self._ruota_record = self.check_paths if state.context.record_missing is None else state.context.record_missing
        self._ruota_line = self._ruota_found = self._ruota_target = None
        self.RE_ALL_SNIPPETS = _Watch(type(self).RE_ALL_SNIPPETS, self)
        self.RE_SNIPPET = _Watch(type(self).RE_SNIPPET, self)
        self.RE_SNIPPET_FILE = _FileWatch(type(self).RE_SNIPPET_FILE, self)
        self.check_paths = False
        try:
            return super().run(lines)
        finally:
            self.check_paths = self._ruota_record
            del self.RE_ALL_SNIPPETS, self.RE_SNIPPET, self.RE_SNIPPET_FILE

    @property
    def _ruota_reads_lines(self) -> bool:
        return hasattr(super(), "read_lines")

    def _ruota_file(self, path) -> list[Origin]:
        """The lines of an included file, tagged, as pymdownx.snippets reads them."""
        with open(path, encoding=self.encoding) as file:
            text = file.read()
        via = self._ruota_via()
        return [Origin(line, path, n, via) for n, line in enumerate(text.split("\n") if text else [], 1)]

    def _ruota_tag_file(self, lines, path):
        """Before 13.1: the lines pymdownx.snippets selected from a file (all of them, or its line
        ranges), tagged by selecting the same lines from the file again; untouched unless both
        selections agree line for line."""
        target = self._ruota_target
        ranges = target.group(2) if target is not None else None
        tagged = self._ruota_file(path)
        if ranges:
            tagged = _select_ranges(tagged, ranges)
            tagged = self.dedent(tagged) if self.dedent_subsections else tagged
        return tagged if [str(t) for t in tagged] == [str(line) for line in lines] else lines

    def _ruota_via(self) -> int | None:
        """The page line of the include being read."""
        line = self._ruota_line
        if not isinstance(line, Origin):
            return None
        return line.line if line.path == self._ruota_md.ruota.context.path else line.via

    def _ruota_shown(self, path: str) -> str:
        """An included file as written in an include: relative to the base path holding it."""
        for base in self.base_path:
            if path.startswith(os.path.join(str(base), "")):
                return os.path.relpath(path, str(base))
        return path

    def _ruota_problem(self, message: str) -> None:
        via = self._ruota_via()
        self._ruota_md.ruota.include_errors.append(Problem(via if via is not None else self._ruota_md.ruota.context.first_line, message))

    def parse_snippets(self, lines, file_name=None, is_url=False, is_section=False):
        if file_name is None:  # the page itself
            self.seen = _CycleGuard(self.seen, self)
        elif not is_url and not self._ruota_reads_lines and not any(isinstance(line, Origin) for line in lines):
            lines = self._ruota_tag_file(lines, file_name)
        return super().parse_snippets(lines, file_name, is_url, is_section)

    def read_lines(self, path):
        via = self._ruota_via()
        return [Origin(line, path, n, via) for n, line in enumerate(super().read_lines(path), 1)]

    def dedent(self, lines):
        dedented = super().dedent(lines)
        return [Origin(d, o.path, o.line, o.via) if isinstance(o, Origin) else d for d, o in zip(dedented, lines)]

    def get_snippet_path(self, path):
        self._ruota_found = found = super().get_snippet_path(path)
        if found is None and self._ruota_record:
            self._ruota_problem(f"Snippet at path '{path}' could not be found")
        return found

    def extract_section(self, section, lines):
        if not self._ruota_reads_lines and self._ruota_found and not any(isinstance(line, Origin) for line in lines):
            # before 13.1 the section is cut from the whole file, just read: tag it by position
            tagged = self._ruota_file(self._ruota_found)
            if [str(t) for t in tagged] == list(lines):
                lines = tagged
        self.check_paths = True
        try:
            return super().extract_section(section, lines)
        except Exception as error:  # noqa: BLE001 — pymdownx's SnippetMissingError
            if self._ruota_record:
                self._ruota_problem(str(error))
            return []
        finally:
            self.check_paths = False


def _select_ranges(lines: list, ranges: str) -> list:
    """The lines an include's line ranges (``:3:5``, ``:-2``, ``:1:2,6:``) select, as pymdownx.snippets
    before 13.1 selects them (1-based, ends inclusive, negative counts from the end)."""
    total, chosen = len(lines), []
    for item in ranges[1:].split(","):
        span = item.split(":")
        first = int(span[0]) if span[0] else None
        last = int(span[1]) if len(span) > 1 and span[1] else None
        if first is not None:
            first = min(max(total + first, 0), total) if first < 0 else max(0, first - 1)
        if last is not None and last < 0:
            last = min(max(total + 1 + last, 0), total)
        chosen.extend(lines[first:last])
    return chosen


def _align(state, lines) -> None:
    """Line up the page's origins with the lines a fence preprocessor gets: Python-Markdown's
    whitespace normalisation appends blank lines, which have no origin. Where anything else
    changed the lines, ``state.aligned`` is false and origins are not trusted."""
    extra = len(lines) - len(state.lines)
    state.aligned = extra >= 0 and not any(line.strip() for line in lines[len(lines) - extra:])
    if state.aligned:
        state.lines += [""] * extra
        state.origins += [None] * extra


class _CapturingFences:
    """Mixed into SuperFences' block preprocessor: records each fence it formats."""

    def run(self, lines):
        state = self.md.ruota
        _align(state, lines)
        result = super().run(lines)
        state.extended = {str(e["name"]).lower(): [e.get("lang"), e.get("options", {})]
                          for e in self.extend_pygments_lang or [] if isinstance(e, dict) and e.get("name")}
        return result

    def process_nested_block(self, ws, content, start, end):
        state = self.md.ruota
        name = next((e["name"] for e in self.extension.superfences if e.get("formatter") is self.formatter), "superfences")
        code = self.rebuild_block(self.code)
        hidden = 0
        if name == "superfences" and self.use_pygments and self.stripnl:
            # Pygments' stripnl: readers never see the body's leading blank lines (trailing ones are
            # kept in the code: they change nothing that runs, and records hash them)
            hidden = len(code) - len(code.lstrip("\n"))
            code = code[hidden:]
        state.pending = Captured(
            number=len(state.captured), code=code, language=self.lang or "",
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


class _CapturingFencedCode:
    """Mixed into Python-Markdown's own fenced_code preprocessor (MkDocs' default, where a
    site does not use SuperFences): records each block it stores, as `_CapturingFences` does."""

    def run(self, lines):
        _align(self.md.ruota, lines)
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
        captured = Captured(number=len(state.captured), code=match.group("code").rstrip("\n"), language=language,
                            info=match.group(0).split("\n", 1)[0].strip(), start=start, end=start + length,
                            formatter="superfences", collapsed=3)
        placeholder = type(stash).store(stash, markers.wrap(state.nonce, captured.number, html))
        captured.placeholder = placeholder
        state.captured.append(captured)
        return placeholder


class _Directives(Preprocessor):
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
                state.problems.extend(Problem(d.line, f"{d.name}: directive at line {d.line} {reason}") for d in pending)
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
    if not state.aligned:
        return None
    spans = {c.start: c for c in state.captured if not c.indented}
    mapping, i, total = [], 0, len(state.lines)
    while i < total:
        captured = spans.get(i)
        mapping += [i] * (captured.collapsed if captured else 1)
        i = captured.end if captured else i + 1
    return mapping if len(mapping) == count else None


class _IndentedCode(Treeprocessor):
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


class BlockCapture(Extension):
    """The extension; ``context()`` tells it which page the next Markdown instance renders."""

    def __init__(self, context: Context | None = None, fast: bool = False, **kwargs) -> None:
        self._context = context
        self.fast = fast  #: leave code unhighlighted and prose unformatted (for finding blocks only)
        self.page_state: CaptureState | None = None  #: the state of the page's own Markdown instance
        super().__init__(**kwargs)

    def context(self, context: Context) -> None:
        """The next Markdown instance made renders this page (MkDocs makes one per page)."""
        self._context = context
        self.page_state = None

    def extendMarkdown(self, md) -> None:  # noqa: N802 — Python-Markdown's name
        md.registerExtension(self)
        md.ruota = CaptureState(self._context or Context(path=""))
        if self.page_state is None:
            self.page_state = md.ruota
        md.preprocessors.register(_TagPageLines(md), "ruota_tag_lines", 32.5)
        md.preprocessors.register(_RememberLines(md), "ruota_remember_lines", 31.9)
        md.preprocessors.register(_Directives(md), "ruota_directives", 24)
        md.treeprocessors.register(_IndentedCode(md), "ruota_indented_code", 31)
        if "snippet" in md.preprocessors:
            _mix(md.preprocessors["snippet"], _TrackedSnippets, md)
        fences = md.preprocessors["fenced_code_block"] if "fenced_code_block" in md.preprocessors else None
        if fences is not None and not hasattr(fences, "process_nested_block") and hasattr(fences, "FENCED_BLOCK_RE"):
            _mix(fences, _CapturingFencedCode, md)  # no SuperFences: Python-Markdown's fenced_code
        elif fences is not None and hasattr(fences, "process_nested_block"):
            _mix(fences, _CapturingFences, md)
            default = fences.extension.superfences[0]
            if self.fast and default["name"] == "superfences":
                # the highlighter always returns HTML: skipping it changes no block
                default["formatter"] = _unhighlighted
        if self.fast:
            # half of a page's rendering is inline markup, and almost none of it can decide a
            # block: keep what decides which text is literal (code spans, escapes) and which
            # ``<!--`` reach the HTML raw (inline HTML, entities), and footnote references
            for name in [p.name for p in md.inlinePatterns._priority if p.name not in _DECIDING_INLINE]:
                md.inlinePatterns.deregister(name)

    def reset(self) -> None:
        pass


#: Inline patterns that can change which code blocks a page shows (see ``fast``).
_DECIDING_INLINE = frozenset({"backtick", "escape", "html", "entity", "footnote"})


def _unhighlighted(src="", language="", options=None, md=None, **kwargs) -> str:
    return f"<pre><code>{html.escape(src)}</code></pre>"


def _mix(instance, mixin, md) -> None:
    """Give one preprocessor instance our behaviour on top of its own class."""
    instance._ruota_md = md  # pymdownx.snippets keeps no reference to its Markdown instance
    cls = type(instance)
    if not issubclass(cls, mixin):
        instance.__class__ = type(f"{mixin.__name__.lstrip('_')}{cls.__name__}", (mixin, cls), {})

