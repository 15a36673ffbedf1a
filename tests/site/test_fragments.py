"""site.fragments: the HTML under each block and on the status page. What the site says about ROCm
(the badges of the toolchain terms, the status page's two rows drawn from the records, never more
than they hold), and the reasons, summaries and counts said in the reader's language."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

import pytest

from _support import CPU_DEVICE, H200
from _support import fragment_block as _block
from _support import ledger_entry as _entry
from ruota_docs.blocks.terms import parse
from ruota_docs.blocks.tiers import Evidence
from ruota_docs.records import reason_codes
from ruota_docs.records.schema import Machine, Record
from ruota_docs.records.verdicts import MachineResult, Verdict
from ruota_docs.run.conditions import unmet
from ruota_docs.site import fragments, machine_names, reasons
from ruota_docs.site.locales import text

CPU = "CPU x86_64"


def block(requires: str = "", skip: bool = False) -> SimpleNamespace:
    """What render reads of a block (the engine's Block has these attributes)."""
    return SimpleNamespace(kind="python", requirements=parse(requires) if requires else (),
                           not_run_reason="installs packages" if skip else None, evidence=None)


def verdict(*results: tuple[str, str, str | None]) -> Verdict:
    return Verdict([MachineResult(label.lower(), label, state, _entry(state, ran_at=ran_at) if ran_at else None)
                    for label, state, ran_at in results])


def test_badges_of_the_toolchain_terms():
    labels = [fragments.requirement_label(t, "es") for t in parse("hipcc hipcc arch=gfx906 hipcc arch=gfx906,gfx1030 tool=roc-obj-ls")]
    assert labels == ["Compilador HIP (hipcc)", "Compilador HIP (hipcc) para gfx906",
                      "Compilador HIP (hipcc) para gfx906 y gfx1030", "Programa roc-obj-ls"]
    badges = fragments.badges(block("rocm arch=gfx906 hipcc arch=gfx906"), "en")
    assert re.findall(r'<span class="ruota-badge">(.*?)</span>', badges) == ["ROCm", "gfx906", "HIP compiler (hipcc) for gfx906"]


def test_which_blocks_are_rocm_toolchain_or_device():
    assert fragments.rocm_kind(block("hipcc arch=gfx906")) == "toolchain"
    assert fragments.rocm_kind(block("tool=rocminfo")) == "toolchain"
    assert fragments.rocm_kind(block("tool=git")) is None  # a program, but not ROCm's
    assert fragments.rocm_kind(block("tool=git,roc-obj-ls")) == "toolchain"
    assert fragments.rocm_kind(block("tool=llvm-readobj|roc-obj-ls")) == "toolchain"
    assert fragments.rocm_kind(block("rocm arch=gfx906 hipcc arch=gfx906")) == "device"
    assert fragments.rocm_kind(block("rocm")) == "device"
    assert fragments.rocm_kind(block("gpu hipcc")) is None  # any GPU: not a ROCm claim
    assert fragments.rocm_kind(block("")) is None
    assert fragments.rocm_kind(block("cuda")) is None


def rows(table: str) -> list[tuple[str, str, str]]:
    # the icon, then the words with no space before them (the text readers copy starts with a word)
    cells = re.findall(r"<tr><td>(.*?)</td><td class=\"ruota-num\">(.*?)</td><td>(?:<svg.*?</svg>)(\S.*?)</td></tr>", table)
    return [tuple(html.unescape(x) for x in c) for c in cells]


def test_toolchain_verified_device_without_record():
    pages = [("Radeon VII", "x/", [
        (block("hipcc arch=gfx906"), verdict((CPU, "passed", "2026-12-01T08:00:00Z"))),
        (block("tool=roc-obj-ls"), verdict((CPU, "passed", "2026-12-01T09:30:00Z"))),
        (block("rocm arch=gfx906 hipcc arch=gfx906"), verdict((CPU, "skipped", "2026-12-01T08:00:00Z"))),
        (block("rocm"), verdict((CPU, "skipped", None))),
        (block(""), verdict((CPU, "passed", "2026-12-01T08:00:00Z"))),  # not about ROCm: not counted
        (block("tool=roc-obj-ls", skip=True), verdict()),  # never run by design: not counted
        # compiled for gfx906 without the card: its own row, never "passed" in the toolchain's
        (SimpleNamespace(**{**vars(block("hipcc arch=gfx906")), "evidence": Evidence("compiled", ("gfx906",))}),
         verdict((CPU, "passed", "2026-12-01T08:00:00Z"))),
    ])]
    shown = rows(fragments.rocm_evidence(pages, "en"))
    assert shown[:2] == [
        ("ROCm tools without a GPU (hipcc and other programs)", "2",
         "CPU x86_64: 2 of 2 passed (1 December 2026)"),
        ("AMD GPU with ROCm", "2", "No machine has run them yet"),
    ]
    assert len(shown) == 3 and shown[2][1] == "1"  # the compiled row
    es = rows(fragments.rocm_evidence(pages, "es"))
    assert es[1] == ("GPU de AMD con ROCm", "2", "Ninguna máquina los ha ejecutado todavía")
    assert rows(fragments.rocm_evidence(pages, "fr"))[0][2] == "CPU x86_64\u00a0: 2 réussis sur 2 (1er décembre 2026)"
    # one passed block: the participle agrees with it (« 1 réussi sur 2 »)
    one_passed = [(name, title, [found[0], (found[1][0], verdict((CPU, "skipped", "2026-12-01T08:00:00Z")))]
                   + found[2:]) for name, title, found in pages]
    assert rows(fragments.rocm_evidence(one_passed, "fr"))[0][2] == "CPU x86_64\u00a0: 1 réussi sur 2 (1er décembre 2026)"


def test_partial_and_several_machines():
    pages = [("A", "a/", [
        (block("rocm"), verdict((CPU, "skipped", None), ("AMD Radeon VII (ROCm, gfx906)", "passed", "2026-12-02T10:00:00Z"))),
        (block("rocm arch=gfx906"), verdict((CPU, "skipped", None), ("AMD Radeon VII (ROCm, gfx906)", "failed", "2026-12-02T10:00:00Z"))),
        (block("hipcc"), verdict((CPU, "passed", "2026-12-01T08:00:00Z"), ("AMD Radeon VII (ROCm, gfx906)", "passed", "2026-12-02T10:00:00Z"))),
    ])]
    toolchain, device = rows(fragments.rocm_evidence(pages, "en"))
    assert toolchain[2] == ("CPU x86_64: 1 of 1 passed (1 December 2026); "
                            "AMD Radeon VII (ROCm, gfx906): 1 of 1 passed (2 December 2026)")
    assert device[1:] == ("2", "AMD Radeon VII (ROCm, gfx906): 1 of 2 passed (2 December 2026)")


def test_no_rocm_blocks_no_table():
    assert fragments.rocm_evidence([("A", "a/", [(block(""), verdict((CPU, "passed", None)))])], "en") == ""


NB = "\u00a0"


@pytest.mark.parametrize(("code", "lang", "expected"), [
    (reason_codes.reason("not_run", why="instala paquetes del sistema"), "es", "instala paquetes del sistema"),
    (reason_codes.reason("not_run", why="installe des paquets système"), "fr", "installe des paquets système"),
    (reason_codes.reason("shown_only", kind="text"), "fr", "sortie ou prose, pas du code"),
    (reason_codes.reason("shown_only", kind="indented"), "es",
     "un bloque de código sangrado no tiene lenguaje; los lectores lo ven como texto"),
    (reason_codes.reason("not_run", why="installs packages"), "en", "installs packages"),
])
def test_a_block_never_run_is_said_without_the_engines_english_prefix(code, lang, expected):
    assert code.english().startswith("not run: ")  # the record's English
    found = _entry("skipped", code.english(), reason_code=code.to_record())
    assert reasons.reason_text(found, lang) == expected
    verdict = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", found)])
    shown = _words(fragments.mark(_block(), verdict, lang))
    assert expected in shown and "not run" not in shown


def _words(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


def test_a_skip_after_a_dead_process_is_said_in_the_readers_language(engine_messages):
    verdict = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", engine_messages["dead"],
                                                                        reason_code=engine_messages["code:dead"]))])
    shown = _words(fragments.mark(_block(), verdict, "es"))
    assert "Omitido en CPU x86_64: un bloque anterior, en la línea 3, acabó con el proceso de la página" in shown
    assert "not run" not in shown and "timed out" not in shown


