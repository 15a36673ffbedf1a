"""How far each machine's record goes for each guide: the levels of the card matrix.

In the spirit of TheRock's support table (build passing → sanity tested → release
ready), a guide reaches on a machine, from its record, one of these levels:

0. **no evidence** — the guide's environment blocks did not all pass there (skipped
   for lack of hardware, failed, changed since they ran, or never run);
1. **environment checked** — every *environment* block of the guide passed there, in
   its current form (the blocks that check the installed stack sees the device);
2. **self-test passed** — level 1, and every *self-test* block passed (the guide's
   small computation on the device);
3. **whole guide passed** — level 2, and every other block of the guide that is meant
   to run (not ``run: skip``) passed there too, in its current form. A block skipped
   only because the run did not allow the network (``requires: network``) or because it
   is for another operating system does not count against it; any other skip (ROCm, a
   GPU, a target, VRAM or a package the machine lacked), a failure, a changed or a
   missing block does.

Which blocks are a guide's environment and self-test blocks is the site's to say, in the
``key_blocks`` option of the ``ruota_docs`` plugin in mkdocs.yml, by the snippet each
includes (so it survives blocks moving on the page): a snippet it names that no block of the
guide includes any more stops the build (`EvidenceError`). The cards the guides are about
are the ``target_cards`` option.

A guide written for one kind of machine names it there too, as ``target:`` in the words of
``requires:`` (``rocm arch=gfx906``). A machine that is not of that kind reaches no level in
that guide, whatever passed there: an environment report that runs anywhere says nothing
about a Radeon VII when it passed on a CPU. Its cell reads "not this guide's target".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ruota_docs.records import verdicts
from ruota_docs.records.agreement import HOLDS, unmet
from ruota_docs.records.schema import Machine, Record, Result
from ruota_docs.blocks import terms
from ruota_docs.blocks.collect import PageError, page_blocks

LEVELS = ("none", "environment", "self_test", "whole_guide")

#: The levels a guide's key blocks mark, as ``key_blocks`` names them.
KEY_LEVELS = ("environment", "self_test")
#: Where authors say which blocks those are (the error messages name it).
_WHERE = "mkdocs.yml (plugins: ruota_docs: key_blocks)"


class EvidenceError(ValueError):
    """The site's ``key_blocks`` and the guides disagree."""


def key_blocks(option: dict) -> dict[str, dict]:
    """The ``key_blocks`` option, checked: guide (path under a language folder) → level →
    the snippets whose blocks mark it, ``target`` where the guide names one, and ``title`` (language →
    the guide's short title) where its heading is too long for a column. Raises `EvidenceError`."""
    table = {}
    for guide, levels in option.items():
        unknown = sorted(set(levels) - set(KEY_LEVELS) - {"target", "title"})
        missing = [level for level in KEY_LEVELS if level not in levels]
        if unknown or missing:
            problem = f"unknown key {unknown[0]!r}" if unknown else f"no {missing[0]} snippets"
            raise EvidenceError(f"{_WHERE}: {guide}: {problem}; give each guide {' and '.join(KEY_LEVELS)}: "
                                "a list of snippets under snippets/ (and, optionally, target: the machines "
                                "it is written for, as requires: says them)")
        for level in KEY_LEVELS:
            if not isinstance(levels[level], (list, tuple)) or not all(isinstance(s, str) for s in levels[level]):
                raise EvidenceError(f"{_WHERE}: {guide}: {level}: give a list of snippets under snippets/")
        table[guide] = {level: tuple(levels[level]) for level in KEY_LEVELS}
        if "target" in levels:
            _target(guide, levels["target"])  # checked now, so that a typo stops the build here
            table[guide]["target"] = levels["target"]
        if "title" in levels:
            titles = levels["title"]
            if not isinstance(titles, dict) or not all(isinstance(t, str) and t.strip() for t in titles.values()):
                raise EvidenceError(f"{_WHERE}: {guide}: title: give the guide's short title in each language, "
                                    "as a mapping such as {es: …, fr: …, en: …}")
            table[guide]["title"] = {str(lang): t.strip() for lang, t in titles.items()}
    return table


