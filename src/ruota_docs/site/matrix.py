"""The card matrix: one row per machine that ran the suite, one column per guide.

Each cell is the level of evidence the guide reaches on that machine
(:mod:`ruota_docs.site.evidence`), linked to the block that reached it and, where the next
level is not reached, to the block that stops it. Each card the guides are about that
no record has yet gets a row saying so, with the link to contribute one. Expanded from
``<!-- card-matrix: -->``; every string comes from :mod:`ruota_docs.site.locales`.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from ruota_docs.records import verdicts
from ruota_docs.site import evidence, formatting
from ruota_docs.site.locales import text
from ruota_docs.site.fragments import icon, localised_reason

_ORDER = {"rocm": 0, "cuda": 1, "cpu": 2}
#: The icon each level shows (the verification marks' own).
_ICONS = {0: "stale", 1: "skipped", 2: "passed", 3: "passed"}
_STOP_ICONS = {"failed": "failed", "stale": "stale", "absent": "stale", "skipped": "skipped"}


def anchor(block) -> str:
    """The id of a block's verification panel on its page (`ruota_docs.site.fragments.block_panel`,
    which the plugin gives the block's index)."""
    return f"ruota-block-{block.index}"


def _link(url: str, block, words: str) -> str:
    return f'<a href="{html.escape(url)}#{anchor(block)}">{html.escape(words)}</a>'


def _torch(machine: dict) -> str:
    version = machine.get("torch") or "—"
    if machine.get("hip"):
        return f"{version} · HIP {machine['hip']}"
    if machine.get("cuda") and machine.get("backend") == "cuda":
        return f"{version} · CUDA {machine['cuda']}"
    return version


def _machine_cell(data: dict, lang: str) -> str:
    """The row's head: the GPU, then its target and system, PyTorch, and the date of the run,
    one per line (a compact column leaves room for the guides)."""
    m = data.get("machine", {})
    gpu = m.get("gpu_name") or text(lang, "matrix_cpu_only")
    system = f"{m.get('os', '?').capitalize().replace('Macos', 'macOS')} {m.get('machine', '')}".strip()
    target = f"<code>{html.escape(m['arch'])}</code> · " if m.get("arch") else ""
    lines = [f"<strong>{html.escape(gpu)}</strong>", f"{target}{html.escape(system)}",
             f"PyTorch {html.escape(_torch(m))}", html.escape(formatting.date(data.get("updated"), lang, "medium"))]
    facts = "".join(f'<span class="ruota-matrix-fact">{line}</span>' for line in lines)
    return f'<th scope="row">{facts}</th>'


def _stop_words(cell: evidence.Cell, lang: str) -> str:
    block = cell.stopped_by
    where = text(lang, "matrix_block", line=block.line)
    if cell.stop == "skipped":
        reason = localised_reason(block, (cell.stop_entry or {}).get("reason") or "", lang)
        return text(lang, "matrix_stop_skipped", block=where, reason=reason)
    return text(lang, f"matrix_stop_{cell.stop}", block=where)


def _cell(cell: evidence.Cell, url: str, lang: str) -> str:
    label = text(lang, f"matrix_level_{evidence.LEVELS[cell.level]}")
    if cell.level == len(evidence.LEVELS) - 1:  # the whole guide: link to the guide itself
        head = f'<a href="{html.escape(url)}">{html.escape(label)}</a>'
    else:
        head = _link(url, cell.reached_by, label) if cell.reached_by is not None else html.escape(label)
    parts = [f'<span class="ruota-level-name">{icon(_ICONS[cell.level])}{head}</span>']
    if cell.stopped_by is not None:
        state = _STOP_ICONS.get(cell.stop, "stale")
        parts.append(f'<span class="ruota-level-next ruota-mark-{state}">{icon(state)}'
                     f'{_link(url, cell.stopped_by, _stop_words(cell, lang))}</span>')
    return f'<td class="ruota-level ruota-level-{cell.level}">{"".join(parts)}</td>'