def test_a_failure_the_engine_explains_is_said_under_the_block(engine_messages):
    failed = _entry("error", engine_messages["timeout"], error=engine_messages["timeout"],
                    reason_code=engine_messages["code:timeout"])
    verdict = Verdict([MachineResult("cpu", "CPU x86_64", "failed", failed), MachineResult("h200", "NVIDIA H200 (CUDA)", "failed", failed)])
    shown = fragments.block_panel(_block(), verdict, "fr", "0")
    assert (f"Échec sur CPU x86_64 et sur NVIDIA H200 (CUDA), dernier échec le 1er décembre 2026 : délai de 0,5{NB}s dépassé"
            in _words(shown))
    assert "timed out" not in shown


def test_machines_with_the_same_need_share_one_line():
    block = _block("rocm")
    cpu, h200 = unmet(block.requirements, CPU_DEVICE), unmet(block.requirements, H200)
    verdict = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", cpu.english(), reason_code=cpu.to_record())),
                       MachineResult("h200", "NVIDIA H200 (CUDA)", "skipped", _entry("skipped", h200.english(), reason_code=h200.to_record()))])
    assert fragments.mark(block, verdict, "es").count("<li") == 1
    # a result without its record keeps its label ("CPU x86_64"); each machine after the first has its "en"
    assert "Omitido en CPU x86_64 y en NVIDIA H200 (CUDA): requiere ROCm" in fragments.mark(block, verdict, "es")
    # French joins the places a negated participle names with « ni »; one place needs none
    assert "Non exécuté sur CPU x86_64 ni sur NVIDIA H200 (CUDA) : nécessite ROCm" in fragments.mark(block, verdict, "fr")
    cpu_only = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", cpu.english(), reason_code=cpu.to_record()))])
    assert "Non exécuté sur CPU x86_64 : nécessite ROCm" in fragments.mark(block, cpu_only, "fr")


def test_a_gpus_skip_line_comes_before_the_cpus():
    """Two machines skipped for different reasons: the GPU's line first, as the verified line and the tabs
    name a GPU before the CPU, whatever order the records came in."""
    block = _block("network")
    verdict = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", "requires a GPU"),
                                     group=("cpu", "x86_64")),
                       MachineResult("h200", "NVIDIA H200 (CUDA)", "skipped", _entry("skipped", "requires network access"),
                                     group=("cuda", "sm_90"))])
    said = _words(fragments.mark(block, verdict, "en"))
    assert said.index("NVIDIA H200 (CUDA)") < said.index("CPU x86_64")
    assert said.count("Skipped on") == 2


def test_summary_line_with_singulars():
    passed = Verdict([MachineResult("cpu", "CPU x86_64", "passed", _entry("passed"))])
    skipped = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", "requires ROCm"))])
    line = _words(fragments.page_summary([(_block(), passed), (_block("rocm"), skipped)], "fr"))
    assert ("Sur cette page, un bloc de code sur deux a été vérifié sur une machine de test (dernière exécution le "
            "1er décembre 2026). Le bloc restant n'a pas été exécuté, car aucune machine de test ne dispose "
            "de ROCm.") in line
    assert "La raison figure" not in line  # the sentence has just said it


