"""The Python-Markdown extension: registers the capture's pieces on each Markdown instance."""

from __future__ import annotations

import html

from markdown import Extension

from ruota_docs.blocks.capture.attach import Directives
from ruota_docs.blocks.capture.fences import CapturingFencedCode, CapturingFences, IndentedCode
from ruota_docs.blocks.capture.generated import TraceGenerators
from ruota_docs.blocks.capture.origins import RememberLines, RetagBeforeIncludes, TagPageLines, TrackedSnippets
from ruota_docs.blocks.capture.state import CaptureState, Context


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
        # first of all preprocessors: lines another extension expands or generates are told apart
        md.preprocessors.register(TagPageLines(md), "ruota_tag_lines", 10_000)
        md.preprocessors.register(RetagBeforeIncludes(md), "ruota_retag_lines", 32.5)
        md.preprocessors.register(RememberLines(md), "ruota_remember_lines", 31.9)
        md.preprocessors.register(Directives(md), "ruota_directives", 24)
        md.treeprocessors.register(IndentedCode(md), "ruota_indented_code", 31)
        if "snippet" in md.preprocessors:
            _mix(md.preprocessors["snippet"], TrackedSnippets, md)
        md.preprocessors.register(TraceGenerators(md, _mix), "ruota_trace_generators", 10_001)
        fences = md.preprocessors["fenced_code_block"] if "fenced_code_block" in md.preprocessors else None
        if fences is not None and not hasattr(fences, "process_nested_block") and hasattr(fences, "FENCED_BLOCK_RE"):
            _mix(fences, CapturingFencedCode, md)  # no SuperFences: Python-Markdown's fenced_code
        elif fences is not None and hasattr(fences, "process_nested_block"):
            _mix(fences, CapturingFences, md)
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
