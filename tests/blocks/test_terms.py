"""The requirement vocabulary: parsing, evaluation against a machine, and skip reasons."""

from __future__ import annotations

import pytest

from ruota_docs.run import device as device_module
from ruota_docs.run import settings, toolchain
from ruota_docs.records.machine import Device
from ruota_docs.blocks.terms import Requirement, RequirementError, parse, parse_size
from ruota_docs.run.conditions import unmet_reason

RADEON_VII = Device(backend="rocm", gpu_name="AMD Radeon VII", arch="gfx906", vram_bytes=16 * 2**30, gpu_count=1,
                    os="windows", machine="x86_64", python="3.12.4", torch="2.9.1+rocm7.14", hip="7.14.0")
H200 = Device(backend="cuda", gpu_name="NVIDIA H200", arch="sm_90", vram_bytes=143_771 * 2**20, gpu_count=1,
              os="linux", machine="x86_64", python="3.11.7", torch="2.13.0+cu130", cuda="13.0")
CPU = Device(backend="cpu", gpu_name=None, arch=None, vram_bytes=None, gpu_count=0,
             os="linux", machine="x86_64", python="3.10.12", torch=None)


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.delenv("RUOTA_DOCS_NETWORK", raising=False)


# -- parsing ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("gpu", (Requirement("gpu"),)),
    ("rocm", (Requirement("rocm"),)),
    ("cuda", (Requirement("cuda"),)),
    ("cpu", (Requirement("cpu"),)),
    ("network", (Requirement("network"),)),
    ("arch=gfx906", (Requirement("arch", ("gfx906",)),)),
    ("arch=gfx906,gfx1102", (Requirement("arch", ("gfx906", "gfx1102")),)),
    ("vram>=8GiB", (Requirement("vram", ("8GiB",)),)),
    ("vram>=512MiB", (Requirement("vram", ("512MiB",)),)),
    ("os=linux", (Requirement("os", ("linux",)),)),
    ("os=windows,macos", (Requirement("os", ("windows", "macos")),)),
    ("import=tensorflow,keras", (Requirement("import", ("tensorflow", "keras")),)),
    ("python>=3.10", (Requirement("python", ("3.10",)),)),
    ("torch>=2.4", (Requirement("torch", ("2.4",)),)),
    ("  gpu   rocm arch=gfx906  ", (Requirement("gpu"), Requirement("rocm"), Requirement("arch", ("gfx906",)))),
    ("arch=gfx90a", (Requirement("arch", ("gfx90a",)),)),
    ("arch=sm_90a", (Requirement("arch", ("sm_90a",)),)),
    # the compiler: arch= right after hipcc is the compiler's target, anywhere else the GPU's
    ("hipcc", (Requirement("hipcc"),)),
    ("hipcc arch=gfx906", (Requirement("hipcc", ("gfx906",)),)),
    ("hipcc arch=gfx906,gfx1030", (Requirement("hipcc", ("gfx906", "gfx1030")),)),
    ("hipcc arch=gfx90a:xnack-", (Requirement("hipcc", ("gfx90a:xnack-",)),)),
    ("hipcc arch=gfx11-generic", (Requirement("hipcc", ("gfx11-generic",)),)),
    ("rocm arch=gfx906 hipcc arch=gfx906", (Requirement("rocm"), Requirement("arch", ("gfx906",)), Requirement("hipcc", ("gfx906",)))),
    ("hipcc rocm arch=gfx1102", (Requirement("hipcc"), Requirement("rocm"), Requirement("arch", ("gfx1102",)))),
    ("hipcc arch=gfx906 arch=gfx906", (Requirement("hipcc", ("gfx906",)), Requirement("arch", ("gfx906",)))),
    ("tool=roc-obj-ls", (Requirement("tool", ("roc-obj-ls",)),)),
    ("tool=rocminfo,rocm_agent_enumerator", (Requirement("tool", ("rocminfo", "rocm_agent_enumerator")),)),
])
def test_parse_every_term(text, expected):
    assert parse(text) == expected


