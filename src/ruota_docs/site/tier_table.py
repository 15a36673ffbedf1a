"""The evidence tiers of the card matrix: per target, the highest tier any record reached and
how many machines reached each (`ruota_docs.blocks.tiers`).

A ``compiled`` result counts for the targets its block's directive names (``gfx1102``, built on a
machine without that card); ``ran`` and ``checked`` count for the target of the machine that ran
them. Only a passed result of the code published now counts. The words never raise a tier:
``compiled`` reads "compiled for gfx1102", never as run or passed; "(also in CI, on every commit)"
is added where a machine without a GPU reached it, since such a block runs in every CI run (``make
test``) and ``make check`` fails while its record is not current. The words say what CI does, not
where the record shown came from: a record sent from a machine of CI's kind still reads as sent.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from ruota_docs.blocks import tiers
from ruota_docs.records import verdicts
from ruota_docs.records.schema import backend_order
from ruota_docs.site import formatting
from ruota_docs.site.locales import text


@dataclass
class TargetTiers:
    """The machines (record ids) that reached each tier for one target."""

    backend: str
    target: str
    machines: dict[str, set[str]] = field(default_factory=lambda: {tier: set() for tier in tiers.TIERS})
    without_gpu: bool = False  #: a machine with no GPU reached ``compiled`` (the CI's kind)
    #: the guides whose blocks reached a tier here, in the matrix's order: why a target no card row names is listed
    guides: list[str] = field(default_factory=list)

    @property
    def highest(self) -> str | None:
        return next((tier for tier in reversed(tiers.TIERS) if self.machines[tier]), None)

    @property
    def label(self) -> str:
        return self.target if self.backend == "rocm" else f"{self.backend.upper()} {self.target}"


def _tier_of(block, result) -> str | None:
    """The tier of a passed result: as recorded, else (a record from before tiers) as its block derives it."""
    recorded = result.entry.tier if result.entry is not None else None
    tier = recorded or tiers.derive(block.evidence, block.requirements, "passed")
    if tier in ("ran", "checked") and result.machine.backend not in ("rocm", "cuda"):
        return None  # never on a machine without a GPU (`record check` refuses such a record)
    return tier


def collect(guides, indexed: verdicts.Index) -> list[TargetTiers]:
    """Every target some result reached a tier for, with its machines per tier."""
    found: dict[tuple[str, str], TargetTiers] = {}
    for guide in guides:
        for block in guide.blocks:
            for result in indexed.verdict(guide.page, block.index, block.sha256).results:
                if result.state != "passed":
                    continue
                tier = _tier_of(block, result)
                if tier is None:
                    continue
                machine = result.machine
                keys = ([("rocm", t) for t in block.evidence.targets] if tier == "compiled"
                        else [machine.group])
                for key in keys:
                    row = found.setdefault(key, TargetTiers(*key))
                    row.machines[tier].add(result.machine_id)
                    if guide.title not in row.guides:
                        row.guides.append(guide.title)
                    if tier == "compiled" and machine.backend == "cpu":
                        row.without_gpu = True
    return sorted(found.values(), key=lambda r: (-tiers.TIERS.index(r.highest), backend_order(r.backend),
                                                  len(r.target), r.target))


def words(row: TargetTiers, lang: str) -> str:
    """The row's highest tier in words: "compiled for gfx1102"; that CI compiles it again is said once, under
    the table (`table`)."""
    return text(lang, f"tier_reached_{row.highest}", target=row.label)


def compiled_targets(found: list[TargetTiers]) -> set[str]:
    """The AMD targets some block compiled for (whatever tier they reached besides)."""
    return {row.target for row in found if row.backend == "rocm" and row.machines["compiled"]}


def _count(row: TargetTiers, tier: str, lang: str) -> str:
    """How many machines reached ``tier`` on the row's target; an em dash (the site's empty cell) where no block
    only compiles code for a target that ran (a 0 there would read as a failure to compile)."""
    count = len(row.machines[tier])
    if tier == "compiled" and not count and row.highest != "compiled":
        return f'<td class="ruota-num" title="{html.escape(text(lang, "tier_no_compiled"))}">—</td>'
    return f'<td class="ruota-num">{count}</td>'


def table(guides, indexed: verdicts.Index, lang: str, found: list[TargetTiers] | None = None) -> str:
    """The tiers table (HTML), or '' where no result reached a tier; ``found`` is `collect`'s
    answer where the caller has it."""
    rows = []
    found = collect(guides, indexed) if found is None else found
    for row in found:
        counts = "".join(_count(row, tier, lang) for tier in tiers.TIERS)
        titles = [text(lang, "quoted", text=guide) for guide in row.guides]
        tip = text(lang, "tier_from", guides=formatting.join(titles, lang), count=len(titles)) if titles else ""
        title = f' title="{html.escape(tip)}"' if tip else ""
        rows.append(f'<tr class="ruota-tier-{row.highest}">'
                    f'<th scope="row"{title}><code>{html.escape(row.label)}</code></th>'
                    f"<td>{html.escape(words(row, lang))}</td>{counts}</tr>")
    if not rows:
        return ""
    head = "".join(f'<th scope="col">{html.escape(text(lang, key))}</th>'
                   for key in ("matrix_target", "tier_highest", *(f"tier_machines_{t}" for t in tiers.TIERS)))
    # CI compiles again, on every commit, what a machine without a GPU compiled: said once, not in each row
    compiled = [row for row in found if row.highest == "compiled"]
    note = (f'<p class="ruota-matrix-note">{html.escape(text(lang, "tier_ci_note"))}</p>'
            if compiled and all(row.without_gpu for row in compiled) else "")
    return (f'<div class="md-typeset__scrollwrap"><div class="md-typeset__table ruota-matrix-tiers"><table>'
            f'<caption>{html.escape(text(lang, "tier_caption"))}</caption><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div></div>{note}")
