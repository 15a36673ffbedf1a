"""The card matrix: one row per target (``gfx1102``, ``CUDA sm_90``, ``CPU x86_64``), one
column per guide.

Each cell is the best level of evidence the guide reaches on a machine of that target
(:mod:`ruota_docs.site.evidence`) and on how many of its machines, linked to the block that
reached it and, where the next level is not reached, to the block that stops it; where
the target's machines disagree (one failed a block another passed), the cell says so.
Under each row, an expandable list of its machines with their own levels. A filter (in
``ruota.js``, shipped with the site) narrows the rows and says how many are left (in a live
region, for screen readers); each row has a stable anchor, ``#target-gfx1102``. Each card
the guides are about that no record has yet gets a row saying so (the page around the
matrix says how to send one). Expanded from ``<!-- card-matrix: -->``;
every string comes from :mod:`ruota_docs.site.locales`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ruota_docs.records import verdicts
from ruota_docs.records.schema import BACKENDS, Machine, Record, backend_order
from ruota_docs.site import evidence, formatting, machine_names, reasons, tier_table, trust
from ruota_docs.site.locales import text
from ruota_docs.site.fragments import icon

#: The icon each level shows (the verification marks' own).
_ICONS = {0: "stale", 1: "skipped", 2: "passed", 3: "passed"}
_STOP_ICONS = {"failed": "failed", "stale": "stale", "absent": "stale", "skipped": "skipped"}


def anchor(block) -> str:
    """The id of a block's verification panel on its page (`ruota_docs.site.fragments.block_panel`,
    which the plugin gives the block's index)."""
    return f"ruota-block-{block.index}"


def _link(url: str, block, words: str) -> str:
    return f'<a href="{html.escape(url)}#{anchor(block)}">{html.escape(words)}</a>'


def _torch(machine: Machine) -> str:
    version = machine.torch or "—"
    if machine.hip:
        return f"{version} · HIP {machine.hip}"
    if machine.cuda and machine.backend == "cuda":
        return f"{version} · CUDA {machine.cuda}"
    return version


def _machine_facts(data: Record, lang: str) -> list[str]:
    """A machine as the matrix describes it: the GPU, then its target and system, PyTorch,
    the date of the run and where the record comes from (HTML, escaped)."""
    m = data.machine
    # a CPU machine by the name every mark and tab gives it, then that it has no GPU
    gpu = m.gpu_name or text(lang, "matrix_cpu_only", cpu=machine_names.cpu_label(m.machine, lang))
    system = f"{(m.os or '?').capitalize().replace('Macos', 'macOS')} {machine_names.arch(m.machine)}".strip()
    target = f"<code>{html.escape(m.arch)}</code> · " if m.arch else ""
    facts = [f"<strong>{html.escape(gpu)}</strong>", f"{target}{html.escape(system)}",
             f"PyTorch {html.escape(_torch(m))}", html.escape(formatting.date(data.updated, lang))]
    provenance = data.provenance or {}
    known = trust.current()
    if provenance.get("kind") == "ci" and known.ci_state(data) != "verified":
        facts.append(html.escape(text(lang, "matrix_ci_claimed")))  # no link: the run is not proven to be it
    elif provenance.get("kind") == "ci" and provenance.get("run_url"):
        facts.append(f'<a href="{html.escape(provenance["run_url"])}">{html.escape(text(lang, "matrix_ci_run"))}</a>')
    elif provenance.get("kind") == "sent":
        facts.append(html.escape(text(lang, "matrix_sent")))
    if id(data) in known.unknown_commit:
        facts.append(html.escape(text(lang, "matrix_unknown_commit")))
    return facts