@pytest.mark.parametrize("text", ["gpu", "arch=gfx906,gfx1102", "vram>=8GiB", "os=linux", "python>=3.10", "import=numpy",
                                  "hipcc", "hipcc arch=gfx906", "hipcc arch=gfx906,gfx1030", "tool=roc-obj-ls,rocminfo"])
def test_str_round_trips(text):
    (term,) = parse(text)
    assert str(term) == text
    assert parse(str(term)) == (term,)


@pytest.mark.parametrize(("text", "message"), [
    ("rocm colour=red", "unknown requirement 'colour'; known: gpu, rocm, cuda, cpu, network, hipcc, arch, os, import, tool, vram, python, torch"),
    ("amd", "unknown requirement 'amd'; known: gpu, rocm, cuda, cpu, network, hipcc, arch, os, import, tool, vram, python, torch"),
    ("", "empty requires: directive"),
    ("   ", "empty requires: directive"),
    ("ROCm", "malformed requirement 'ROCm'"),
    ("arch=", "malformed requirement 'arch='"),
    ("vram>8GiB", "malformed requirement 'vram>8GiB'"),
    ("gpu=1", "requirement 'gpu' takes no value (got 'gpu=1')"),
    ("network>=1", "requirement 'network' takes no value (got 'network>=1')"),
    ("arch>=gfx906", "requirement 'arch' is written arch=VALUE (got 'arch>=gfx906')"),
    ("os", "requirement 'os' is written os=VALUE (got 'os')"),
    ("vram=8GiB", "requirement 'vram' is written vram>=VALUE (got 'vram=8GiB')"),
    ("python=3.10", "requirement 'python' is written python>=VALUE (got 'python=3.10')"),
    ("arch=,", "requirement 'arch' is written arch=VALUE (got 'arch=,')"),
    ("os=beos", "unknown os 'beos'; known: linux, windows, macos"),
    ("os=linux,Windows", "unknown os 'Windows'; known: linux, windows, macos"),
    ("vram>=8GB", "malformed size '8GB': write a number and a unit, e.g. 8GiB or 512MiB"),
    ("vram>=lots", "malformed size 'lots': write a number and a unit, e.g. 8GiB or 512MiB"),
    ("python>=3.x", "malformed version '3.x': write digits and dots, e.g. 2.9"),
    ("torch>=2.4rc1", "malformed version '2.4rc1': write digits and dots, e.g. 2.9"),
    # targets
    ("arch=gfx", "malformed target 'gfx' in 'arch=gfx': write a gfx target (gfx906, gfx90a, gfx1102) or a CUDA compute capability (sm_90)"),
    ("arch=gfx 906", "malformed target in 'arch=gfx': write it without a space, gfx906"),
    ("arch=906", "malformed target '906' in 'arch=906': write a gfx target (gfx906, gfx90a, gfx1102) or a CUDA compute capability (sm_90)"),
    ("arch=GFX906", "malformed target 'GFX906' in 'arch=GFX906': write a gfx target (gfx906, gfx90a, gfx1102) or a CUDA compute capability (sm_90)"),
    ("arch=gfx90a:xnack+", "the GPU's target is compared without features: write gfx90a (got 'arch=gfx90a:xnack+')"),
    # the compiler
    ("hipcc arch=", "hipcc arch= names no target: write hipcc arch=gfx906 (or hipcc alone for any working HIP compiler)"),
    ("hipcc arch=,", "hipcc arch=, names no target: write hipcc arch=gfx906 (or hipcc alone for any working HIP compiler)"),
    ("hipcc arch=gfx 906", "malformed target in 'hipcc arch=gfx': write it without a space, gfx906"),
    ("rocm hipcc arch=gfx 906", "malformed target in 'hipcc arch=gfx': write it without a space, gfx906"),
    ("hipcc arch=GFX906", "malformed gfx target 'GFX906' in 'hipcc arch=GFX906': write gfx and its number, e.g. hipcc arch=gfx906 or hipcc arch=gfx1030,gfx1102"),
    ("hipcc arch=sm_90", "malformed gfx target 'sm_90' in 'hipcc arch=sm_90': write gfx and its number, e.g. hipcc arch=gfx906 or hipcc arch=gfx1030,gfx1102"),
    ("hipcc arch=gfx906,906", "malformed gfx target '906' in 'hipcc arch=gfx906,906': write gfx and its number, e.g. hipcc arch=gfx906 or hipcc arch=gfx1030,gfx1102"),
    ("hipcc=gfx906", "requirement 'hipcc' is written hipcc, or hipcc arch=TARGET (got 'hipcc=gfx906')"),
    ("hipcc>=5.2", "requirement 'hipcc' is written hipcc, or hipcc arch=TARGET (got 'hipcc>=5.2')"),
    ("tool=", "malformed requirement 'tool='"),
    ("tool", "requirement 'tool' is written tool=VALUE (got 'tool')"),
    ("tool=bin/hipcc", "malformed program name 'bin/hipcc' in 'tool=bin/hipcc': write the file name, e.g. tool=roc-obj-ls"),
])
def test_parse_errors(text, message):
    with pytest.raises(RequirementError) as caught:
        parse(text)
    assert str(caught.value) == message


