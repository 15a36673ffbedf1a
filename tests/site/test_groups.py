"""Results counted by backend and target: agreement, confirmation, and what a block panel says at scale."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

import pytest

from ruota_docs.records.verdicts import MachineResult, Verdict, machine_label
from ruota_docs.records.reason_codes import Reason, reason
from ruota_docs.records.schema import Machine, Record, Result
from ruota_docs.site import fragments, groups, trust

RX = {"backend": "rocm", "gpu_name": "AMD Radeon RX 7600", "arch": "gfx1102", "machine": "x86_64"}
H200 = {"backend": "cuda", "gpu_name": "NVIDIA H200", "arch": "sm_90", "machine": "x86_64"}
CPU = {"backend": "cpu", "gpu_name": None, "arch": None, "machine": "x86_64"}
BLOCK = SimpleNamespace(page="en/guides/keras-rx7600.md", not_run_reason=None, requirements=[], kind="python")


def result(n: int, machine: dict, state: str = "passed", output: str = "ok\n", fingerprint: str | None = None,
           reason: Reason | None = None, when: str = "2026-11-28T10:00:00Z") -> MachineResult:
    record = Record(machine_id=f"m{n}", machine=Machine.from_json(machine), fingerprint=fingerprint)
    entry = Result(fence_language="python", sha256="a", outcome=state, output=output, ran_at=when, duration=1.0,
                   reason=reason.english() if reason else None, reason_code=reason.to_record() if reason else None)
    return MachineResult(f"m{n:04}", machine_label(machine), state, entry, record)


def words(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).replace("\u00a0", " ").split())


def sent_by(found: list[MachineResult], *senders: str) -> None:
    """The records of ``found`` sent by ``senders`` in turn (the commits' authors, `ruota_docs.site.trust`)."""
    known = trust.Trust()
    for n, r in enumerate(found):
        known.sender[id(r.record)] = senders[n % len(senders)]
    trust._CURRENT[0] = known


@pytest.fixture(autouse=True)
def _no_senders():
    yield
    trust._CURRENT[0] = trust.Trust()


def test_machines_that_agree_and_a_confirmed_outcome():
    found = [result(n, RX, fingerprint=f"{n:032x}") for n in range(3)] + [result(9, H200), result(10, CPU)]
    sent_by(found, "git:a@example.org", "git:b@example.org", "git:c@example.org")
    assert words(fragments.mark(BLOCK, Verdict(found, 5), "en")) == (
        "Verified on 3 machines (gfx1102, confirmed), an NVIDIA H200 and an x86-64 CPU, most recently on 28 November 2026")
    # one machine run three times, or records without fingerprints, confirm nothing
    same = [result(n, RX, fingerprint="a" * 32) for n in range(3)]
    sent_by(same, "git:a@example.org", "git:b@example.org")
    assert words(fragments.mark(BLOCK, Verdict(same, 3), "en")).startswith("Verified on 3 machines (gfx1102, 2 senders), most")
    assert not groups.group(same)[0].confirmed("passed")


def test_fingerprints_one_sender_chose_are_one_witness():
    """Three made-up fingerprints from one sender, or from senders no commit names, confirm nothing."""
    found = [result(n, RX, fingerprint=f"{n:032x}") for n in range(3)]
    sent_by(found, "git:one@example.org")
    assert words(fragments.mark(BLOCK, Verdict(found, 3), "en")).startswith("Verified on 3 machines (gfx1102, 1 sender)")
    assert not groups.group(found)[0].confirmed("passed")
    sent_by(found, "unknown")
    assert not groups.group(found)[0].confirmed("passed")
    assert words(fragments.mark(BLOCK, Verdict(found, 3), "es")).startswith("Verificado en 3 máquinas (gfx1102, 1 remitente)")


def test_a_disagreement_is_shown_never_outvoted():
    found = [result(n, RX, fingerprint=f"{n:032x}") for n in range(3)]
    found.append(result(3, RX, "failed", "", fingerprint="f" * 32, reason=reason("timeout", seconds=600.0),
                        when="2026-11-29T10:00:00Z"))
    sent_by(found, "git:a@example.org", "git:b@example.org", "git:c@example.org", "git:d@example.org")
    panel = fragments.block_panel(BLOCK, Verdict(found, 4), "en", "3")
    assert 'class="ruota-verify ruota-state-failed ruota-disagree"' in panel
    assert ("Failed on 1 of 4 gfx1102 machines, most recently on 29 November 2026: "
            "timed out after 10 min") in words(panel)
    assert "Verified on 3 machines (gfx1102, confirmed)" in words(panel)
    # both sides of the disagreement are shown: the latest pass and the latest failure
    labels = [words(label) for label in re.findall(r'<label for="__ruota_3_\d">(.*?)</label>', panel)]
    # each tab's icon says its state (its <title>), then the machines
    assert labels == ["verified 3 machines (gfx1102, confirmed)", "failed 1 machine (gfx1102)"]
    es = words(fragments.mark(BLOCK, Verdict(found, 4), "es"))
    assert es.startswith("Falló en 1 de 4 máquinas gfx1102 (último fallo: 29 de noviembre de 2026)")


def test_a_thousand_machines_name_a_few_targets_and_count_the_rest():
    cards = [{"backend": "rocm", "gpu_name": f"AMD card {t}", "arch": t, "machine": "x86_64"}
             for t in ("gfx1102", "gfx1030", "gfx1100", "gfx906", "gfx942", "gfx1201")]
    found = [result(n, cards[n % len(cards)], fingerprint=f"{n:032x}") for n in range(1000)] + [result(2000, CPU)]
    sent_by(found, *(f"git:{n}@example.org" for n in range(1001)))
    verdict = Verdict(found, 1001)
    mark = words(fragments.mark(BLOCK, verdict, "en"))
    # the guide's card first (gfx1102), then the targets of most machines; the rest counted
    assert mark == ("Verified on 167 machines (gfx1102, confirmed), 167 machines (gfx1030, confirmed), "
                    "167 machines (gfx1100, confirmed) and 4 other targets, most recently on 28 November 2026")
    tabs = fragments.output_tabs(verdict, "en", "1", BLOCK.page)
    labels = re.findall(r'<label for="__ruota_1_\d">(.*?)</label>', tabs)
    assert [words(label) for label in labels] == ["verified 167 machines (gfx1102, confirmed) and x86-64 CPU"]  # the same output
    assert tabs.count("<pre") == 1 and len(fragments.block_panel(BLOCK, verdict, "en", "1")) < 3000


def test_a_group_is_labelled_by_its_machine_alone_else_by_its_target():
    """A chart's bar and a mark name one machine by its card, several by their target: "NVIDIA H200" would
    say that card drew a bar that RX 7600 and RX 7600 XT runs share."""
    one, several = groups.group([result(1, H200)])[0], groups.group([result(1, RX), result(2, RX), result(3, CPU)])
    assert one.label("en") == "NVIDIA H200"
    assert [g.label("en") for g in several] == ["gfx1102", "x86-64 CPU"]
    assert groups.target_label("cuda", "sm_90", "fr") == "CUDA sm_90"
