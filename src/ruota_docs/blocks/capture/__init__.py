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

The parts: :mod:`.state` (what is recorded), :mod:`.origins` (where lines came from),
:mod:`.fences` (the blocks), :mod:`.attach` (directives to their blocks), :mod:`.extension`.
"""

from importlib import import_module

#: Where each name lives. Imported on first use: a `ruota_docs.blocks.Block` needs only
#: :mod:`.state`, and a process that runs pages without rendering them (the pytest side,
#: while a page renders ahead in a child) should not pay for Python-Markdown.
_NAMES = {
    "BlockCapture": "extension", "Origin": "origins",
    "Captured": "state", "CaptureState": "state", "Context": "state", "Problem": "state",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str):
    if name not in _NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_NAMES[name]}"), name)
    globals()[name] = value
    return value