def test_parse_size():
    assert parse_size("8GiB") == 8 * 2**30
    assert parse_size("512MiB") == 512 * 2**20
    assert parse_size("1.5GiB") == 3 * 2**29
    assert parse_size("2TiB") == 2 * 2**40


# -- the machines ---------------------------------------------------------------------------------
def test_machine_ids_and_descriptions():
    assert [d.machine_id for d in (RADEON_VII, H200, CPU)] == ["rocm-gfx906", "cuda-nvidia-h200", "cpu-x86_64"]
    assert [d.describe() for d in (RADEON_VII, H200, CPU)] == ["ROCm, AMD Radeon VII", "CUDA, NVIDIA H200", "CPU only, x86_64"]
    assert H200.to_dict()["machine_id"] == "cuda-nvidia-h200"


def test_fake_device_spec(monkeypatch):
    monkeypatch.setenv("RUOTA_DOCS_FAKE_DEVICE", "rocm gfx1102 AMD Radeon RX 7600 8GiB")
    device_module.probe.cache_clear()
    try:
        fake = device_module.probe()
    finally:
        device_module.probe.cache_clear()
    assert (fake.backend, fake.arch, fake.gpu_name, fake.vram_bytes, fake.gpu_count) == (
        "rocm", "gfx1102", "AMD Radeon RX 7600", 8 * 2**30, 1)
    assert fake.machine_id == "rocm-gfx1102"


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


def test_network_setting_read_from_the_environment(monkeypatch, tmp_path):
    for value in ("1", "yes", "true"):
        monkeypatch.setenv(settings.NETWORK_VARIABLE, value)
        assert settings.from_environment(tmp_path).network is True
    for value in ("0", "false", "no", ""):
        monkeypatch.setenv(settings.NETWORK_VARIABLE, value)
        assert settings.from_environment(tmp_path).network is False


# -- the ROCm toolchain: words, and reasons from what the toolchain module answers ------------------
def test_toolchain_terms_describe_themselves():
    assert Requirement("hipcc").describe() == "a working hipcc"
    assert Requirement("hipcc", ("gfx906",)).describe() == "hipcc able to build for gfx906"
    assert Requirement("hipcc", ("gfx906", "gfx1030")).describe() == "hipcc able to build for gfx906 and gfx1030"
    assert Requirement("tool", ("roc-obj-ls", "rocminfo")).describe() == "roc-obj-ls and rocminfo"


@pytest.fixture
def debian_hipcc(monkeypatch):
    """What Debian 12's hipcc answers here (HIP 5.2 builds gfx906 and gfx1030, not RDNA3), without running it."""
    ok = {"gfx906", "gfx1030"}
    monkeypatch.setattr(toolchain, "builds", lambda targets, refresh=False: {
        t: toolchain.Build(t, t in ok, None if t in ok else f"cannot find ROCm device library for {t}") for t in targets})
    monkeypatch.setattr(toolchain, "works", lambda refresh=False: True)
    monkeypatch.setattr(toolchain, "describe", lambda needed=(), refresh=False: "hipcc (HIP 5.2.21153) builds gfx906, gfx1030"
                        + "".join(f"; not {t}: cannot find ROCm device library for {t}" for t in needed if t not in ok))
    monkeypatch.setattr(toolchain, "find_program", lambda name: f"/usr/bin/{name}" if name in ("hipcc", "roc-obj-ls") else None)
    monkeypatch.setattr(toolchain, "searched", lambda: "PATH or in /opt/rocm/bin")


