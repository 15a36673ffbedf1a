"""run.conditions: requirement terms checked against the machine, and the reasons a block is skipped."""

from __future__ import annotations

import pytest

from _support import CPU_DEVICE as CPU
from _support import H200, RADEON_VII
from ruota_docs.blocks.terms import parse
from ruota_docs.run import toolchain
from ruota_docs.run.conditions import unmet_reason


# -- evaluation and reasons ------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "device", "reason"), [
    ("rocm", H200, "requires ROCm; this machine: CUDA, NVIDIA H200"),
    ("rocm", CPU, "requires ROCm; this machine: CPU only, x86_64"),
    ("cuda", RADEON_VII, "requires CUDA; this machine: ROCm, AMD Radeon VII"),
    ("gpu", CPU, "requires a GPU; this machine: CPU only, x86_64"),
    ("cpu", H200, "requires no GPU; this machine: CUDA, NVIDIA H200"),
    ("cpu", RADEON_VII, "requires no GPU; this machine: ROCm, AMD Radeon VII"),
    ("arch=gfx906", H200, "requires arch gfx906; this machine: CUDA, NVIDIA H200 (sm_90, 140 GiB)"),
    ("arch=gfx1102,gfx1100", RADEON_VII, "requires arch gfx1102 or gfx1100; this machine: ROCm, AMD Radeon VII (gfx906, 16 GiB)"),
    ("arch=gfx906", CPU, "requires arch gfx906; this machine: CPU only, x86_64"),
    ("vram>=24GiB", RADEON_VII, "requires ≥ 24GiB of VRAM; this machine: ROCm, AMD Radeon VII (gfx906, 16 GiB)"),
    ("vram>=8GiB", CPU, "requires ≥ 8GiB of VRAM; this machine: CPU only, x86_64"),
    ("os=windows", H200, "requires Windows; this machine: Linux"),
    ("os=linux,macos", RADEON_VII, "requires Linux or macOS; this machine: Windows"),
    ("network", CPU, "requires network access; this machine: offline (run with --network to allow)"),
    ("import=yaml,ruota_no_such_module", CPU, "requires installed yaml, ruota_no_such_module; this machine: missing ruota_no_such_module"),
    ("python>=3.11", CPU, "requires python ≥ 3.11; this machine: Python 3.10.12"),
    ("torch>=2.4", CPU, "requires torch ≥ 2.4; this machine: no torch"),
    # versions compare as numbers: 2.9 < 2.10
    ("torch>=2.10", RADEON_VII, "requires torch ≥ 2.10; this machine: torch 2.9.1+rocm7.14"),
    ("rocm vram>=8GiB", CPU, "requires ROCm, ≥ 8GiB of VRAM; this machine: CPU only, x86_64"),
    ("gpu rocm arch=gfx906", H200, "requires ROCm, arch gfx906; this machine: CUDA, NVIDIA H200 (sm_90, 140 GiB)"),
])
def test_unmet_reason(text, device, reason):
    assert unmet_reason(parse(text), device) == reason


@pytest.mark.parametrize(("text", "device"), [
    ("gpu rocm arch=gfx906 vram>=16GiB os=windows", RADEON_VII),
    ("gpu cuda arch=sm_90 vram>=100GiB os=linux python>=3.11 torch>=2.10", H200),
    ("cpu os=linux python>=3.10", CPU),
    ("import=yaml,json", CPU),
    ("arch=gfx1102,gfx906", RADEON_VII),
    ("torch>=2.9.1", RADEON_VII),
])
def test_met_requirements_give_no_reason(text, device):
    assert unmet_reason(parse(text), device) is None


def test_network_allowed_by_the_run():
    reqs = parse("network")
    assert unmet_reason(reqs, CPU, network=True) is None
    assert unmet_reason(reqs, CPU, network=False) == "requires network access; this machine: offline (run with --network to allow)"
    assert unmet_reason(reqs, CPU) is not None  # offline unless the run says otherwise


@pytest.fixture
def debian_hipcc(monkeypatch):
    """What Debian 12's hipcc answers here (HIP 5.2 builds gfx906 and gfx1030, not RDNA3), without running it."""
    ok = {"gfx906", "gfx1030"}
    monkeypatch.setattr(toolchain, "builds", lambda targets, refresh=False: {
        t: toolchain.Build(t, t in ok, None if t in ok else f"cannot find ROCm device library for {t}") for t in targets})
    monkeypatch.setattr(toolchain, "works", lambda refresh=False: True)
    monkeypatch.setattr(toolchain, "describe", lambda needed=(), refresh=False: "hipcc (HIP 5.2.21153) builds gfx906 and gfx1030"
                        + "".join(f", but not {t} (cannot find ROCm device library for {t})" for t in needed if t not in ok))
    monkeypatch.setattr(toolchain, "find_program", lambda name: f"/usr/bin/{name}" if name in ("hipcc", "roc-obj-ls") else None)
    monkeypatch.setattr(toolchain, "searched", lambda: "PATH or in /opt/rocm/bin")


