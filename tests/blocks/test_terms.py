"""The requirement vocabulary: parsing, evaluation against a machine, and skip reasons."""

from __future__ import annotations

import pytest

from _support import CPU_DEVICE as CPU
from ruota_docs.blocks.terms import Requirement, RequirementError, parse, parse_size


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
    ("tool=llvm-readobj|roc-obj-ls", (Requirement("tool", ("llvm-readobj|roc-obj-ls",)),)),
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
    ("rocm colour=red", "unknown requirement 'colour'; known: gpu, rocm, cuda, cpu, network, rocm_library, hipcc, arch, os, import, tool, vram, python, torch, triton"),
    ("amd", "unknown requirement 'amd'; known: gpu, rocm, cuda, cpu, network, rocm_library, hipcc, arch, os, import, tool, vram, python, torch, triton"),
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
    ("tool=llvm-readobj|", "malformed program name '' in 'tool=llvm-readobj|': write the file name, e.g. tool=roc-obj-ls"),
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


# -- the ROCm toolchain: words, and reasons from what the toolchain module answers ------------------
def test_toolchain_terms_describe_themselves():
    assert Requirement("hipcc").describe() == "a working hipcc"
    assert Requirement("hipcc", ("gfx906",)).describe() == "hipcc able to build for gfx906"
    assert Requirement("hipcc", ("gfx906", "gfx1030")).describe() == "hipcc able to build for gfx906 and gfx1030"
    assert Requirement("tool", ("roc-obj-ls", "rocminfo")).describe() == "roc-obj-ls and rocminfo"


# -- one record per term, one check per term, strings per term ------------------------------------------------
#: A directive using each term, as authors write it.
WRITTEN = {"gpu": "gpu", "rocm": "rocm", "cuda": "cuda", "cpu": "cpu", "network": "network", "rocm_library": "rocm_library",
           "hipcc": "hipcc arch=gfx906",
           "arch": "arch=gfx906", "os": "os=windows", "import": "import=keras", "tool": "tool=rocminfo",
           "vram": "vram>=8GiB", "python": "python>=3.10", "torch": "torch>=2.9",
           "triton": "triton>=3.9"}


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