@pytest.mark.parametrize(("text", "device", "reason"), [
    ("hipcc arch=gfx906", CPU, None),
    ("hipcc arch=gfx906,gfx1030", H200, None),
    ("hipcc", CPU, None),
    ("tool=roc-obj-ls", CPU, None),
    ("hipcc arch=gfx1102", CPU, "requires hipcc able to build for gfx1102; this machine: hipcc (HIP 5.2.21153) builds gfx906, "
                                "gfx1030; not gfx1102: cannot find ROCm device library for gfx1102"),
    ("hipcc arch=gfx906,gfx1100", CPU, "requires hipcc able to build for gfx906 and gfx1100; this machine: hipcc (HIP 5.2.21153) "
                                       "builds gfx906, gfx1030; not gfx1100: cannot find ROCm device library for gfx1100"),
    ("tool=roc-obj-ls,rocminfo", CPU, "requires roc-obj-ls and rocminfo; this machine: no rocminfo on PATH or in /opt/rocm/bin"),
    # the GPU and the compiler are judged apart: a CPU machine with hipcc lacks only the GPU
    ("rocm arch=gfx906 hipcc arch=gfx906", CPU, "requires ROCm, arch gfx906; this machine: CPU only, x86_64"),
    ("rocm arch=gfx906 hipcc arch=gfx906", RADEON_VII, None),
    ("rocm arch=gfx1102 hipcc arch=gfx1102", RADEON_VII,
     "requires arch gfx1102, hipcc able to build for gfx1102; this machine: ROCm, AMD Radeon VII (gfx906, 16 GiB); "
     "hipcc (HIP 5.2.21153) builds gfx906, gfx1030; not gfx1102: cannot find ROCm device library for gfx1102"),
])
def test_toolchain_reasons(debian_hipcc, text, device, reason):
    assert unmet_reason(parse(text), device) == reason


# -- one record per term, one check per term, strings per term ------------------------------------------------
#: A directive using each term, as authors write it.
WRITTEN = {"gpu": "gpu", "rocm": "rocm", "cuda": "cuda", "cpu": "cpu", "network": "network", "hipcc": "hipcc arch=gfx906",
           "arch": "arch=gfx906", "os": "os=windows", "import": "import=keras", "tool": "tool=rocminfo",
           "vram": "vram>=8GiB", "python": "python>=3.10", "torch": "torch>=2.9"}


def test_every_term_has_a_check_on_the_machine():
    from ruota_docs.blocks.terms import TERMS
    from ruota_docs.run.conditions import CHECKS

    assert set(CHECKS) == set(TERMS)


def test_every_term_is_documented_and_written_somewhere_here():
    from ruota_docs.blocks import terms

    assert set(WRITTEN) == set(terms.TERMS)
    for name in terms.TERMS:
        assert f"| `{name}" in terms.__doc__, f"the terms' table in blocks/terms.py does not list {name}"
    for name, written in WRITTEN.items():
        (term,) = parse(written)
        assert term.name == name and str(term) == written


@pytest.mark.parametrize("lang", ["es", "en", "fr"])
def test_every_term_has_its_badge_and_skip_strings(lang):
    from ruota_docs.site import reasons
    from ruota_docs.site.locales import STRINGS

    for written in [*WRITTEN.values(), "hipcc"]:
        (term,) = parse(written)
        key = reasons._words(term, lang)[0]
        assert {f"term.{key}", f"needs.{key}"} <= set(STRINGS[lang]), f"{lang}: no strings for {written}"
        assert reasons.requirement_label(term, lang) and reasons.requirement_phrase(term, lang)


def test_an_unknown_term_has_no_check():
    from ruota_docs.run.conditions import is_met

    with pytest.raises(RequirementError, match="unknown requirement 'colour'"):
        is_met(Requirement("colour"), CPU)