def _stop_words(cell: evidence.Cell, lang: str, machines: int = 1) -> str:
    """What stops the next level, said of the ``machines`` the cell stands for ("on this machine"): that
    level by name, the block it requires and why that block does not count."""
    block = cell.stopped_by
    # readers know a block by the snippet it shows (040_assert_rocm.py), not by a line of the Markdown
    included = [path.rsplit("/", 1)[-1] for path in getattr(block, "includes", ()) if path]
    where = (text(lang, "matrix_block_file", file=included[-1]) if len(included) == 1
             else text(lang, "matrix_block", line=block.line))
    following = text(lang, f"matrix_level_{evidence.LEVELS[min(cell.level + 1, len(evidence.LEVELS) - 1)]}")
    if cell.stop == "skipped":
        reason = reasons.reason_text(cell.stop_entry, lang)
        return text(lang, "matrix_stop_skipped", block=where, reason=reason, count=machines, next=following)
    return text(lang, f"matrix_stop_{cell.stop}", block=where, next=following)


def _level_name(cell: evidence.Cell, lang: str) -> str:
    return text(lang, "matrix_off_target" if cell.off_target else f"matrix_level_{evidence.LEVELS[cell.level]}")


#: How a guide's ``target`` reads in a cell: its values, with the backends as they are written.
_BACKEND_WORDS = {key: backend.name for key, backend in BACKENDS.items()} | {"gpu": "GPU"}


def _target_words(guide: evidence.Guide, lang: str) -> str:
    """A guide's target as a sentence names it: "ROCm on gfx906", "ROCm", "gfx906 / gfx1030"."""
    backends = ", ".join(_BACKEND_WORDS.get(req.name, req.name) for req in guide.target if not req.values)
    archs = ", ".join(" / ".join(req.values) for req in guide.target if req.values)
    if backends and archs:
        return text(lang, "matrix_target_on", backend=backends, arch=archs)
    return backends or archs


def _off_target(guide: evidence.Guide, lang: str) -> str:
    """A cell of a machine the guide is not written for: said in a word, the guide's target in its
    column's header once (`_guide_head`), and again in the cell's tooltip."""
    tip = text(lang, "matrix_off_target_for", target=_target_words(guide, lang))
    return (f'<td class="ruota-level ruota-level-off" title="{html.escape(tip)}">'
            f'<span class="ruota-level-name">{html.escape(text(lang, "matrix_off_target"))}</span></td>')


def _guide_head(guide: evidence.Guide, url: str, lang: str) -> str:
    """A guide's column header: its title, linked, and the machines it is written for: those it names, else
    any (so that no column looks as if its target were missing)."""
    words = _target_words(guide, lang)
    said = text(lang, "matrix_written_for", target=words) if words else text(lang, "matrix_written_for_any")
    written = f'<span class="ruota-level-next">{html.escape(said)}</span>'
    return f'<th scope="col"><a href="{html.escape(url)}">{html.escape(guide.title)}</a>{written}</th>'


def _cell(cell: evidence.Cell, url: str, lang: str, machines: int = 1) -> str:
    label = _level_name(cell, lang)
    if cell.level == len(evidence.LEVELS) - 1:  # the whole guide: link to the guide itself
        head = f'<a href="{html.escape(url)}">{html.escape(label)}</a>'
    else:
        head = _link(url, cell.reached_by, label) if cell.reached_by is not None else html.escape(label)
    parts = [f'<span class="ruota-level-name">{icon(_ICONS[cell.level])}{head}</span>']
    if cell.stopped_by is not None:
        state = _STOP_ICONS.get(cell.stop, "stale")
        parts.append(f'<span class="ruota-level-next ruota-mark-{state}">{icon(state)}'
                     f'{_link(url, cell.stopped_by, _stop_words(cell, lang, machines))}</span>')
    return f'<td class="ruota-level ruota-level-{cell.level}">{"".join(parts)}</td>'


@dataclass
class _Target:
    """The machines of one backend and target, and what each reaches in each guide."""

    backend: str
    target: str
    records: list = field(default_factory=list)  #: ``(data, [Cell per guide])``

    @property
    def anchor(self) -> str:
        name = self.target if self.backend == "rocm" else self.backend + "-" + self.target
        return "target-" + re.sub(r"[^a-z0-9_]+", "-", f"{name}".lower())