def _target(guide: str, written: object) -> tuple[terms.Requirement, ...]:
    """A guide's ``target``, parsed as a ``requires:`` comment is. Raises `EvidenceError`."""
    if not isinstance(written, str) or not written.strip():
        raise EvidenceError(f"{_WHERE}: {guide}: target: give the machines the guide is written for, "
                            "as requires: says them (rocm arch=gfx906)")
    try:
        parsed = terms.parse(written)
    except ValueError as error:
        raise EvidenceError(f"{_WHERE}: {guide}: target: {error}") from None
    about_run = [str(req) for req in parsed if req.name not in HOLDS]
    if about_run:
        raise EvidenceError(f"{_WHERE}: {guide}: target: {', '.join(about_run)} says nothing a record's machine "
                            f"can show; use {', '.join(sorted(HOLDS))}")
    return parsed


def target_cards(option: dict) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The ``target_cards`` option: ``(card, its GPU targets)`` in the order written."""
    return tuple((str(name), tuple(targets)) for name, targets in option.items())


def guide_targets(option: dict, cards: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, tuple[str, ...]]:
    """The ``guide_cards`` option (guide → the card of ``target_cards`` it is about), as guide → that
    card's targets. Raises `EvidenceError` for a card ``target_cards`` does not name."""
    targets = dict(cards)
    for guide, card in option.items():
        if card not in targets:
            raise EvidenceError(f"mkdocs.yml (plugins: ruota_docs: guide_cards): {guide}: no card {card!r} in "
                                f"target_cards (it names {', '.join(map(repr, targets)) or 'none'})")
    return {str(guide): targets[card] for guide, card in option.items()}


@dataclass
class Guide:
    """One guide in the reader's language: its blocks, and which of them are key blocks."""

    key: str  #: ``guides/keras-rx7600.md``
    page: str  #: ``es/guides/keras-rx7600.md``
    title: str  #: its short title (key_blocks' title), else its heading up to its first colon
    blocks: list  #: `ruota_docs.run.sybil.parsers.Block`, in page order
    key_blocks: dict[str, list]  #: level → ``(snippet, block)`` pairs
    target: tuple = ()  #: the `terms.Requirement` a machine must meet for the guide to speak of it


@dataclass
class Cell:
    """What one machine's record says about one guide."""

    level: int  #: index in `LEVELS`
    reached_by: object = None  #: the last key block of the level reached
    stopped_by: object = None  #: the first block that stops the next level
    stop: str | None = None  #: why: failed, stale, absent, skipped
    stop_entry: Result | None = None  #: the record's result of that block, where there is one
    off_target: bool = False  #: the machine is not of the kind the guide is written for


def _includes(block, snippet: str) -> bool:
    """Whether ``block`` includes ``snippet`` (a path under snippets/, whatever section of it,
    however the engine spells the include: ``g/x.py:part`` or ``snippets/g/x.py``)."""
    for source in block.includes:
        path = str(source).split(":", 1)[0]
        if path == snippet or path.endswith("/" + snippet):
            return True
    return False


def load_guides(root: Path, docs_dir: Path, lang: str, table: dict, blocks_of=None) -> list[Guide]:
    """The guides of ``table`` (`key_blocks`) in ``lang``, with their current blocks. Raises `EvidenceError`.

    ``blocks_of(path)`` gives a page's blocks as `page_blocks` does (the site build passes
    those its own rendering found)."""
    guides = []
    for key, levels in table.items():
        path = Path(docs_dir) / lang / key
        if not path.is_file():
            raise EvidenceError(f"{_WHERE} names {lang}/{key}, which does not exist; name the guide's path "
                                "under the language folder there")
        try:
            blocks = blocks_of(path) if blocks_of else page_blocks(root, docs_dir, path)
        except PageError as error:
            raise EvidenceError(f"{lang}/{key}:{error.line}: {error}") from None
        text = path.read_text(encoding="utf-8-sig")
        headings = (ln[2:].split("{")[0].split(":")[0].strip() for ln in text.splitlines() if ln.startswith("# "))
        # the short title the site gives the guide (as its Guides page links it), else its heading up to a colon
        title = levels.get("title", {}).get(lang) or next(headings, key)
        chosen = {}
        for level in KEY_LEVELS:
            chosen[level] = []
            for snippet in levels[level]:
                found = [b for b in blocks if _includes(b, snippet)]
                if not found:
                    raise EvidenceError(_not_included(lang, key, snippet, text))
                chosen[level] += [(snippet, b) for b in found]
        target = _target(key, levels["target"]) if "target" in levels else ()
        guides.append(Guide(key, f"{lang}/{key}", title, blocks, chosen, target))
    return guides