@pytest.mark.parametrize(("text", "device", "reason"), [
    ("hipcc arch=gfx906", CPU, None),
    ("hipcc arch=gfx906,gfx1030", H200, None),
    ("hipcc", CPU, None),
    ("tool=roc-obj-ls", CPU, None),
    ("hipcc arch=gfx1102", CPU, "requires hipcc able to build for gfx1102; this machine: hipcc (HIP 5.2.21153) builds gfx906 and "
                                "gfx1030, but not gfx1102 (cannot find ROCm device library for gfx1102)"),
    ("hipcc arch=gfx906,gfx1100", CPU, "requires hipcc able to build for gfx906 and gfx1100; this machine: hipcc (HIP 5.2.21153) "
                                       "builds gfx906 and gfx1030, but not gfx1100 (cannot find ROCm device library for gfx1100)"),
    ("tool=roc-obj-ls,rocminfo", CPU, "requires roc-obj-ls and rocminfo; this machine: no rocminfo on PATH or in /opt/rocm/bin"),
    # either program will do: roc-obj-ls is there
    ("tool=llvm-readobj|roc-obj-ls", CPU, None),
    ("tool=llvm-readobj|rocminfo", CPU, "requires llvm-readobj or rocminfo; this machine: "
                                        "no llvm-readobj or rocminfo on PATH or in /opt/rocm/bin"),
    ("tool=hipcc,llvm-readobj|rocminfo", CPU, "requires hipcc and llvm-readobj or rocminfo; this machine: "
                                              "no llvm-readobj or rocminfo on PATH or in /opt/rocm/bin"),
    # the GPU and the compiler are judged apart: a CPU machine with hipcc lacks only the GPU
    ("rocm arch=gfx906 hipcc arch=gfx906", CPU, "requires ROCm, arch gfx906; this machine: CPU only, x86_64"),
    ("rocm arch=gfx906 hipcc arch=gfx906", RADEON_VII, None),
    ("rocm arch=gfx1102 hipcc arch=gfx1102", RADEON_VII,
     "requires arch gfx1102, hipcc able to build for gfx1102; this machine: ROCm, AMD Radeon VII (gfx906, 16 GiB); "
     "hipcc (HIP 5.2.21153) builds gfx906 and gfx1030, but not gfx1102 (cannot find ROCm device library for gfx1102)"),
])
def test_toolchain_reasons(debian_hipcc, text, device, reason):
    assert unmet_reason(parse(text), device) == reason


def test_every_term_has_a_check_on_the_machine():
    from ruota_docs.blocks.terms import TERMS
    from ruota_docs.run.conditions import CHECKS

    assert set(CHECKS) == set(TERMS)


def test_a_tool_without_a_rocm_library_skips_with_that_reason(monkeypatch, tmp_path):
    """roc-obj-ls comes with Debian's hipcc, without any ROCm library: a block that reads a library
    skips where there is none, saying so, instead of failing in the record an owner sends."""
    monkeypatch.setattr(toolchain, "find_program", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(toolchain, "rocm_library", lambda: None)
    assert unmet_reason(parse("tool=roc-obj-ls rocm_library"), CPU) == (
        "requires a ROCm library; this machine: no ROCm library "
        f"({toolchain.ROCM_LIBRARIES})")
    monkeypatch.setattr(toolchain, "rocm_library", lambda: tmp_path / "librocrand.so.1")
    assert unmet_reason(parse("tool=roc-obj-ls rocm_library"), CPU) is None


def test_triton_is_read_from_its_metadata_whichever_distribution_installed_it(monkeypatch):
    from ruota_docs.blocks.terms import parse
    from ruota_docs.run import conditions
    import importlib.metadata

    installed = {"pytorch-triton-rocm": "3.3.1+gitabcdef"}

    def version(name):
        if name not in installed:
            raise importlib.metadata.PackageNotFoundError(name)
        return installed[name]

    monkeypatch.setattr(importlib.metadata, "version", version)
    check = conditions.CHECKS["triton"]
    assert conditions.triton_version() == "3.3.1+gitabcdef"
    assert check.holds(parse("triton>=3.3")[0], None) and not check.holds(parse("triton>=3.9")[0], None)
    installed.clear()
    assert not check.holds(parse("triton>=3.0")[0], None)
    assert check.this_machine(parse("triton>=3.9")[0], None) == "triton not installed"
