"""Where each line of a page came from: the page itself, or a file included with ``--8<--``
at any depth. Lines are tagged as they enter (:class:`Origin`), through pymdownx.snippets'
own preprocessor, which also notes a circular or missing include at the include's line."""

from __future__ import annotations

import os

from markdown.preprocessors import Preprocessor

from ruota_docs.blocks import line_map
from ruota_docs.blocks.capture.state import CaptureState, Problem


class Origin(str):
    """A line of Markdown that remembers the file and line it was written at, and, for a
    line of an included file, the page line of the include that brought it in."""

    def __new__(cls, text: str, path: str, line: int, via: int | None = None, brought: bool = False):
        self = super().__new__(cls, text)
        self.path, self.line, self.via = path, line, via
        self.brought = brought  #: brought in by another extension's preprocessor (at the line of its directive)
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


class TagPageLines(Preprocessor):
    """Before every preprocessor: each of the page's own lines learns its file line."""

    def run(self, lines):
        state = self.md.ruota
        context = state.context
        state.page_lines = [str(line) for line in lines]
        return [Origin(line, context.path, context.first_line + n) for n, line in enumerate(lines)]


def _retag(state: CaptureState, lines: list) -> list:
    """The lines, each an `Origin`: those another extension's preprocessor returned as plain
    strings get theirs back from the page's own lines (`line_map.carry`)."""
    if all(isinstance(line, Origin) for line in lines):
        return lines
    first, path = state.context.first_line, state.context.path
    page = [(path, first + n, None) for n in range(len(state.page_lines))]
    carried, brought = line_map.carry(state.page_lines, page, lines)
    return [line if isinstance(line, Origin) or found is None else Origin(line, *found, brought=n in brought)
            for n, (line, found) in enumerate(zip(lines, carried))]


class RetagBeforeIncludes(Preprocessor):
    """Just before pymdownx.snippets: lines that an earlier preprocessor of another extension
    untagged are tagged again, so that an include knows the page line it is written at."""

    def run(self, lines):
        return _retag(self.md.ruota, lines)


class RememberLines(Preprocessor):
    """After includes: keep where each line came from, and the lines themselves."""

    def run(self, lines):
        state = self.md.ruota
        lines = _retag(state, lines)  # for a preprocessor of another extension between includes and here
        state.origins = [(line.path, line.line, line.via) if isinstance(line, Origin) else None for line in lines]
        state.brought = {n for n, line in enumerate(lines) if getattr(line, "brought", False)}
        state.lines = [str(line) for line in lines]
        return lines


class _FileWatch:
    """pymdownx.snippets' pattern that splits an include into path and line ranges or section,
    remembering its last match (before 13.1 only: see `TrackedSnippets._ruota_tag_file`)."""

    def __init__(self, pattern, owner) -> None:
        self.pattern, self.owner = pattern, owner

    def match(self, path, *args):
        self.owner._ruota_target = found = self.pattern.match(path, *args)
        return found

    def __getattr__(self, name):
        return getattr(self.pattern, name)


class TrackedSnippets:
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
        state = self._ruota_md.ruota
        state.include_errors.append(Problem(via if via is not None else state.context.first_line, message))

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
        if found is None:
            self._ruota_md.ruota.unfound.append(path)
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