def _not_included(lang: str, key: str, snippet: str, text: str) -> str:
    """Why no block includes ``snippet``: the guide no longer includes it (``key_blocks`` must follow), or it
    does and the engine did not see the include, which is the engine's fault, not the guide's."""
    lines = text.splitlines()
    written = next((n for n, line in enumerate(lines, 1) if snippet in line
                    and ("8<" in line or (n > 1 and "8<" in lines[n - 2] and line.strip() == snippet))), None)
    if written is not None:
        return (f"{lang}/{key}:{written} includes {snippet}, but the engine found no block that includes it: "
                "the block capture missed the include (not the guide's fault; ruota_docs/blocks/compat.py "
                "names the versions of pymdown-extensions, Markdown and MkDocs it works with)")
    return (f"{_WHERE}: no block of {lang}/{key} includes {snippet} any more; "
            "name the guide's current environment and self-test snippets there")


#: Requirements whose absence says nothing about the card: network access, another operating system.
_NOT_THE_CARD = frozenset({"network", "os"})


def _excused(block, machine: Machine, entry: Result | None) -> bool:
    """A skip that says nothing about the card: the machine lacked only network access or another operating
    system. The record's reason code says which terms were unmet, so a network block skipped because the
    machine also lacked a package still counts against the guide; a result without one is judged by the
    block's requirements alone."""
    if block.kind == "windows" and machine.os != "windows":
        return True
    code = entry.reason_code if entry is not None else None
    if isinstance(code, dict) and code.get("code") == "requires":
        written = (code.get("args") or {}).get("terms") or []
        try:
            names = {t.name for term in written for t in terms.parse(str(term))}
        except terms.RequirementError:
            names = set()
        return bool(names) and names <= _NOT_THE_CARD
    names_of = {t.name: t for t in block.requirements}
    if "network" in names_of:
        return True
    return "os" in names_of and machine.os not in names_of["os"].values


def cell(guide: Guide, data: Record, pages: verdicts.PageEntries) -> Cell:
    """The level ``guide`` reaches in one record (``data``, with ``pages`` its `verdicts.PageEntries`)."""
    indexed = [(data, pages)]
    found = {b.index: verdicts.verdict(guide.page, b.index, b.sha256, indexed).only() for b in guide.blocks}
    return cell_of(guide, data.machine, found)


def cell_of(guide: Guide, machine: Machine, found) -> Cell:
    """The level ``guide`` reaches on ``machine``, from its result for each block (``found``: a
    mapping of block index → `verdicts.MachineResult`, None or missing where it has none). Each
    block is looked up only until the levels stop: the card matrix asks for every record."""
    if guide.target and unmet(guide.target, machine):
        return Cell(0, off_target=True)

    def state(block) -> str:
        held = found.get(block.index)
        return held.state if held else "absent"

    result = Cell(0)

    def stopped(block) -> Cell:
        held = found.get(block.index)
        result.stopped_by, result.stop = block, state(block)
        result.stop_entry = held.entry if held else None
        return result

    for level in ("environment", "self_test"):
        blocking = next((b for _, b in guide.key_blocks[level] if state(b) != "passed"), None)
        if blocking is not None:
            return stopped(blocking)
        result.level, result.reached_by = LEVELS.index(level), guide.key_blocks[level][-1][1]
    for block in guide.blocks:
        if block.not_run_reason is not None:  # not meant to run
            continue
        held = found.get(block.index)
        if held and (held.state == "passed" or (held.state == "skipped" and _excused(block, machine, held.entry))):
            continue
        return stopped(block)
    result.level = LEVELS.index("whole_guide")
    return result


def missing_cards(ledgers: list[Record], cards) -> list[tuple[str, tuple[str, ...]]]:
    """The ``cards`` (`target_cards`) whose targets no ROCm record has yet: ``(name, targets without a record)``."""
    seen = {d.machine.arch for d in ledgers if d.machine.backend == "rocm"}
    rows = []
    for name, targets in cards:
        left = tuple(t for t in targets if t not in seen)
        if left:
            rows.append((name, left))
    return rows