def test_the_summary_says_that_blocks_shown_only_are_not_counted():
    """A reader who counts the page's blocks finds sample output and Markdown examples too: a last sentence says
    they are not in the count, after the sentence on why the others did not run."""
    passed = Verdict([MachineResult("cpu", "CPU x86_64", "passed", _entry("passed"))])
    never_run = SimpleNamespace(not_run_reason="installs packages", requires=(), options={"skip": True})
    blocks = [(_block(), passed), (never_run, Verdict([]))]

    def said(html_text):
        return " ".join(_words(html_text).split())
    assert "not counted" not in fragments.page_summary(blocks, "en")
    line = said(fragments.page_summary(blocks, "en", shown=1))
    assert line.endswith("says why. This count excludes one display-only block, which is never run.")
    assert said(fragments.page_summary(blocks, "es", shown=3)).endswith(
        "Este recuento deja fuera tres bloques que solo se muestran y nunca se ejecutan.")
    assert said(fragments.page_summary(blocks, "fr", shown=2)).endswith(
        "Ce décompte laisse de côté deux blocs d'illustration, qui ne sont jamais exécutés.")
    # a count in digits would be the only one among words ("one of two … 12"): the sentence names no count
    assert said(fragments.page_summary(blocks, "fr", shown=12)).endswith(
        "Ce décompte laisse de côté les blocs d'illustration, qui ne sont jamais exécutés.")
    assert said(fragments.page_summary(blocks, "fr", shown=35)).endswith(
        "Ce décompte laisse de côté les blocs d'illustration, qui ne sont jamais exécutés.")
    assert said(fragments.page_summary(blocks, "en", shown=35)).endswith(
        "says why. This count excludes display-only blocks, which are never run.")
    # nothing here runs (an API page): the sentence still ends the summary
    assert said(fragments.page_summary([(never_run, Verdict([]))], "en", shown=2)).endswith(
        "This count excludes two display-only blocks, which are never run.")


def test_the_blocks_not_verified_are_listed_kind_by_kind():
    """Failed, changed, skipped and never-run blocks of several kinds: "The others:" then a real list, one item
    per kind, each opening with its count in digits (a tally); blocks all of one kind: one sentence."""
    passed = Verdict([MachineResult("cpu", "CPU x86_64", "passed", _entry("passed"))])
    skipped = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", "requires ROCm"))])
    never_run = SimpleNamespace(not_run_reason="installs packages", requires=(), options={"skip": True})
    # skipped for two different needs: said in general words
    blocks = [(_block(), passed), (_block("rocm"), skipped), (_block("network"), skipped), (never_run, Verdict([]))]
    shown = fragments.page_summary(blocks, "en")
    assert ("<p>On this page, one of the four code blocks has been verified on one test machine (last run: 1 December 2026). "
            "The others:</p><ul><li>one is not tested by design;</li><li>two were skipped on every test machine.</li></ul><p>The mark under each says why.</p>") in shown
    restantes = fragments.page_summary(blocks, "es")
    assert ("Los demás:</p><ul><li>uno se excluye deliberadamente de las pruebas;</li><li>dos se han omitido "
            "en todas las máquinas de pruebas.</li></ul>") in restantes  # a list after a colon: lower case, semicolons
    autres = fragments.page_summary(blocks, "fr")
    assert ("Les autres :</p><ul><li>l&#x27;un est volontairement exclu des tests;</li><li>deux n&#x27;ont été exécutés "
            "sur aucune machine de test.</li></ul>") in autres  # a French list
    none_passed = " ".join(_words(fragments.page_summary(blocks[1:], "es")).split())
    assert none_passed == ("Ningún bloque de código de esta página se ha verificado todavía. Esta página tiene tres bloques "
                           "de código: "
                           "uno se excluye deliberadamente de las pruebas; dos se han omitido en todas las "
                           "máquinas de pruebas. La marca de cada uno explica el motivo.")
    alike = fragments.page_summary(blocks[:3], "es")
    assert "<ul>" not in alike
    assert " ".join(_words(alike).split()).endswith(
        "Los otros dos se han omitido en todas las máquinas de pruebas. "
        "La marca de cada uno explica el motivo.")


@pytest.mark.parametrize("lang, said", [
    ("en", "The other two were skipped on both test machines."),
    ("es", "Los otros dos se han omitido en las dos máquinas de pruebas."),
    ("fr", "Les deux autres n'ont été exécutés sur aucune des deux machines de test.")])
def test_blocks_skipped_on_two_machines_are_said_to_be_skipped_on_both(lang, said):
    """Where the first sentence names two machines, "skipped on every test machine" would read as more."""
    def on(*machines: str, state: str = "skipped") -> Verdict:
        return Verdict([MachineResult(m, m, state, _entry(state, "requires ROCm" if state == "skipped" else None))
                        for m in machines])
    blocks = [(_block(), on("cpu", "gpu", state="passed")), (_block("rocm"), on("cpu", "gpu")),
              (_block("network"), on("cpu", "gpu"))]
    assert said in html.unescape(" ".join(_words(fragments.page_summary(blocks, lang)).split()))
    # one of them ran on one machine only: "every test machine", as before
    blocks[2] = (_block("network"), on("cpu"))
    assert "every test machine" in _words(fragments.page_summary(blocks, "en"))
    # a third machine has results on the page: never "both", even where each skipped block ran on two
    blocks[2] = (_block("network"), on("cpu", "gpu"))
    blocks.append((_block(), on("cpu", "gpu", "other", state="passed")))
    assert "every test machine" in _words(fragments.page_summary(blocks, "en"))


