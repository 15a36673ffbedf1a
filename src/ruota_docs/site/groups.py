"""A block's results grouped by backend and target, so that a page says as much with a
thousand machines' records as with two.

A block panel, a value in the prose and the card matrix do not list machines: they count
them per group (``rocm``/``gfx1102``, ``cuda``/``sm_90``, ``cpu``/``x86_64``), the guide's
own card first (the plugin's ``guide_cards``: `use_guide_targets`), then the GPUs, then the CPU.

Agreement: where the machines of one group that ran a block's current code did not all
get the same outcome, the group *disagrees* — shown on the block and in the matrix, never
outvoted. An outcome on a target is *confirmed* only when at least two independent records
(different machine fingerprints, sent by different senders) hold it: one machine, however many
times it ran, is one witness, and so is one sender, however many fingerprints they write.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ruota_docs.records import senders
from ruota_docs.records.schema import BACKENDS, backend_order
from ruota_docs.records.verdicts import MachineResult, Verdict
from ruota_docs.site import machine_names, trust

#: This build's guides (path under a language folder) → the targets of the card each is about
#: (set once per build from the site's options, as `ruota_docs.site.trust` is).
_GUIDE_TARGETS: list[dict[str, tuple[str, ...]]] = [{}]


def use_guide_targets(table: dict[str, tuple[str, ...]]) -> None:
    """The guides of the site being built and their cards' targets (`ruota_docs.site.evidence.guide_targets`)."""
    _GUIDE_TARGETS[0] = dict(table)


def page_targets(page: str) -> tuple[str, ...]:
    """The targets of the card ``page`` (``es/guides/keras-rx7600.md``) is about; () for most pages."""
    return _GUIDE_TARGETS[0].get(page.split("/", 1)[-1], ())


@dataclass
class Group:
    """The results of one backend and target."""

    backend: str
    target: str
    results: list[MachineResult] = field(default_factory=list)
    _counts: Counter | None = field(default=None, repr=False, compare=False)
    #: what the group's readers ask of it (its results in a state, its latest run…), kept: the copies
    #: of a block in every language share one verdict and its groups (`groups_of`)
    _of: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def key(self) -> str:
        return f"{self.backend}-{self.target}"

    def label(self, lang: str) -> str:
        """The group as a reader knows it: the machine itself where it is the only one
        (``NVIDIA H200 (CUDA)``), else its target (``gfx1102``, ``CUDA sm_90``, "x86-64 CPU")."""
        if len(self.results) == 1:
            return machine_names.label(self.results[0], lang)
        return target_label(self.backend, self.target, lang)

    def count(self, *states: str) -> int:
        """Machines of the group in one of ``states`` (all of them without): a verdict holds one
        result per record."""
        if not states:
            return len(self.results)
        if self._counts is None:
            self._counts = Counter(r.state for r in self.results)
        return sum(self._counts[s] for s in states)

    def _kept(self, key, make):
        if key not in self._of:
            self._of[key] = make()
        return self._of[key]

    def of(self, state: str) -> list[MachineResult]:
        """The group's results in ``state`` (a list the group keeps: read it, do not change it)."""
        return self._kept(state, lambda: [r for r in self.results if r.state == state])

    @property
    def disagrees(self) -> bool:
        """Some machines passed the current code and others failed it."""
        return bool(self.of("passed")) and bool(self.of("failed"))

    def confirmed(self, state: str) -> bool:
        """At least two independent records hold ``state``: different fingerprints, and different known
        senders (`ruota_docs.site.trust`: a fingerprint is whatever a sender writes)."""
        return self._kept(("confirmed", state),
                          lambda: len({r.record.fingerprint for r in self.of(state) if r.record} - {None, ""}) >= 2
                          and len({trust.current().sender_of(r.record) for r in self.of(state)}
                                  - {senders.UNKNOWN}) >= 2)

    def senders(self, *states: str) -> int:
        """How many independent senders the group's records in ``states`` (all without) have."""
        results = self.results if not states else [r for r in self.results if r.state in states]
        return trust.current().senders([r.record for r in results])

    def latest(self, *states: str) -> MachineResult | None:
        """The most recent run of the group in one of ``states``."""
        ran = lambda: [r for r in self.results if r.state in states and r.ran_at]  # noqa: E731
        return self._kept(("latest", states), lambda: max(ran(), key=lambda r: (r.ran_at, r.machine_id), default=None))


def target_label(backend: str, target: str, lang: str) -> str:
    """A target as labels name it: ``gfx1102``, ``CUDA sm_90``, a CPU as the marks name it ("x86-64 CPU")."""
    if backend == "rocm":
        return target
    if backend == "cpu":
        return machine_names.cpu_label(target, lang)
    return f"{BACKENDS[backend].name if backend in BACKENDS else backend} {target}"


def group(results: list[MachineResult], first: tuple[str, ...] = ()) -> list[Group]:
    """``results`` by backend and target: the targets in ``first`` (the page's card), then
    ROCm, CUDA and the CPU, the groups of more machines first."""
    groups: dict[tuple[str, str], Group] = {}
    for result in results:
        found = groups.get(result.group)
        if found is None:
            found = groups[result.group] = Group(*result.group)
        found.results.append(result)
    return sorted(groups.values(), key=lambda g: (g.target not in first, backend_order(g.backend),
                                                   -g.count(), g.target))


def groups_of(verdict: Verdict, page: str) -> list[Group]:
    """`group` of a verdict's results for ``page``, once for the copies of a block that share the verdict."""
    targets = page_targets(page)
    return verdict.kept(("groups", targets), lambda: group(verdict.results, targets))


def shown_outputs(groups: list[Group], limit: int = 2) -> list[tuple[list[Group], MachineResult]]:
    """The runs whose output a block panel shows, with the groups each stands for: the latest
    run of the guide's card (or of the GPU group with most machines), then the CPU's (else
    the next GPU group), ``limit`` at most; an output identical to one shown is not repeated:
    its group joins that one."""
    # a group whose machines disagree shows both sides: its latest pass and its latest failure
    runs = [[g.latest("passed"), g.latest("failed")] if g.disagrees else [g.latest("passed", "failed")] for g in groups]
    ran = [[(g, r) for r in found if r is not None] for g, found in zip(groups, runs)]
    ran = [found for found in ran if found]
    gpus = [found for found in ran if found[0][0].backend != "cpu"]
    cpus = [found for found in ran if found[0][0].backend == "cpu"]
    picked = gpus[:1] + cpus[:1]
    picked += [found for found in ran if found not in picked]
    chosen = [item for found in picked for item in found][: limit + (1 if picked and len(picked[0]) > 1 else 0)]
    shown: list[tuple[list[Group], MachineResult]] = []
    said: dict[tuple, int] = {}
    for g, r in chosen:
        key = (r.state, r.entry.output if r.entry else None, r.entry.error if r.entry else None)
        if key in said:
            shown[said[key]][0].append(g)
        else:
            said[key] = len(shown)
            shown.append(([g], r))
    return shown


def counts(groups: list[Group]) -> Counter:
    """Machines per state over every group."""
    total = Counter()
    for g in groups:
        for state in ("passed", "failed", "skipped", "stale"):
            total[state] += g.count(state)
    return total