def _by_machine(verdict: verdicts.Verdict) -> dict[str, verdicts.MachineResult]:
    """A verdict's results by record id, once for the copies of a block that share the verdict."""
    return verdict.kept("by_machine", lambda: {r.machine_id: r for r in verdict.results})


class _OneRecord:
    """One record's result for each block of a guide (block index → result), looked up when asked."""

    __slots__ = ("by_block", "record")

    def __init__(self, by_block: dict[int, dict], record: str) -> None:
        self.by_block, self.record = by_block, record

    def get(self, index: int):
        results = self.by_block.get(index)
        return results.get(self.record) if results is not None else None


def _targets(guides: list[evidence.Guide], indexed: verdicts.Index) -> list[_Target]:
    """Every record's cells, grouped by target; each guide block's verdict is drawn once from
    every record together (`verdicts.Index`), not once per record."""
    results = []
    for guide in guides:
        by_block = {b.index: _by_machine(indexed.verdict(guide.page, b.index, b.sha256)) for b in guide.blocks}
        results.append(by_block)
    found: dict[tuple[str, str], _Target] = {}
    for data in indexed.ledgers:
        machine = data.machine
        rid = verdicts.record_id(data)
        cells = [evidence.cell_of(g, machine, _OneRecord(by_block, rid)) for g, by_block in zip(guides, results)]
        key = machine.group
        found.setdefault(key, _Target(*key)).records.append((data, cells))
    return sorted(found.values(), key=lambda t: (backend_order(t.backend), t.target))


def _best(target: _Target, n: int, guide: evidence.Guide, url: str, lang: str) -> str:
    """The cell of guide ``n`` for a target: the best level its machines reach, on how many."""
    cells = [cells[n] for _, cells in target.records]
    cells = [c for c in cells if not c.off_target]
    if not cells:
        return _off_target(guide, lang)
    best = max(cells, key=lambda c: c.level)
    reaching = sum(1 for c in cells if c.level == best.level)
    html_cell = _cell(best, url, lang, reaching)
    notes = []
    if len(cells) > 1:
        notes.append(html.escape(text(lang, "matrix_best_on", count=reaching, total=len(cells))))
    if best.level > 0 and any(c.stop == "failed" and c.level < best.level for c in cells):
        notes.append(f'<span class="ruota-matrix-disagree ruota-mark-failed">{icon("failed")}'
                     f'{html.escape(text(lang, "matrix_disagree"))}</span>')
    if notes:
        extra = "".join(f'<span class="ruota-level-count">{note}</span>' for note in notes)
        html_cell = html_cell.replace("</td>", extra + "</td>")
        if any("ruota-matrix-disagree" in note for note in notes):
            html_cell = html_cell.replace('class="ruota-level ', 'class="ruota-level ruota-disagree ', 1)
    return html_cell


def _target_head(target: _Target, lang: str) -> str:
    names = sorted({(d.machine.gpu_name or "") for d, _ in target.records} - {""})
    # a GPU target by its identifier (gfx1102, CUDA sm_90), as code; a CPU as the marks name it ("x86-64 CPU")
    cpu = target.backend == "cpu"
    label = (machine_names.cpu_label(target.target, lang) if cpu else
             target.target if target.backend == "rocm" else f"{target.backend.upper()} {target.target}")
    count = text(lang, "matrix_machines", count=len(target.records))
    # independent only as far as the senders are (a fingerprint is whatever a sender writes)
    if len(target.records) > 1:
        count += ", " + text(lang, "senders", count=trust.current().senders([d for d, _ in target.records]))
    shown = ", ".join(names[:3]) + (" …" if len(names) > 3 else "")
    shown_label = html.escape(label) if cpu else f"<code>{html.escape(label)}</code>"
    facts = ([f"<strong>{shown_label}</strong>"] + ([html.escape(shown)] if shown else [])
             + [html.escape(count)])
    return '<th scope="row">' + "".join(f'<span class="ruota-matrix-fact">{f}</span>' for f in facts) + "</th>"


