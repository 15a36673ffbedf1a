"""What the site says about ROCm: the badges of the toolchain terms, and the status page's two
rows (ROCm toolchain, ROCm device) drawn from the records, never more than they hold."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

from ruota_docs.site import fragments
from ruota_docs.records.verdicts import MachineResult, Verdict
from ruota_docs.blocks.terms import parse

CPU = "CPU x86_64"


def block(requires: str = "", skip: bool = False) -> SimpleNamespace:
    """What render reads of a block (the engine's Block has these attributes)."""
    return SimpleNamespace(kind="python", requirements=parse(requires) if requires else (),
                           not_run_reason="installs packages" if skip else None)


def verdict(*results: tuple[str, str, str | None]) -> Verdict:
    return Verdict([MachineResult(label.lower(), label, state, {"ran_at": ran_at} if ran_at else None)
                    for label, state, ran_at in results])


def test_badges_of_the_toolchain_terms():
    labels = [fragments.requirement_label(t, "es") for t in parse("hipcc hipcc arch=gfx906 hipcc arch=gfx906,gfx1030 tool=roc-obj-ls")]
    assert labels == ["Compilador HIP (hipcc)", "Compilador HIP (hipcc) para gfx906",
                      "Compilador HIP (hipcc) para gfx906 y gfx1030", "roc-obj-ls"]
    badges = fragments.badges(block("rocm arch=gfx906 hipcc arch=gfx906"), "en")
    assert re.findall(r'<span class="ruota-badge">(.*?)</span>', badges) == ["ROCm", "gfx906", "HIP compiler (hipcc) for gfx906"]


def test_which_blocks_are_rocm_toolchain_or_device():
    assert fragments.rocm_kind(block("hipcc arch=gfx906")) == "toolchain"
    assert fragments.rocm_kind(block("tool=rocminfo")) == "toolchain"
    assert fragments.rocm_kind(block("tool=git")) is None  # a program, but not ROCm's
    assert fragments.rocm_kind(block("tool=git,roc-obj-ls")) == "toolchain"
    assert fragments.rocm_kind(block("rocm arch=gfx906 hipcc arch=gfx906")) == "device"
    assert fragments.rocm_kind(block("rocm")) == "device"
    assert fragments.rocm_kind(block("gpu hipcc")) is None  # any GPU: not a ROCm claim
    assert fragments.rocm_kind(block("")) is None
    assert fragments.rocm_kind(block("cuda")) is None


def rows(table: str) -> list[tuple[str, str, str]]:
    cells = re.findall(r"<tr><td>(.*?)</td><td class=\"ruota-num\">(.*?)</td><td>(?:<svg.*?</svg>) (.*?)</td></tr>", table)
    return [tuple(html.unescape(x) for x in c) for c in cells]


def test_toolchain_verified_device_without_record():
    pages = [("Radeon VII", "x/", [
        (block("hipcc arch=gfx906"), verdict((CPU, "passed", "2026-12-01T08:00:00Z"))),
        (block("tool=roc-obj-ls"), verdict((CPU, "passed", "2026-12-01T09:30:00Z"))),
        (block("rocm arch=gfx906 hipcc arch=gfx906"), verdict((CPU, "skipped", "2026-12-01T08:00:00Z"))),
        (block("rocm"), verdict((CPU, "skipped", None))),
        (block(""), verdict((CPU, "passed", "2026-12-01T08:00:00Z"))),  # not about ROCm: not counted
        (block("tool=roc-obj-ls", skip=True), verdict()),  # never run by design: not counted
    ])]
    assert rows(fragments.rocm_evidence(pages, "en")) == [
        ("ROCm toolchain: hipcc and ROCm's programs, no GPU needed", "2", "CPU x86_64: 2 of 2, 1 Dec 2026"),
        ("ROCm device: PyTorch on an AMD GPU", "2", "no record yet"),
    ]
    es = rows(fragments.rocm_evidence(pages, "es"))
    assert es[1] == ("Dispositivo ROCm: PyTorch en una GPU de AMD", "2", "ningún registro todavía")
    assert rows(fragments.rocm_evidence(pages, "fr"))[0][2] == "CPU x86_64 : 2 sur 2, 1er déc. 2026"


def test_partial_and_several_machines():
    pages = [("A", "a/", [
        (block("rocm"), verdict((CPU, "skipped", None), ("AMD Radeon VII (ROCm, gfx906)", "passed", "2026-12-02T10:00:00Z"))),
        (block("rocm arch=gfx906"), verdict((CPU, "skipped", None), ("AMD Radeon VII (ROCm, gfx906)", "failed", "2026-12-02T10:00:00Z"))),
        (block("hipcc"), verdict((CPU, "passed", "2026-12-01T08:00:00Z"), ("AMD Radeon VII (ROCm, gfx906)", "passed", "2026-12-02T10:00:00Z"))),
    ])]
    toolchain, device = rows(fragments.rocm_evidence(pages, "en"))
    assert toolchain[2] == "CPU x86_64: 1 of 1, 1 Dec 2026; AMD Radeon VII (ROCm, gfx906): 1 of 1, 2 Dec 2026"
    assert device[1:] == ("2", "AMD Radeon VII (ROCm, gfx906): 1 of 2, 2 Dec 2026")


def test_no_rocm_blocks_no_table():
    assert fragments.rocm_evidence([("A", "a/", [(block(""), verdict((CPU, "passed", None)))])], "en") == ""