@pytest.mark.parametrize("lang, skipped, kept_out, both", [
    ("en", "two were skipped on every test machine (the mark under each says why).",
     "two are not tested by design (the mark under each says why).",
     "For each block that was skipped or is not tested by design, the mark under it says why."),
    ("es", "dos se han omitido en todas las máquinas de pruebas (la marca de cada uno explica el motivo).",
     "dos se excluyen deliberadamente de las pruebas (la marca de cada uno explica el motivo).",
     "La marca de cada bloque omitido o excluido explica el motivo."),
    ("fr", "deux n'ont été exécutés sur aucune machine de test (le statut de chacun en donne la raison).",
     "deux sont volontairement exclus des tests (le statut de chacun en donne la raison).",
     "Le statut de chaque bloc non exécuté ou exclu des tests en donne la raison."),
])
def test_the_reason_is_given_for_the_blocks_whose_marks_give_one(lang, skipped, kept_out, both):
    """Beside syntax-checked blocks (not run, and no reason to give), the summary says where a reason is to
    be read: in the list's item where one kind of block has one, else in a sentence that names the kinds, as
    the list names them (skipped ones and ones kept out by design)."""
    passed = Verdict([MachineResult("cpu", "CPU x86_64", "passed", _entry("passed"))])
    skip = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", "requires ROCm"))])
    data = SimpleNamespace(not_run_reason=None, requires=(), requirements=(), options={}, evidence=None, kind="data")
    never_run = SimpleNamespace(not_run_reason="installs packages", requires=(), options={"skip": True})
    rocm, network = (_block("rocm"), skip), (_block("network"), skip)
    said = lambda *blocks: " ".join(_words(fragments.page_summary([(data, passed), *blocks], lang)).split())  # noqa: E731
    assert said(rocm, network, (_block(), passed)).endswith(skipped)
    assert said((never_run, Verdict([])), (never_run, Verdict([]))).endswith(kept_out)
    assert said(rocm, network, (never_run, Verdict([]))).endswith(both)  # two needs: the summary names neither


def test_parsed_data_blocks_are_not_counted_as_verified():
    """A YAML or JSON block that parsed has had only its syntax checked: an item of its own, never "verified"."""
    passed = Verdict([MachineResult("cpu", "CPU x86_64", "passed", _entry("passed"))])
    data = SimpleNamespace(not_run_reason=None, requires=(), requirements=(), options={}, evidence=None, kind="data")
    never_run = SimpleNamespace(not_run_reason="installs packages", requires=(), options={"skip": True})
    shown = fragments.page_summary([(_block(), passed), (data, passed), (data, passed), (never_run, Verdict([]))], "en")
    assert "one of the four code blocks has been verified" in shown
    # only the block not run has a reason to read, and its item says where
    assert ("<li>two have had only their syntax checked;</li><li>one is not tested by design (the mark under it says "
            "why).</li></ul></div>") in shown
    alone = " ".join(_words(fragments.page_summary([(_block(), passed), (data, passed)], "fr")).split())
    assert alone.endswith("Le bloc restant n'a fait l'objet que d'une vérification de syntaxe.")
    only_parsed = fragments.page_summary([(data, passed), (data, passed)], "es")
    assert "ruota-state-passed" in only_parsed  # nothing here is waiting to be verified
    assert " ".join(_words(only_parsed).split()) == ("Los dos bloques de código de esta página han pasado la "
                                                     "comprobación de sintaxis, la única que se les aplica.")


def test_summary_counts_above_thirty_stay_digits_and_machines_are_not_overstated():
    """Both counts of a pair in digits where one is above thirty ("2 of 33"), else in words ("one of three"); "on
    two test machines" only where each
    verified block passed on both, else "at least one of the two"."""
    both = Verdict([MachineResult("cpu", "CPU x86_64", "passed", _entry("passed")),
                    MachineResult("h100", "NVIDIA H100 (CUDA)", "passed", _entry("passed"))])
    cpu_only = Verdict([MachineResult("cpu", "CPU x86_64", "passed", _entry("passed"))])
    never_run = SimpleNamespace(not_run_reason="installs packages", requires=(), options={"skip": True})
    blocks = [(_block(), both), (_block(), cpu_only)] + [(never_run, Verdict([]))] * 31
    line = " ".join(_words(fragments.page_summary(blocks, "en")).split())
    assert line.startswith("On this page, 2 of the 33 code blocks have been verified on at least one of the two test "
                           "machines (last run: 1 December 2026).")
    assert "The other 31 are not tested by design." in line
    line = " ".join(_words(fragments.page_summary(blocks[:1] + blocks[2:4], "fr")).split())
    assert line.startswith("Sur cette page, un bloc de code sur trois a été vérifié sur les deux machines de test (")
    assert "Les deux autres sont volontairement exclus des tests." in line
    three = Verdict([*both.results, MachineResult("rx", "AMD Radeon RX 7600 (ROCm, gfx1102)", "passed", _entry("passed"))])
    line = " ".join(_words(fragments.page_summary([(_block(), three), (_block(), cpu_only)], "es")).split())
    assert "en al menos una de las tres máquinas de pruebas" in line


def test_a_page_whose_blocks_are_all_not_run_says_only_why():
    """An API page's docstring blocks are never meant to run: the line says so, not "not verified yet"."""
    generated = SimpleNamespace(not_run_reason="generated by mkdocstrings", requires=(), options={}, generated_by="x")
    for lang, expected in (("es", "El único bloque de código de esta página no se ejecuta aquí. "
                                  "Debajo de él se explica por qué."),
                           ("en", "This page’s only code block is not run here. The mark under it says why.")):
        line = " ".join(_words(fragments.page_summary([(generated, Verdict([]))], lang)).split())
        assert line == expected
    assert 'ruota-state-notrun' in fragments.page_summary([(generated, Verdict([]))], "fr")


def test_a_page_of_docstring_examples_says_where_they_are_tested():
    """mkdocstrings' examples are tested with the code, as doctests: the API page's line says so, as their marks do,
    rather than that none of its blocks is tested."""
    example = SimpleNamespace(not_run_reason="", requirements=(), options={}, evidence=None, kind="pycon",
                              generated_by="mkdocstrings", generated_from="ruota_docs.x", page="en/api.md")
    line = " ".join(_words(fragments.page_summary([(example, Verdict([]))] * 3, "en")).split())
    assert line == "This page’s three code blocks are docstring examples: they run as doctests in the package’s test suite, not on this page."
    line = " ".join(_words(fragments.page_summary([(example, Verdict([]))], "es")).split())
    assert line.startswith("El único bloque de código de esta página es un ejemplo de un docstring: se ejecuta como doctest en las pruebas del paquete")
    assert "Not tested here: an example from the docstring of ruota_docs.x, run as a doctest in the package’s test suite" in \
        _words(fragments.mark(example, Verdict([]), "en"))
    assert "en tant que doctest" in _words(fragments.mark(example, Verdict([]), "fr"))