#: Machines a target's list shows, the newest first: the page stays light with a thousand
#: records (every record is in verification/, and in the counts of the row).
LISTED_MACHINES = 20


def _machine_list(target: _Target, guides: list[evidence.Guide], lang: str) -> str:
    """The expandable list of a target's machines, each with its level in each guide written for it (a guide
    not written for the target is so for all its machines, and the row's cell says it once)."""
    items = []
    newest = sorted(target.records, key=lambda item: str(item[0].updated), reverse=True)
    for data, cells in newest[:LISTED_MACHINES]:
        levels = " · ".join(text(lang, "matrix_guide_level", guide=html.escape(g.title),
                                 level=html.escape(_level_name(c, lang)))
                            for g, c in zip(guides, cells) if not c.off_target)
        items.append(f'<li data-machine="{html.escape(verdicts.record_id(data))}">'
                     f'{" · ".join(_machine_facts(data, lang))}'
                     + (f'<br><span class="ruota-matrix-levels">{levels}</span>' if levels else "") + "</li>")
    summary = f'{html.escape(text(lang, "matrix_list"))} ({formatting.number(len(newest), lang, 0)})'
    more = len(newest) - len(items)
    if more:
        items.append(f'<li class="ruota-matrix-more">{html.escape(text(lang, "matrix_more", count=more))}</li>')
    return f"<details><summary>{summary}</summary><ul>{''.join(items)}</ul></details>"


def target_runs(targets) -> str:
    """A card's targets as its row names them: three or more consecutive ones as a range (``gfx1030–gfx1032``),
    the others one by one (``gfx1030–gfx1032, gfx1034``), so that a range never covers a target not listed."""
    def number(target: str) -> int | None:  # gfx names end in hexadecimal digits (gfx90a follows gfx909)
        try:
            return int(target.removeprefix("gfx"), 16) if target.startswith("gfx") else None
        except ValueError:
            return None

    runs: list[list[str]] = []
    for target in targets:
        n, last = number(target), (number(runs[-1][-1]) if runs else None)
        if runs and n is not None and last is not None and n == last + 1:
            runs[-1].append(target)
        else:
            runs.append([target])
    return ", ".join(f"{run[0]}–{run[-1]}" if len(run) >= 3 else ", ".join(run) for run in runs)


