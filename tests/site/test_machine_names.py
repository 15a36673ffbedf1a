"""A machine as a sentence names it (ruota_docs.site.machine_names), and where the site uses it."""

import html
import re
from types import SimpleNamespace

import pytest

from ruota_docs.records.schema import Machine, Record
from ruota_docs.records.verdicts import MachineResult, Verdict
from ruota_docs.site import fragments, machine_names

CPU = Machine(backend="cpu", machine="x86_64", os="linux")
H100 = Machine(backend="cuda", machine="x86_64", gpu_name="NVIDIA H100 80GB HBM3", arch="sm_90", os="linux")
RX = Machine(backend="rocm", machine="x86_64", gpu_name="AMD Radeon RX 7600", arch="gfx1102", os="linux")


def result(machine: Machine, state: str = "passed") -> MachineResult:
    record = Record(machine_id=machine.named_id, machine=machine, updated="2026-12-06T10:00:00Z")
    return MachineResult(machine.named_id, machine.label, state, None, record, ran_at="2026-12-06T10:00:00Z")


@pytest.mark.parametrize(("machine", "lang", "form", "said"), [
    (CPU, "en", "name", "x86-64 CPU"), (CPU, "en", "a", "an x86-64 CPU"), (CPU, "en", "machine", "an x86-64 CPU-only machine"),
    (H100, "en", "name", "NVIDIA H100"), (H100, "en", "a", "an NVIDIA H100"),
    (RX, "en", "a", "an AMD Radeon RX 7600"),
    (CPU, "es", "a", "una CPU x86-64"), (H100, "es", "machine", "una máquina con una NVIDIA H100"),
    (CPU, "fr", "a", "un CPU x86-64"), (CPU, "fr", "machine", "une machine x86-64 sans GPU"),
    (H100, "fr", "name", "NVIDIA H100"),
])
def test_a_sentence_names_the_model_and_the_architecture_as_prose_writes_them(machine, lang, form, said):
    assert machine_names.name(result(machine), lang, form) == said


def test_a_machine_the_result_does_not_describe_keeps_its_label():
    assert machine_names.name(MachineResult("x", "Some label", "passed"), "en") == "Some label"


@pytest.mark.parametrize(("word", "article"), [("NVIDIA H100", "an"), ("x86-64", "an"), ("AMD Radeon", "an"),
                                               ("Radeon VII", "a"), ("Intel Arc", "an"), ("riscv64", "a")])
def test_english_article(word, article):
    assert machine_names.article_an(word) == article


def test_marks_name_machines_in_words_and_compiled_code_on_its_machine():
    """The mark's sentence says "an x86-64 CPU", never the label "CPU x86_64"; compiled code: one sentence,
    its targets, the machines it was built on (as machines, not chips) and the date, then that it never ran."""
    block = SimpleNamespace(kind="python", requirements=(), not_run_reason=None, evidence=None, page="en/p.md")
    verdict = Verdict([result(H100), result(CPU)])
    said = fragments.mark(block, verdict, "en")
    assert "Verified on an NVIDIA H100 and an x86-64 CPU, most recently on 6 December 2026" in said
    assert "Verificado en una NVIDIA H100 y en una CPU x86-64 (última ejecución: 6 de diciembre de 2026)" in \
        fragments.mark(block, verdict, "es")
    from ruota_docs.blocks.tiers import Evidence
    compiled = SimpleNamespace(kind="python", requirements=(), not_run_reason=None, page="en/p.md",
                               evidence=Evidence("compiled", ("gfx1102", "gfx1100")))
    assert ("Compiled for gfx1102 and gfx1100 on an NVIDIA H100 and an x86-64 CPU, most "
            "recently on 6 December 2026, but not yet run on a gfx1102 or gfx1100 GPU") in fragments.mark(
                compiled, verdict, "en")
    assert ("Compilado para gfx1102 y gfx1100 en una NVIDIA H100 y en una CPU x86-64 "
            "(última compilación: 6 de diciembre de 2026), pero aún no se ha ejecutado en ninguna GPU gfx1102 "
            "ni gfx1100</span>") in fragments.mark(compiled, verdict, "es")
    assert ("Compilé pour gfx1102 et gfx1100 sur une NVIDIA H100 et sur un CPU x86-64, "
            "dernière compilation le 6 décembre 2026, mais pas encore exécuté sur un GPU gfx1102 ni gfx1100</span>"
            ) in html.unescape(fragments.mark(compiled, verdict, "fr"))
    # one line without a full stop, as every line of a mark, and no clause after a semicolon
    said = re.sub(r"<[^>]+>", "", fragments.mark(compiled, verdict, "en"))
    assert ";" not in said and not said.endswith(".")
