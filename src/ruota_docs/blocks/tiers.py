"""Evidence tiers: how far a block's result goes towards showing that code works on a card.

A passed block reached:

- ``compiled`` when it declares ``<!-- evidence: compiled arch=gfx1102[,…] -->``: it built code
  for those targets and inspected it, on a machine that needs no such card;
- ``ran`` when it needs a GPU (``requires: gpu``, ``rocm`` or ``cuda``): it ran on the machine's card;
- ``checked`` when it needs a GPU and declares ``<!-- evidence: checked -->``: it ran on the card
  and matched its reference.

A block with no directive and no GPU requirement reaches no tier (most blocks: they show how to
use a library, not what a card does). ``ran`` and ``checked`` are the machine's target's
(``gfx1102``, ``sm_90``); ``compiled`` is the targets the directive names, whatever the machine.
Only a passed block reaches a tier. A higher tier is never derived from a lower one: a result
that says ``compiled`` is never shown as run or passed on the card.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruota_docs.blocks import terms
from ruota_docs.blocks.directives import DirectiveError

#: The tiers, lowest first.
TIERS = ("compiled", "ran", "checked")
#: Requirement terms that put a block on the machine's GPU.
GPU_TERMS = ("gpu", "rocm", "cuda")


@dataclass(frozen=True)
class Evidence:
    """What ``<!-- evidence: … -->`` declares for a block."""

    tier: str  #: one of `TIERS`
    targets: tuple[str, ...] = ()  #: for ``compiled``: the gfx targets the block builds code for


def parse(directive, requirements: tuple) -> Evidence:
    """The `Evidence` of an ``evidence:`` directive, checked against the block's requirements
    (``requirements``: its parsed terms). Raises `DirectiveError` naming what to write."""
    options = directive.options()
    declared = [k for k, v in options.items() if v is True]
    if len(declared) != 1 or declared[0] not in TIERS:
        shown = ", ".join(declared) or "nothing"
        raise DirectiveError(f"evidence: names one tier of {', '.join(TIERS)} (got {shown}), e.g. "
                             "<!-- evidence: compiled arch=gfx1102 --> or <!-- evidence: checked -->", directive.line)
    tier = declared[0]
    unknown = [k for k, v in options.items() if v is not True and k != "arch"]
    if unknown:
        raise DirectiveError(f"unknown evidence: option {unknown[0]!r}; known: arch (for compiled)", directive.line)
    targets = tuple(str(options.get("arch", "")).split(",")) if "arch" in options else ()
    if tier == "compiled":
        if not targets or not all(terms.gfx_target(t) for t in targets):
            raise DirectiveError("evidence: compiled names the gfx targets the block builds for, without features: "
                                 f"<!-- evidence: compiled arch=gfx1102,gfx906 --> (got {options.get('arch')!r})",
                                 directive.line)
        return Evidence(tier, targets)
    if targets:
        raise DirectiveError(f"evidence: {tier} is the target of the machine that ran it: write no arch=",
                             directive.line)
    if tier == "ran":
        raise DirectiveError("evidence: ran needs no directive: a passed block that requires a GPU "
                             "(requires: gpu, rocm or cuda) reached it", directive.line)
    if not needs_gpu(requirements):
        raise DirectiveError(f"evidence: {tier} is reached only on a card: the block needs a requirement "
                             "<!-- requires: gpu --> (or rocm, cuda) before it", directive.line)
    return Evidence(tier)


def needs_gpu(requirements: tuple) -> bool:
    """Whether a block's requirements put it on the machine's GPU."""
    return any(getattr(term, "name", None) in GPU_TERMS for term in requirements)


def derive(evidence: Evidence | None, requirements: tuple, outcome: str) -> str | None:
    """The tier a block's result reached: None unless it passed (see the table above)."""
    if outcome != "passed":
        return None
    if evidence is not None and evidence.tier == "compiled":
        return "compiled"
    if not needs_gpu(requirements):
        return None
    return "checked" if evidence is not None and evidence.tier == "checked" else "ran"