def test_chart_series_names_units_and_headers():
    entries = [(machine_names.machine_label(Machine(backend="cpu", machine="x86_64"), "fr"),
                [_entry("passed", output="peak_a: 1081.4\npeak_b: 67.2\n")])]
    options = {"metrics": "peak_a,peak_b", "unit": "MiB", "title": "Pic de mémoire", "labels": "sans découpage; découpé"}
    shown = fragments.chart(options, entries, "fr")
    # all measured: no Source column; a reported value brings it back
    assert "<th>Machine</th><th>sans découpage (Mio)</th><th>découpé (Mio)</th>" in shown
    reported = fragments.chart(options | {"metrics": "peak_a", "labels": "a", "reported": "article=70"}, entries, "fr")
    # one series: headed by its label where the author gives one, else by the generic word
    assert "<th>Machine</th><th>Source</th><th>a (Mio)</th>" in reported
    unlabelled = fragments.chart(options | {"metrics": "peak_a", "labels": "", "reported": "article=70"}, entries, "fr")
    assert "<th>Machine</th><th>Source</th><th>Valeur (Mio)</th>" in unlabelled
    assert f">1\u202f081,4{NB}Mio</text>" in shown
    # the machine heads its series (a CPU named as the marks name it, never "x86_64"), each series in full
    assert re.findall(r'class="ruota-chart-(group|label)">([^<]*)</text>', shown) == [
        ("group", "CPU x86-64"), ("label", "sans découpage"), ("label", "découpé")]
    with pytest.raises(ValueError, match="labels= names 1 series but metrics= has 2"):
        fragments.chart(options | {"labels": "un seul"}, entries, "fr")
    empty = fragments.chart(options | {"labels": "sin trocear; troceado"}, [], "es")
    assert "Ninguna máquina ha registrado todavía sin trocear y troceado." in empty
    single = fragments.chart({"metrics": "peak_a", "unit": "MiB", "title": "Pico"}, entries, "es")
    assert "<th>Valor (MiB)</th>" in single and f">1081,4{NB}MiB</text>" in single


def test_status_counts_say_what_they_count():
    verdicts = [(_block(), Verdict([MachineResult("cpu", "CPU x86_64", s, None)])) for s in ("passed", "passed", "skipped", "absent")]
    ledger = Record(machine_id="cpu", machine=Machine(backend="cpu", machine="x86_64", os="linux"),
                    updated="2026-12-01T10:00:00Z")
    shown = fragments.status_page([("Inicio", "./", verdicts)], [ledger], "es")
    assert 'title="2 bloques verificados"' in shown and '<span class="ruota-sr-only">2 bloques verificados</span>' in shown
    assert '<span class="ruota-sr-only">1 bloque omitido</span>' in shown
    assert '<span class="ruota-sr-only">1 bloque sin verificar</span>' in shown
    assert "<td>CPU</td>" in shown and "Linux x86-64" in shown and "1 de diciembre de 2026" in shown
    # the outcomes chart's text alternative: its values as a table, in its figure
    figure = shown[shown.index('<figure class="ruota-figure" tabindex="0">'):shown.index("</figure>")]
    heads = "".join(f"<th>{text('es', state)}</th>"
                    for state in ("passed", "compiled", "failed", "skipped", "notrun", "untested", "stale_header"))
    assert 'role="img"' in figure and heads in figure
    # each row adds up to the page's blocks: the one never recorded ("absent") has a column of its own;
    # the machine is named as the marks name it ("CPU x86-64"), never by its identifier
    assert ('<tr><td>CPU x86-64</td><td class="ruota-num">2</td><td class="ruota-num">0</td><td class="ruota-num">0</td>'
            '<td class="ruota-num">1</td><td class="ruota-num">0</td><td class="ruota-num">0</td>'
            '<td class="ruota-num">1</td></tr>') in figure
    assert ("<th>Verificados</th><th>Solo compilados (sin ejecutar)</th><th>Fallidos</th>"
            "<th>Omitidos (requisito no cumplido)</th>") in figure
    assert "<th>Sin verificar</th>" in figure and "x86_64</td>" not in shown


def test_status_counts_compiled_code_apart_from_the_blocks_that_passed():
    """Code compiled for a target without its card passes, but the status page counts it as the page summary
    does: "compiled only", never "passed"."""
    compiled = SimpleNamespace(kind="python", requirements=parse("hipcc arch=gfx1102"), not_run_reason=None,
                               options={}, evidence=Evidence("compiled", ("gfx1102",)), page="en/guides/g.md")
    ran = Verdict([MachineResult("cpu", "CPU x86_64", "passed", None)])
    ledger = Record(machine_id="cpu", machine=Machine(backend="cpu", machine="x86_64", os="linux"),
                    updated="2026-12-01T10:00:00Z")
    items = [(_block(), ran), (compiled, ran)]
    shown = fragments.status_page([("Guide", "g/", items)], [ledger], "en")
    assert '<span class="ruota-sr-only">1 block passed</span>' in shown
    assert '<span class="ruota-sr-only">1 block compiled only</span>' in shown
    assert ('<tr><td>x86-64 CPU</td><td class="ruota-num">1</td><td class="ruota-num">1</td><td class="ruota-num">0</td>'
            '<td class="ruota-num">0</td><td class="ruota-num">0</td><td class="ruota-num">0</td>'
            '<td class="ruota-num">0</td></tr>') in shown
    summary = " ".join(_words(fragments.page_summary(items, "en")).split())
    assert summary.startswith("On this page, one of the two code blocks has been verified")  # the same count
    assert 'class="ruota-chart-bar ruota-chart-compiled"' in shown  # the chart draws it in its own colour