def card_matrix(guides: list[evidence.Guide], ledgers: list[dict], lang: str, url: Callable[[str], str],
                cards=()) -> str:
    """The matrix as HTML. ``url(page)`` is the link from the matrix's page to ``page``
    (``es/guides/keras-rx7600.md``); ``guides`` are in the reader's language ``lang``; ``cards``
    (`evidence.target_cards`) get a row while no record has their targets."""
    indexed = verdicts.index_ledgers(ledgers)
    ordered = sorted(indexed, key=lambda item: (_ORDER.get(item[0].get("machine", {}).get("backend"), 3),
                                                str(item[0].get("machine", {}).get("arch") or ""), str(item[0].get("machine_id"))))
    columns = len(guides)
    head = "".join(f'<th scope="col"><a href="{html.escape(url(g.page))}">{html.escape(g.title)}</a></th>' for g in guides)
    header = f'<tr><th scope="col">{html.escape(text(lang, "machine"))}</th>{head}</tr>'
    rows = []
    for data, pages in ordered:
        cells = "".join(_cell(evidence.cell(g, data, pages), url(g.page), lang) for g in guides)
        rows.append(f'<tr data-machine="{html.escape(str(data.get("machine_id")))}">{_machine_cell(data, lang)}{cells}</tr>')
    contribute = url(f"{lang}/run-on-your-card.md")
    for name, targets in evidence.missing_cards(ledgers, cards):
        shown = ", ".join(targets) if len(targets) < 3 else f"{targets[0]}–{targets[-1]}"
        words = html.escape(text(lang, "matrix_no_record"))
        link = f'<a href="{html.escape(contribute)}">{html.escape(text(lang, "matrix_contribute"))}</a>'
        rows.append(f'<tr class="ruota-matrix-missing" data-targets="{html.escape(" ".join(targets))}">'
                    f'<th scope="row"><span class="ruota-matrix-fact"><strong>{html.escape(name)}</strong></span>'
                    f'<span class="ruota-matrix-fact"><code>{html.escape(shown)}</code></span></th>'
                    f'<td colspan="{columns}">{icon("stale")}<strong>{words}</strong> — {link}</td></tr>')
    table = (f'<div class="md-typeset__scrollwrap"><div class="md-typeset__table ruota-matrix"><table>'
             f"<thead>{header}</thead><tbody>{''.join(rows)}</tbody></table></div></div>")
    return f'<div class="ruota-card-matrix" data-search-exclude>{table}{_key_blocks(guides, url, lang)}</div>'


def _key_blocks(guides: list[evidence.Guide], url: Callable[[str], str], lang: str) -> str:
    """Which blocks mark each level, guide by guide (the site's ``key_blocks``)."""
    rows = []
    for guide in guides:
        cells = []
        for level in ("environment", "self_test"):
            links = ", ".join(f'<a href="{html.escape(url(guide.page))}#{anchor(b)}"><code>{html.escape(snippet.rsplit("/", 1)[-1])}</code></a>'
                              for snippet, b in guide.key_blocks[level])
            cells.append(f"<td>{links}</td>")
        meant = sum(1 for b in guide.blocks if b.not_run_reason is None)
        rows.append(f'<tr><th scope="row"><a href="{html.escape(url(guide.page))}">{html.escape(guide.title)}</a></th>'
                    f'{"".join(cells)}<td class="ruota-num">{meant}</td></tr>')
    head = "".join(f'<th scope="col">{html.escape(text(lang, key))}</th>' for key in
                   ("matrix_guide", "matrix_level_environment", "matrix_level_self_test", "matrix_meant"))
    return (f'<div class="md-typeset__scrollwrap"><div class="md-typeset__table ruota-matrix-keys"><table>'
            f'<caption>{html.escape(text(lang, "matrix_keys_caption"))}</caption><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div></div>")