def card_matrix(guides: list[evidence.Guide], ledgers: list[Record], lang: str, url: Callable[[str], str],
                cards=(), indexed: verdicts.Index | None = None) -> str:
    """The matrix as HTML. ``url(page)`` is the link from the matrix's page to ``page``
    (``es/guides/keras-rx7600.md``); ``guides`` are in the reader's language ``lang``; ``cards``
    (`evidence.target_cards`) get a row while no record has their targets; ``indexed`` is
    ``ledgers``' `verdicts.Index` where the caller has one."""
    indexed = verdicts.index_ledgers(ledgers) if indexed is None else indexed
    columns = len(guides)
    head = "".join(_guide_head(g, url(g.page), lang) for g in guides)
    header = f'<tr><th scope="col">{html.escape(text(lang, "matrix_target"))}</th>{head}</tr>'
    rows = []
    for target in _targets(guides, indexed):
        gpu_names = [(d.machine.gpu_name or "") for d, _ in target.records]
        # the filter finds a row by what it shows too: a CPU as the row names it ("x86-64 CPU")
        shown = [machine_names.cpu_label(target.target, lang)] if target.backend == "cpu" else []
        search = " ".join([target.target, target.backend] + shown + gpu_names)
        cells = "".join(_best(target, n, g, url(g.page), lang) for n, g in enumerate(guides))
        rows.append(f'<tr id="{target.anchor}" class="ruota-matrix-target" data-filter="{html.escape(search.lower())}">'
                    f'{_target_head(target, lang)}{cells}</tr>')
        rows.append(f'<tr class="ruota-matrix-machines" data-for="{target.anchor}"><td colspan="{columns + 1}">'
                    f'{_machine_list(target, guides, lang)}</td></tr>')
    reached = tier_table.collect(guides, indexed)
    compiled = tier_table.compiled_targets(reached)
    for name, targets in evidence.missing_cards(ledgers, cards):
        shown = target_runs(targets)
        built = [t for t in targets if t in compiled]  # compiled for in CI: a record, though not of a run
        rest = [t for t in targets if t not in compiled]  # the card's other targets: said not to be, yet
        said = formatting.join(built, lang)
        if built and rest:
            said = text(lang, "matrix_not_yet", targets=said, rest=formatting.join(rest, lang, style="nor"))
        words = html.escape(text(lang, "matrix_compiled_only", targets=said, count=len(targets)) if built
                            else text(lang, "matrix_no_record"))
        rows.append(f'<tr class="ruota-matrix-missing" data-targets="{html.escape(" ".join(targets))}" '
                    f'data-filter="{html.escape((name + " " + " ".join(targets)).lower())}">'
                    f'<th scope="row"><span class="ruota-matrix-fact"><strong>{html.escape(name)}</strong></span>'
                    f'<span class="ruota-matrix-fact"><code>{html.escape(shown)}</code></span></th>'
                    f'<td colspan="{columns}">{icon("stale")}<strong>{words}</strong></td></tr>')
    label = html.escape(text(lang, "matrix_filter"))
    search = f'<input type="search" class="ruota-matrix-filter" placeholder="{label}" aria-label="{label}" hidden>'
    # the rows left, said by screen readers as the filter changes them (role=status is polite)
    count = html.escape(text(lang, "matrix_filter_count", shown="{shown}", total="{total}"))
    search += f'<p class="ruota-matrix-count" role="status" aria-live="polite" data-words="{count}" hidden></p>'
    table = (f'<div class="md-typeset__scrollwrap"><div class="md-typeset__table ruota-matrix"><table>'
             f"<thead>{header}</thead><tbody>{''.join(rows)}</tbody></table></div></div>")
    tiers = tier_table.table(guides, indexed, lang, reached)
    # the collapsed keys table before the evidence table, so that the page's explanation of the evidence
    # table, right after the directive, follows that table
    return (f'<div class="ruota-card-matrix" data-search-exclude>{search}{table}'
            f'{_key_blocks(guides, url, lang)}{tiers}</div>')


def _key_blocks(guides: list[evidence.Guide], url: Callable[[str], str], lang: str) -> str:
    """Which blocks mark each level, guide by guide (the site's ``key_blocks``), in a collapsed list."""
    rows = []
    for guide in guides:
        cells = []
        for level in ("environment", "self_test"):
            # a narrow column breaks a file name after an underscore, never inside a word
            links = ", ".join(f'<a href="{html.escape(url(guide.page))}#{anchor(b)}">'
                              f'<code>{html.escape(snippet.rsplit("/", 1)[-1]).replace("_", "_<wbr>")}</code></a>'
                              for snippet, b in guide.key_blocks[level])
            cells.append(f"<td>{links}</td>")
        meant = sum(1 for b in guide.blocks if b.not_run_reason is None)
        rows.append(f'<tr><th scope="row"><a href="{html.escape(url(guide.page))}">{html.escape(guide.title)}</a></th>'
                    f'{"".join(cells)}<td class="ruota-num">{meant}</td></tr>')
    head = "".join(f'<th scope="col">{html.escape(text(lang, key))}</th>' for key in
                   ("matrix_guide", "matrix_level_environment", "matrix_level_self_test", "matrix_meant"))
    # collapsed under its title: this table serves the engine's settings. The summary names the table
    # (aria-labelledby), so that a screen reader does not hear the title twice, as it would with a caption.
    caption = html.escape(text(lang, "matrix_keys_caption"))
    return (f'<details class="ruota-matrix-keys-details"><summary id="ruota-matrix-keys-title">{caption}</summary>'
            f'<div class="md-typeset__scrollwrap"><div class="md-typeset__table ruota-matrix-keys">'
            f'<table aria-labelledby="ruota-matrix-keys-title"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div></div></details>")