def test_the_machines_table_names_pytorch_as_it_names_itself_and_no_other_package():
    """The version the output tabs print (2.11.0+cu130), not the package's bare one (2.11.0). The other
    packages are those of the record's latest run, which may have left out pages that ran with more
    (a page of diffusers blocks run earlier): the row would contradict those pages' outputs."""
    machine = Machine(backend="cuda", machine="x86_64", os="linux", python="3.12.3", cuda="13.0",
                      torch="2.11.0+cu130", packages={"torch": "2.11.0", "numpy": "2.5.2"})
    facts = fragments._described(Record(machine_id="h100", machine=machine, updated="2026-12-01T10:00:00Z"), "en")["facts"]
    assert facts == "Linux x86-64 · Python 3.12.3 · CUDA 13.0 · PyTorch 2.11.0+cu130"
    other = Machine(backend="cpu", machine="x86_64", os="linux", python="3.11.2", packages={"torch": "2.11.0"})
    facts = fragments._described(Record(machine_id="cpu", machine=other, updated="2026-12-01T10:00:00Z"), "en")["facts"]
    assert facts == "Linux x86-64 · Python 3.11.2 · PyTorch 2.11.0"
    bare = Machine(backend="cpu", machine="x86_64", os="linux", python="3.11.2")
    assert fragments._described(Record(machine_id="cpu", machine=bare, updated="2026-12-01T10:00:00Z"), "en")["facts"] \
        == "Linux x86-64 · Python 3.11.2"


def test_the_machines_table_lists_the_machines_in_the_order_of_the_chart_above_it():
    cpu = Record(machine_id="cpu", machine=Machine(backend="cpu", machine="x86_64", os="linux"), updated="2026-12-01T10:00:00Z")
    h100 = Record(machine_id="h100", machine=Machine(backend="cuda", machine="x86_64", os="linux", gpu_name="NVIDIA H100",
                                                     arch="sm_90"), updated="2026-12-01T10:00:00Z")
    shown = fragments.status_page([], [cpu, h100], "en")
    chart, machines = shown.split("Machines that ran the suite")
    chart_order = re.findall(r"<td>(x86-64 CPU|NVIDIA H100)</td>", chart)
    assert len(chart_order) == 2
    assert re.findall(r"<tr><td>(x86-64 CPU|NVIDIA H100)</td>", machines) == chart_order
    assert re.findall(r"<tr><td>(x86-64 CPU|NVIDIA H100)</td>", fragments.status_page([], [h100, cpu], "en").split(
        "Machines that ran the suite")[1]) == chart_order  # whatever order the records come in


def test_status_counts_blocks_never_run_by_design_apart():
    """A block its author never runs (run: skip) is not "skipped for a missing requirement", and one the
    engine cannot run (a docstring's example, made by mkdocstrings) is neither: each is counted as its mark
    names it ("Not tested by design", "Not tested here")."""
    never = SimpleNamespace(not_run_reason="installs packages", requirements=(), options={"skip": True}, evidence=None)
    made = SimpleNamespace(not_run_reason="", requirements=(), options={}, evidence=None, generated_by="mkdocstrings",
                           generated_from="ruota_docs.x", kind="python", page="en/api.md")
    verdicts = [(_block(), Verdict([MachineResult("cpu", "CPU x86_64", "skipped", None)])),
                (never, Verdict([MachineResult("cpu", "CPU x86_64", "skipped", None)])),
                (made, Verdict([MachineResult("cpu", "CPU x86_64", "skipped", None)]))]
    ledger = Record(machine_id="cpu", machine=Machine(backend="cpu", machine="x86_64", os="linux"),
                    updated="2026-12-01T10:00:00Z")
    shown = fragments.status_page([("API", "api/", verdicts)], [ledger], "en")
    assert '<span class="ruota-sr-only">1 block skipped</span>' in shown
    assert '<span class="ruota-sr-only">1 block not tested by design</span>' in shown
    assert '<span class="ruota-sr-only">1 block not tested here</span>' in shown
    assert ('<tr><td>x86-64 CPU</td><td class="ruota-num">0</td><td class="ruota-num">0</td><td class="ruota-num">0</td>'
            '<td class="ruota-num">1</td><td class="ruota-num">1</td><td class="ruota-num">1</td>'
            '<td class="ruota-num">0</td></tr>') in shown
    assert "<th>Not tested here</th>" in shown
    assert "Not tested here:" in fragments.mark(made, Verdict([]), "en")  # the page names it the same way


def test_a_compiled_block_is_never_worded_as_verified():
    """A block whose evidence is code compiled for its targets: its own mark, icon and words in every
    language, never the green "Verified on" of a run that passed."""
    compiled = SimpleNamespace(kind="python", requirements=parse("hipcc arch=gfx1102"), not_run_reason=None,
                               evidence=Evidence("compiled", ("gfx1102",)), page="es/guides/g.md")
    ran = verdict((CPU, "passed", "2026-12-01T08:00:00Z"))
    said = {lang: " ".join(_words(fragments.mark(compiled, ran, lang)).split()) for lang in ("es", "en", "fr")}
    assert said == {
        "es": "Compilado para gfx1102 en CPU x86_64 el 1 de diciembre de 2026, pero aún no se ha ejecutado en ninguna "
              "GPU gfx1102",
        "en": "Compiled for gfx1102 on CPU x86_64 on 1 December 2026, but not yet run on a gfx1102 GPU",
        "fr": "Compilé pour gfx1102 sur CPU x86_64 le 1er décembre 2026, mais pas encore exécuté sur un GPU gfx1102"}
    panel = fragments.block_panel(compiled, ran, "en", "7")
    assert 'class="ruota-verify ruota-state-compiled"' in panel and "ruota-mark-compiled" in panel
    assert "ruota-mark-passed" not in panel and "Verified" not in panel
    assert 'role="img" aria-label="compiled"' in panel  # the tab says its state in words
    # the same result of a block that runs on the card is verified
    assert "Verified on CPU x86_64" in fragments.mark(block(), ran, "en")


def test_an_output_tab_shows_a_repeated_line_once():
    """Ten identical warnings in a row read as one and a count of the nine hidden; two in a row, and blank lines,
    as printed."""
    warning = "WARNING:absl:`TensorInfo.dtype` is deprecated."
    output = "\n".join(["start", *[warning] * 10, "x", "x", "", "", "", "end"])
    assert fragments.collapse_repeats(output, "en").split("\n") == [
        "start", warning, "[the line above is repeated 9 more times]", "x", "x", "", "", "", "end"]
    assert "[la ligne ci-dessus se répète encore 2 fois]" in fragments.collapse_repeats("a\na\na", "fr")
    shown = fragments.output_tabs(Verdict([MachineResult("cpu", CPU, "passed", _entry("passed", output=output))]),
                                  "es", "0")
    assert shown.count("TensorInfo.dtype") == 1 and "la línea anterior se repite 9 veces más" in shown


