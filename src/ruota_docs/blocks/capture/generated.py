"""What an extension renders from elsewhere into the page: mkdocstrings' ``::: identifier``.

mkdocstrings renders a docstring with a Markdown conversion of its own, which the capture is
not part of, and hands the page opaque HTML (a stash placeholder, revealed after every
treeprocessor): its code blocks reach the page's HTML from no fence of the page. The
identifier, the ``:::`` line and two ``made`` markers around that HTML are recorded here,
so that those blocks are told apart and said to be made by mkdocstrings from that object.
"""

from __future__ import annotations

from markdown.preprocessors import Preprocessor

from ruota_docs.blocks import markers


class TraceGenerators(Preprocessor):
    """Before the page renders, trace mkdocstrings' processor: in a build, its extension may
    join the Markdown instance after the capture did (a plugin run again, per language)."""

    def __init__(self, md, mix) -> None:
        super().__init__(md)
        self.mix = mix

    def run(self, lines):
        if "mkdocstrings" in self.md.parser.blockprocessors:
            self.mix(self.md.parser.blockprocessors["mkdocstrings"], TracedAutoDoc, self.md)
        return lines


class TracedAutoDoc:
    """Mixed into mkdocstrings' ``AutoDocProcessor``: marks each object's HTML."""

    def run(self, parent, blocks):
        state = self._ruota_md.ruota
        match = self.regex.search(blocks[0]) if blocks else None
        before = len(parent)
        super().run(parent, blocks)
        if match is None:
            return
        made = [el for el in parent[before:] if el.tag == "div" and el.get("class") == "mkdocstrings"]
        for element in made:
            number = len(state.made)
            state.made.append(("mkdocstrings", match["name"].strip(), _line_of(state, match.group(0))))
            stash = self._ruota_md.htmlStash
            element.text = (stash.store(markers.made(state.nonce, number)) + (element.text or "")
                            + stash.store(markers.made_end(state.nonce, number)))


def _line_of(state, line: str) -> int:
    """The page line of a ``:::`` line: the next one, in page order, that has not been found yet."""
    wanted = line.strip()
    for index in range(state.made_cursor, len(state.lines)):
        if state.lines[index].strip() == wanted:
            state.made_cursor = index + 1
            return state.page_line(index)
    return state.context.first_line