def test_the_summary_never_counts_compiled_code_as_verified():
    """A compiled block that passed is counted apart from the verified ones, in its own words."""
    compiled = SimpleNamespace(kind="python", requirements=parse("hipcc arch=gfx1102"), not_run_reason=None,
                               evidence=Evidence("compiled", ("gfx1102",)), page="es/guides/g.md")
    ran = verdict((CPU, "passed", "2026-12-01T08:00:00Z"))
    blocks = [(_block(), ran), (_block(), ran), (compiled, ran)]
    line = " ".join(_words(fragments.page_summary(blocks, "en")).split())
    assert line == ("On this page, two of the three code blocks have been verified on one test machine (last run: 1 December "
                    "2026). The remaining block was only compiled and never run on a GPU.")  # which says why
    line = " ".join(_words(fragments.page_summary(blocks, "es")).split())
    assert "En esta página se han verificado dos de los tres" in line and "se ha compilado sin ejecutarse en ninguna GPU" in line


@pytest.mark.parametrize(("kind", "lang", "said"), [
    ("python", "en", "(no output)"),
    ("data", "en", "(no output: only its syntax is checked)"),
    ("doctest", "es", "(la salida de cada línea >>> coincidió con la que figura debajo de ella)"),
    ("data", "es", "(sin salida: solo se comprueba su sintaxis)"),
    ("data", "fr", "(aucune sortie\u00a0: seule sa syntaxe est vérifiée)"),
    ("doctest", "en", "(the output of each >>> line matched the output written under it)"),
])
def test_an_empty_output_says_what_it_means_for_the_kind_of_block(kind, lang, said):
    """A YAML block is parsed, not run, and a doctest's outputs are those in the block: neither is "no output"."""
    shown = fragments.output_tabs(Verdict([MachineResult("cpu", CPU, "passed", _entry("passed", output=""))]),
                                  lang, "0", kind=kind)
    assert f'<p class="ruota-output-empty">{html.escape(said)}</p>' in shown
    # the time a run took is said where the block ran, not where a file was only parsed
    assert ("took" in shown) == (kind != "data" and lang == "en")
    # a parsed file's date is said once, in its mark: its tab has no meta line to repeat it
    assert ("ruota-output-meta" in shown) == (kind != "data")
    assert (">valid syntax<" in shown) == (kind == "data" and lang == "en")  # its icon's words, not "verified"


def test_a_data_block_that_passed_is_said_to_have_parsed():
    """A YAML block is parsed, never run: its mark says its syntax is valid, not that it was verified, with one
    date and no machine (no card has a part in parsing a config excerpt)."""
    data = SimpleNamespace(kind="data", requirements=(), not_run_reason=None, evidence=None, page="es/p.md")
    said = _words(fragments.mark(data, verdict((CPU, "passed", "2026-12-01T08:00:00Z")), "es")).strip()
    assert said == "Sintaxis válida (comprobada el 1 de diciembre de 2026)"


def test_a_block_the_author_keeps_out_says_so_of_the_block_and_an_engine_reason_stands_alone():
    """The author's reason is a verb phrase said of the block; the engine's is a phrase of its own."""
    authored = SimpleNamespace(kind="python", requirements=(), not_run_reason="installs packages", evidence=None,
                               options={"skip": True, "reason": "installs packages"})
    assert _words(fragments.mark(authored, Verdict([]), "en")).strip() == "Not tested by design: this block installs packages"
    engine = SimpleNamespace(kind="python", requirements=(), not_run_reason="output or prose, not code", evidence=None,
                             options={"skip": True, "reason": "output or prose, not code", "engine_reason": True})
    assert _words(fragments.mark(engine, Verdict([]), "fr")).strip() == "Non testé ici\u00a0: output or prose, not code"


def test_a_column_header_never_stacks_two_brackets():
    """``référence (math)`` in Mio reads ``référence (math, Mio)``, not ``référence (math) (Mio)``."""
    entries = [(machine_names.machine_label(Machine(backend="cpu", machine="x86_64"), "fr"), [_entry("passed", output="a: 1.5\nb: 2.25\n")])]
    shown = fragments.chart({"metrics": "a,b", "unit": "MiB", "labels": "référence (math); découpé"}, entries, "fr")
    assert "<th>référence (math, Mio)</th><th>découpé (Mio)</th>" in shown


def test_the_summary_writes_small_counts_in_words_and_a_pair_alike():
    """Running text writes small numbers in words ("tres de los cinco", "on one test machine", "Eight are not
    tested by design"), larger ones in digits, and the two counts of one phrase alike ("13 of the 28"); a list
    that continues that phrase (French) alike too, while a sentence never opens with a numeral."""
    passed = Verdict([MachineResult("cpu", "CPU x86_64", "passed", _entry("passed"))])
    skipped = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", "requires ROCm"))])
    never_run = SimpleNamespace(not_run_reason="installs packages", requires=(), options={"skip": True})
    blocks = [(_block(), passed)] * 23 + [(_block("rocm"), skipped)] * 7 + [(never_run, Verdict([]))] * 8
    shown = fragments.page_summary(blocks, "en")
    assert "On this page, 23 of the 38 code blocks have been verified on one test machine (last run: " in shown
    assert ("The others:</p><ul><li>eight are not tested by design;</li><li>seven were skipped because no test machine "
            "has ROCm.</li></ul>") in shown
    # from 10, counts are numerals in the three languages, and the pair is written alike
    fewer = blocks[10:]
    assert "On this page, 13 of the 28 code blocks" in fragments.page_summary(fewer, "en")
    assert "se han verificado 13 de los 28 bloques de código" in fragments.page_summary(fewer, "es")
    assert "13 blocs de code sur 28" in fragments.page_summary(fewer, "fr")
    assert "<li>ocho se excluyen deliberadamente de las pruebas;</li><li>siete se han omitido porque ninguna máquina de " \
        "pruebas tiene ROCm.</li>" in fragments.page_summary(blocks, "es")
    # a French list writes each count as running text does, whatever the first sentence's pair (« 23 … sur 38 »)
    assert "<li>huit sont volontairement exclus des tests;</li><li>sept n&#x27;ont pas été exécutés, car aucune " \
        "machine de test ne dispose de ROCm.</li>" in fragments.page_summary(blocks, "fr")
    small = [(_block(), passed)] * 3 + [(never_run, Verdict([]))] * 2
    line = " ".join(_words(fragments.page_summary(small, "es")).split())
    assert "tres de los cinco" in line and "Los otros dos se excluyen" in line and "en una máquina de pruebas" in line
    mixed = [(_block(), passed)] * 3 + [(never_run, Verdict([]))] * 29
    line = " ".join(_words(fragments.page_summary(mixed, "en")).split())
    assert "3 of the 32 code blocks" in line and "The other 29 are not tested by design" in line
    assert "Los otros 29 se excluyen" in " ".join(_words(fragments.page_summary(mixed, "es")).split())
    twelve = [(_block(), passed)] * 3 + [(never_run, Verdict([]))] * 9
    assert "3 of the 12 code blocks" in " ".join(_words(fragments.page_summary(twelve, "en")).split())
    nine = [(_block(), passed)] * 3 + [(never_run, Verdict([]))] * 6
    assert "three of the nine code blocks" in " ".join(_words(fragments.page_summary(nine, "en")).split())
    listed = [(_block(), passed), (_block("rocm"), skipped), (never_run, Verdict([]))] * 2
    assert "<li>two are not tested by design;</li><li>two were skipped because no test machine has ROCm.</li>" in \
        fragments.page_summary(listed, "en")
    assert "<li>deux sont volontairement exclus des tests;</li>" in fragments.page_summary(listed, "fr")
    assert "<li>l&#x27;un est volontairement exclu des tests;</li>" in fragments.page_summary(listed[:3], "fr")
    # one block is « l'un » in the first item, « un autre » in a middle one and « le dernier » in the last
    # (« l'un » after « 32 » reads as one of those 32), never « 1 » opening an item; above thirty stays digits
    one_skipped = [(_block(), passed)] * 11 + [(never_run, Verdict([]))] * 32 + [(_block("rocm"), skipped)]
    assert "<li>32 sont volontairement exclus des tests;</li><li>le dernier n&#x27;a pas été exécuté, car" in \
        fragments.page_summary(one_skipped, "fr")


@pytest.mark.parametrize("lang, said", [
    ("en", "Verified on CPU x86_64 on 1 December 2026 Not yet verified on NVIDIA H100 (CUDA): this code has changed "
           "since it ran there"),
    ("es", "Verificado en CPU x86_64 el 1 de diciembre de 2026 Sin verificar en NVIDIA H100 (CUDA): el código cambió "
           "desde que se ejecutó allí"),
    ("fr", "Vérifié sur CPU x86_64 le 1er décembre 2026 Pas encore vérifié sur NVIDIA H100 (CUDA) : ce code a changé "
           "depuis qu'il y a été exécuté"),
])
def test_a_block_verified_on_one_machine_and_changed_since_it_ran_on_another_says_both(lang, said):
    """The CPU ran the current code and the H100 an older one: the mark says where the block is verified and,
    on a grey line of its own, where it is not yet, so that no machine's result is silently dropped."""
    shown = fragments.mark(block(), verdict((CPU, "passed", "2026-12-01T08:00:00Z"), ("NVIDIA H100 (CUDA)", "stale", None)),
                           lang)
    assert " ".join(_words(shown).split()) == said
    assert "ruota-mark-stale" in shown and "ruota-mark-passed" in shown


@pytest.mark.parametrize("lang, said", [
    ("en", "Skipped on CPU x86_64: requires network access Not yet verified on NVIDIA H100 (CUDA): this code has "
           "changed since it ran there"),
    ("es", "Sin verificar en NVIDIA H100 (CUDA): el código cambió desde que se ejecutó allí"),
    ("fr", "Pas encore vérifié sur NVIDIA H100 (CUDA) : ce code a changé depuis qu'il y a été exécuté"),
])
def test_a_stale_line_under_a_line_that_names_a_machine_names_its_own(lang, said):
    """Skipped on the CPU, changed since it ran on the H100: a bare "Not yet verified: … since it last ran" under
    "Skipped on CPU" would read as if the CPU's run were the old one."""
    shown = _words(fragments.mark(_block("network"), Verdict([
        MachineResult("cpu", CPU, "skipped", _entry("skipped", "requires network access")),
        MachineResult("h100", "NVIDIA H100 (CUDA)", "stale", _entry("passed", ran_at="2026-12-01T08:00:00Z"))]), lang))
    assert said in " ".join(shown.split())
    # stale everywhere, with no other line: nothing to tell apart, and no machine to name
    alone = _words(fragments.mark(block(), verdict(("NVIDIA H100 (CUDA)", "stale", None)), lang))
    assert "H100" not in alone and text(lang, "stale") in " ".join(alone.split())


def test_a_data_block_parsed_in_its_current_form_is_not_called_unverified_elsewhere():
    """Syntax does not depend on the machine: once a YAML block parsed as it stands, an older parse on another
    machine adds no line (it would say the block "ran" there, and leave the parse line looking unplaced)."""
    data = SimpleNamespace(kind="data", requirements=(), not_run_reason=None, evidence=None, page="es/p.md")
    both = verdict((CPU, "passed", "2026-12-01T08:00:00Z"), ("NVIDIA H100 (CUDA)", "stale", None))
    assert " ".join(_words(fragments.mark(data, both, "es")).split()) == \
        "Sintaxis válida (comprobada el 1 de diciembre de 2026)"
    # a code block in the same case keeps its line: the H100 could well print something else
    assert "Sin verificar en NVIDIA H100" in _words(fragments.mark(block(), both, "es"))
