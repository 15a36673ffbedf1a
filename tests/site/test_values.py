"""``<!-- value: … -->``: numbers in sentences drawn from the record, per machine and locale."""

from __future__ import annotations

import hashlib
import html
import re

import pytest

from _support import record_of, run_mkdocs, run_pytest, write_tree
from ruota_docs.blocks import value_directive
from ruota_docs.cli import main
from ruota_docs.translations import parity
from ruota_docs.site import values

CODE = 'print("peak_mib: 67.2")\nprint("unet_calls: 4")\nprint("gpu_only: 1.5")'

PAGE = """\
    # {title} {{ #home }}

    <!-- run: id=bench -->
    ```python
    print("peak_mib: 67.2")
    print("unet_calls: 4")
    print("gpu_only: 1.5")
    ```

    {peak} <!-- value: block=bench metric=peak_mib unit=MiB -->.

    {calls} <!-- value: block=bench metric=unet_calls -->.

    {gpu} <!-- value: block=bench metric=gpu_only digits=2 unit=s -->.

    {none} <!-- value: block=bench metric=never_printed -->.

    {first} <!-- value: block=bench metric=peak_mib unit=MiB machine=gpu -->.

    ```text
    <!-- value: block=bench metric=peak_mib --> shown in an output, never filled
    ```
    """

WORDS = {
    "es": dict(title="Inicio", peak="Pico:", calls="Llamadas:", gpu="Solo GPU:", none="Nada:", first="En la GPU:"),
    "en": dict(title="Home", peak="Peak:", calls="Calls:", gpu="GPU only:", none="Nothing:", first="On the GPU:"),
    "fr": dict(title="Accueil", peak="Pic :", calls="Appels :", gpu="GPU seul :", none="Rien :", first="Sur le GPU :"),
}

MACHINES = {
    "cpu-x86_64": ({"backend": "cpu", "machine": "x86_64", "gpu_name": None}, "peak_mib: 66.0\nunet_calls: 4\n"),
    "cuda-nvidia-h200": ({"backend": "cuda", "machine": "x86_64", "gpu_name": "NVIDIA H200", "arch": "sm_90"},
                         "peak_mib: 67.2\nunet_calls: 4\ngpu_only: 1.5\n"),
}


def ledger(machine_id: str, machine: dict, output: str, code: str = CODE) -> dict:
    blocks = {f"{lang}/index.md#0": {"page": f"{lang}/index.md", "lang": lang, "index": 0, "line": 3, "language": "python",
                                     "sha256": hashlib.sha256(code.encode()).hexdigest(), "id": "bench", "outcome": "passed",
                                     "reason": None, "error": None, "duration": 1.0, "output": output,
                                     "ran_at": "2026-11-20T10:00:00Z", "reused_from": None} for lang in WORDS}
    return {"schema": 1, "kind": "ruota-docs/ledger", "machine_id": machine_id, "machine": machine | {"machine_id": machine_id},
            "updated": "2026-11-20T10:00:00Z", "blocks": blocks}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = write_tree(tmp_path_factory.mktemp("values"),
                      {f"docs/{lang}/index.md": PAGE.format(**words) for lang, words in WORDS.items()}, site=True, conftest=False)
    (root / "verification").mkdir()
    for machine_id, (machine, output) in MACHINES.items():
        (root / "verification" / f"{machine_id}.json").write_text(record_of(ledger(machine_id, machine, output)).to_json())
    return root


@pytest.fixture(scope="module")
def site(tree):
    result = run_mkdocs(tree)
    assert result.returncode == 0, result.stderr[-3000:]
    return tree / "site"


def sentence(page: str, start: str) -> str:
    body = page[page.index("<article"):page.index("</article>")]
    paragraph = next(p for p in re.findall(r"<p>(.*?)</p>", body, re.S) if p.startswith(start))
    return html.unescape(re.sub(r"<[^>]+>", "", paragraph)).replace("\u00a0", " ").replace("\u202f", " ")


@pytest.mark.parametrize(("lang", "path", "expected", "tip"), [
    ("es", "index.html", "Pico: 66,0 MiB (en una CPU x86-64, el 20 de noviembre de 2026).", "Otra medición: 67,2 MiB en una NVIDIA H200."),
    ("en", "en/index.html", "Peak: 66.0 MiB (measured on an x86-64 CPU on 20 November 2026).", "Also measured: 67.2 MiB on an NVIDIA H200."),
    ("fr", "fr/index.html", "Pic : 66,0 Mio (mesure réalisée sur un CPU x86-64 le 20 novembre 2026).", "Autre mesure : 67,2 Mio sur une NVIDIA H200."),
])
def test_one_value_in_the_sentence_the_gpus_with_its_machine_and_date(site, lang, path, expected, tip):
    """The block requires no GPU: the CPU machine's value is shown, the GPU machine's in the tooltip."""
    page = (site / path).read_text(encoding="utf-8")
    assert sentence(page, expected.split()[0]) == expected
    span = re.search(r'<span class="ruota-value" data-block="bench" data-metric="peak_mib" data-at="[^"]*" title="([^"]*)"', page)
    assert html.unescape(span[1]).replace("\u00a0", " ").replace("\u202f", " ") == tip


def test_identical_values_collapse(site):
    """A value every machine measured alike is said of them all (a count that does not depend on the machine),
    and no tooltip repeats it."""
    page = (site / "en/index.html").read_text(encoding="utf-8")
    assert sentence(page, "Calls:") == "Calls: 4 (measured on both test machines on 20 November 2026)."
    # a finding and a date are not joined by a comma where the language would not
    es = (site / "index.html").read_text(encoding="utf-8")
    assert sentence(es, "Llamadas:") == "Llamadas: 4 (en las dos máquinas de pruebas, el 20 de noviembre de 2026)."
    fr = (site / "fr/index.html").read_text(encoding="utf-8")
    assert sentence(fr, "Appels").replace("\u00a0", " ").replace("\u202f", " ") == (
        "Appels : 4 (mesures réalisées sur les deux machines de test le 20 novembre 2026).")
    assert re.search(r'data-metric="unet_calls" data-at="[^"]*" data-one=" \(measured on an x86-64 CPU on 20 November 2026\)">', page)


def test_machine_gpu_gives_the_gpus_value_of_a_block_that_needs_no_gpu(site):
    """``machine=gpu``: a figure about the GPU (a numerical check's worst error) is the GPU's, not the CPU's."""
    page = (site / "en/index.html").read_text(encoding="utf-8")
    assert sentence(page, "On the GPU:") == "On the GPU: 67.2 MiB (measured on an NVIDIA H200 on 20 November 2026)."


def test_a_value_only_one_machine_printed(site):
    page = (site / "en/index.html").read_text(encoding="utf-8")
    assert sentence(page, "GPU only:") == "GPU only: 1.50 s (measured on an NVIDIA H200 on 20 November 2026)."  # digits=2
    assert re.search(r'data-metric="gpu_only" data-at="[^"]*">', page)  # nothing else measured it: no tooltip


def _result(machine_id: str, machine: dict, output: str, when: str = "2026-11-20T10:00:00Z", fingerprint=None):
    from ruota_docs.records.schema import Machine, Record, Result
    from ruota_docs.records.verdicts import MachineResult, machine_label

    record = Record(machine_id=machine_id, machine=Machine.from_json(machine), fingerprint=fingerprint)
    entry = Result(fence_language="python", sha256="a", outcome="passed", output=output, ran_at=when)
    return MachineResult(machine_id, machine_label(machine), "passed", entry, record)


def test_the_guides_own_card_first_else_a_gpu_else_the_cpu():
    from ruota_docs.records.verdicts import Verdict
    from ruota_docs.site import values

    rx7600 = {"backend": "rocm", "gpu_name": "AMD Radeon RX 7600", "arch": "gfx1102", "machine": "x86_64"}
    mi300 = {"backend": "rocm", "gpu_name": "AMD Instinct MI300X", "arch": "gfx942", "machine": "x86_64"}
    cpu, h200 = MACHINES["cpu-x86_64"][0], MACHINES["cuda-nvidia-h200"][0]
    value = value_directive.parse("block=bench metric=peak_mib unit=MiB")
    found = [_result("cpu", cpu, "peak_mib: 66.0"), _result("h200", h200, "peak_mib: 67.2"),
             _result("mi300", mi300, "peak_mib: 70.0"), _result("rx-a", rx7600, "peak_mib: 71.5", "2026-11-21T10:00:00Z"),
             _result("rx-b", rx7600, "peak_mib: 71.5", "2026-11-25T10:00:00Z")]
    words = lambda page, results: re.sub(r"<[^>]+>", "", values.render(value, Verdict(results), "en", page)).replace("\u00a0", " ")  # noqa: E731
    assert words("en/guides/keras-rx7600.md", found) == "71.5 MiB (measured on an AMD Radeon RX 7600 on 25 November 2026)"  # its card, latest run
    # its card unmeasured: a GPU, the target of most machines first, ROCm before CUDA
    assert words("en/guides/radeon-vii-windows.md", found) == "71.5 MiB (measured on an AMD Radeon RX 7600 on 25 November 2026)"
    assert words("en/guides/radeon-vii-windows.md", found[:3]) == "70.0 MiB (measured on an AMD Instinct MI300X on 20 November 2026)"
    assert words("en/index.md", found[:2]) == "67.2 MiB (measured on an NVIDIA H200 on 20 November 2026)"
    assert words("en/index.md", found[:1]) == "66.0 MiB (measured on an x86-64 CPU on 20 November 2026)"
    # a block that needs no GPU: the CPU's value, not a GPU machine's host timing labelled with its GPU
    cpu_first = re.sub(r"<[^>]+>", "", values.render(value, Verdict(found[:2]), "en", "en/index.md", needs_gpu=False))
    assert cpu_first.replace("\u00a0", " ") == "66.0 MiB (measured on an x86-64 CPU on 20 November 2026)"
    no_cpu = re.sub(r"<[^>]+>", "", values.render(value, Verdict(found[1:2]), "en", "en/index.md", needs_gpu=False))
    assert no_cpu.replace("\u00a0", " ") == "67.2 MiB (measured on an NVIDIA H200 on 20 November 2026)"  # no CPU record: the one there is
    tip = html.unescape(re.search(r'title="([^"]*)"', values.render(value, Verdict(found), "en", "en/guides/keras-rx7600.md"))[1])
    assert tip.replace("\u00a0", " ") == ("Also measured: 70.0 MiB on an AMD Instinct MI300X; "
                                         "67.2 MiB on an NVIDIA H200; 66.0 MiB on an x86-64 CPU. "
                                         "Same value on an AMD Radeon RX 7600.")


def test_a_value_no_record_holds_is_marked(site):
    page = (site / "index.html").read_text(encoding="utf-8")
    assert sentence(page, "Nada:") == "Nada: (valor sin medir todavía)."
    assert 'class="ruota-value ruota-value-missing"' in page
    fr = (site / "fr/index.html").read_text(encoding="utf-8")
    assert "(valeur pas encore mesurée)" in sentence(fr, "Rien")


def test_a_directive_in_code_is_only_shown(site):
    page = (site / "en/index.html").read_text(encoding="utf-8")
    assert "&lt;!-- value: block=bench metric=peak_mib --&gt; shown in an output" in page


def test_stale_code_gives_no_value(tmp_path):
    root = write_tree(tmp_path, {"docs/es/index.md": PAGE.format(**WORDS["es"])}, site=True, conftest=False)
    (root / "verification").mkdir()
    machine, output = MACHINES["cpu-x86_64"]
    (root / "verification/cpu-x86_64.json").write_text(record_of(ledger("cpu-x86_64", machine, output, code="old code")).to_json())
    assert run_mkdocs(root).returncode == 0
    page = (root / "site/index.html").read_text(encoding="utf-8")
    assert sentence(page, "Pico:") == "Pico: (valor sin medir todavía)."


def test_status_strict_fails_on_a_value_not_measured(tree, capsys):
    code = main(["--root", str(tree), "status", "--strict"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "es/index.md:16: value bench/never_printed: not measured yet on any machine" in out
    assert out.index("\nes/index.md (") < out.index("es/index.md:16: value")  # under its page's heading
    assert err.strip() == "3 values in the prose are wrong or not measured on any machine"  # es, en, fr
    assert "es/index.md:10:" not in out  # measured on two machines


def test_an_unknown_block_fails_the_build(tmp_path):
    root = write_tree(tmp_path, {"docs/es/index.md": "# T { #t }\n\nPico <!-- value: block=nope metric=x -->.\n"},
                      site=True, conftest=False)
    result = run_mkdocs(root)
    assert result.returncode == 1
    assert "es/index.md:3: value: no block on this page has id=nope (ids here: none)" in result.stderr


def test_an_unknown_block_fails_the_page_run_too(tmp_path):
    """The author's `pytest page.md` finds what the build would refuse, with the same words."""
    page = ("# T { #t }\n\n<!-- run: id=uno -->\n```python\nprint('m: 1')\n```\n\n"
            "Pico <!-- value: block=nope metric=m -->, `<!-- value: block=shown metric=m -->`.\n\n"
            "<!-- chart: block=nada metric=m -->\n")
    root = write_tree(tmp_path, {"docs/es/p.md": page})
    result = run_pytest(root, "--no-record")
    assert result.returncode == 1
    assert "es/p.md:8: value: no block on this page has id=nope (ids here: uno)" in result.stdout
    assert "es/p.md:10: chart: no block on this page has id=nada (ids here: uno)" in result.stdout
    assert "id=shown" not in result.stdout  # in inline code: only shown


def test_i18n_check_treats_a_value_as_a_number(tree):
    assert parity.check(tree / "docs", ["es", "en", "fr"]) == []
    fr = tree / "docs/fr/index.md"
    text = fr.read_text(encoding="utf-8")
    try:
        fr.write_text(text.replace("metric=unet_calls", "metric=unet_steps"), encoding="utf-8")
        problems = [(p.page, p.line, p.message) for p in parity.check(tree / "docs", ["es", "en", "fr"])]
    finally:
        fr.write_text(text, encoding="utf-8")
    assert problems == [("fr/index.md", 1, "number 'value:bench/unet_calls' from es/index.md:12 is missing here"),
                        ("fr/index.md", 12, "number 'value:bench/unet_steps' is not in es/index.md")]


def test_values_of_one_sentence_name_their_machine_once_at_its_end():
    """The attribution closes the sentence, once per machine and day, and never splits the phrase;
    an abbreviation's or a decimal's full stop ends nothing; French keeps its space before « ? »."""
    from ruota_docs.records.verdicts import Verdict
    from ruota_docs.site import values

    h200, cpu = MACHINES["cuda-nvidia-h200"][0], MACHINES["cpu-x86_64"][0]
    found = Verdict([_result("h200", h200, "worst: 0.258\nops: 65")])
    worst, ops = (values.render(value_directive.parse(f"block=bench metric={m}"), found, "en") for m in ("worst", "ops"))
    page = (f"<p>The worst row, e.g. at 7.5, used {worst} of its <em>tolerance</em>, with {ops} operations checked. "
            f"Then more.</p><p>Again {ops}</p>")
    shown = re.sub(r"<[^>]+>", "", values.attributed_once(page))
    assert shown == ("The worst row, e.g. at 7.5, used 0.26 of its tolerance, with 65 operations checked "
                     "(measured on an NVIDIA H200 on 20 November 2026). Then more.Again 65 (measured on an NVIDIA H200 on 20 November 2026)")
    assert re.sub(r"<[^>]+>", "", values.attributed_once(f"<li>It printed {ops} rows :</li>")) == (
        "It printed 65 rows (measured on an NVIDIA H200 on 20 November 2026) :")
    on_cpu = values.render(value_directive.parse("block=bench metric=ops"), Verdict([_result("cpu", cpu, "ops: 64")]), "fr")
    worst_fr = values.render(value_directive.parse("block=bench metric=worst"), found, "fr")
    page = f"<p>Pire {worst_fr}, et {on_cpu}\u202f?</p>"
    assert re.sub(r"<[^>]+>", "", values.attributed_once(page)) == (
        "Pire 0,26, et 64 (mesure réalisée sur une NVIDIA H200 le 20 novembre 2026; mesure réalisée sur un CPU x86-64 le 20 novembre 2026)\u202f?")


def test_a_value_quoted_keeps_its_attribution_inside_the_quotation():
    """A sentence quoted with its value ends its quotation with the value's machine and day, never after the
    closing mark (nor after a full stop inside it); a quotation that opens after the value is not the value's, and stays outside."""
    from ruota_docs.records.verdicts import Verdict
    from ruota_docs.site import values

    h200 = MACHINES["cuda-nvidia-h200"][0]
    ops = values.render(value_directive.parse("block=bench metric=ops"), Verdict([_result("h200", h200, "ops: 65")]), "en")
    said = re.sub(r"<[^>]+>", "", values.attributed_once(f"<p>It reads: “the run checked {ops}”.</p>"))
    assert said == "It reads: “the run checked 65 (measured on an NVIDIA H200 on 20 November 2026)”."
    said = re.sub(r"<[^>]+>", "", values.attributed_once(f"<p>It checked {ops} of the “ops”.</p>"))
    assert said == "It checked 65 of the “ops” (measured on an NVIDIA H200 on 20 November 2026)."
    # a quoted sentence whose full stop sits inside the quotation: the attribution before that full stop
    said = re.sub(r"<[^>]+>", "", values.attributed_once(f"<p>It reads: “the run checked {ops}.” Then more.</p>"))
    assert said == "It reads: “the run checked 65 (measured on an NVIDIA H200 on 20 November 2026).” Then more."
    fr = values.render(value_directive.parse("block=bench metric=ops"), Verdict([_result("h200", h200, "ops: 65")]), "fr")
    said = re.sub(r"<[^>]+>", "", values.attributed_once(f"<p>Il dit\u00a0: «\u00a0elle a vérifié {fr}\u00a0».</p>"))
    assert said == "Il dit\u00a0: «\u00a0elle a vérifié 65 (mesure réalisée sur une NVIDIA H200 le 20 novembre 2026)\u00a0»."


def test_a_paragraph_names_a_machine_once_and_shares_the_authors_parenthesis():
    """The sentence after one that named the machine and day does not name them again; a sentence that
    ends with the author's parenthesis takes the attribution into it, never "(…) (NVIDIA H200, …)"."""
    from ruota_docs.records.verdicts import Verdict
    from ruota_docs.site import values

    h200, cpu = MACHINES["cuda-nvidia-h200"][0], MACHINES["cpu-x86_64"][0]
    found = Verdict([_result("h200", h200, "worst: 0.258\nops: 65")])
    worst, ops = (values.render(value_directive.parse(f"block=bench metric={m}"), found, "es") for m in ("worst", "ops"))
    page = f"<p>Se comprobaron {ops} filas (cada una, una forma y una precisión). El peor error fue de {worst}.</p>"
    assert re.sub(r"<[^>]+>", "", values.attributed_once(page)) == (
        "Se comprobaron 65 filas (cada una, una forma y una precisión; en una NVIDIA H200, el 20 de noviembre de 2026). "
        "El peor error fue de 0,26.")
    # a machine named again after another one came in between: said again
    ops = values.render(value_directive.parse("block=bench metric=ops"), found, "en")
    on_cpu = values.render(value_directive.parse("block=bench metric=ops"), Verdict([_result("cpu", cpu, "ops: 64")]), "en")
    page = f"<p>It checked {ops} rows. Then {ops} again. On the CPU, {on_cpu}. Again {ops}.</p>"
    assert re.sub(r"<[^>]+>", "", values.attributed_once(page)) == (
        "It checked 65 rows (measured on an NVIDIA H200 on 20 November 2026). Then 65 again. On the CPU, 64 (measured on an x86-64 CPU on "
        "20 November 2026). Again 65 (measured on an NVIDIA H200 on 20 November 2026).")


def test_prose_rounds_a_value_as_its_chart_does():
    """``0.258``, ``0.60`` and ``1076.0`` printed: ``0,26``, ``0,60`` and ``1076,0`` in the sentence, as in a
    chart of those values (the decimals the block printed, at most two)."""
    from ruota_docs.records.schema import Machine
    from ruota_docs.records.verdicts import Verdict
    from ruota_docs.site import fragments, machine_names, values

    output = "worst: 0.258\nratio: 0.60\npeak: 1076.0\ncalls: 4\ntiny: 1.5e-05"
    found = Verdict([_result("h200", MACHINES["cuda-nvidia-h200"][0], output)])
    said = {metric: re.sub(r"<[^>]+>", "", values.render(value_directive.parse(f"block=bench metric={metric}"), found,
                                                         "es")).split(" (")[0]
            for metric in ("worst", "ratio", "peak", "calls", "tiny")}
    assert said == {"worst": "0,26", "ratio": "0,60", "peak": "1076,0", "calls": "4", "tiny": "0"}
    entries = [(machine_names.machine_label(Machine(backend="cuda", gpu_name="NVIDIA H200", arch="sm_90"), "fr"), [_result("h200", {}, output).entry])]
    chart = fragments.chart({"metrics": "worst,ratio", "labels": "a; b"}, entries, "es")
    assert '<td class="ruota-num">0,26</td><td class="ruota-num">0,60</td>' in chart  # one precision per chart


def test_several_metrics_that_read_the_same_are_said_once():
    """``metric=a,b``: one number "in both cases" where both read the same, else both joined;
    a metric no record holds is reported by status like any other."""
    from ruota_docs.records.verdicts import Verdict
    from ruota_docs.site import values

    h200 = MACHINES["cuda-nvidia-h200"][0]
    same = Verdict([_result("h200", h200, "peak_a: 67.2\npeak_b: 67.2\npeak_c: 80\npeak_d: 67.2")])
    words = lambda metrics, lang: re.sub(r"<[^>]+>", "", html.unescape(values.render_all(  # noqa: E731
        value_directive.parse(f"block=bench metric={metrics} unit=MiB"), same, lang, f"{lang}/index.md"))).replace("\u00a0", " ")
    assert words("peak_a,peak_b", "en") == "67.2 MiB (measured on an NVIDIA H200 on 20 November 2026) in both cases"
    assert words("peak_a,peak_b", "es") == "67,2 MiB (en una NVIDIA H200, el 20 de noviembre de 2026) en ambos casos"
    assert words("peak_a,peak_b,peak_d", "en") == "67.2 MiB (measured on an NVIDIA H200 on 20 November 2026) in each of the three cases"
    assert words("peak_a,peak_c", "fr") == ("67,2 Mio (mesure réalisée sur une NVIDIA H200 le 20 novembre 2026) et "
                                            "80 Mio (mesure réalisée sur une NVIDIA H200 le 20 novembre 2026)")
    # in a sentence, where and when closes it once
    sentence_html = values.attributed_once("<p>The peak was " + values.render_all(
        value_directive.parse("block=bench metric=peak_a,peak_b unit=MiB"), same, "en", "en/index.md") + ".</p>")
    assert re.sub(r"<[^>]+>", "", sentence_html).replace("\u00a0", " ") == (
        "The peak was 67.2 MiB in both cases (measured on an NVIDIA H200 on 20 November 2026).")
    # alike=once: a sentence that says "the same peak" gets the value alone; values that differ are still all given
    assert words("peak_a,peak_b alike=once", "en") == "67.2 MiB (measured on an NVIDIA H200 on 20 November 2026)"
    assert words("peak_a,peak_c alike=once", "en").count("MiB") == 2
    with pytest.raises(value_directive.ValueDirectiveError, match="several separated by commas"):
        value_directive.parse("block=bench metric=peak_a,")
    with pytest.raises(value_directive.ValueDirectiveError, match="alike= is cases or once"):
        value_directive.parse("block=bench metric=peak_a,peak_b alike=both")
    with pytest.raises(value_directive.ValueDirectiveError, match="applies to several metrics"):
        value_directive.parse("block=bench metric=peak_a alike=once")


def test_a_value_measured_alike_everywhere_is_said_of_one_machine_beside_one():
    """"The same on the two test machines" where it is its sentence's only attribution; beside a value one
    machine measured, the sentence names that machine once, as both values were measured there."""
    def value(number: str, at: str, one: str = "") -> str:
        extra = f' data-one="{one}"' if one else ""
        return (f'<span class="ruota-value" data-block="b" data-metric="m" data-at="{at}"{extra}>{number}'
                f'<span class="ruota-value-at">{at}</span></span>')
    alike, h100 = " (measured on both test machines on 1 December 2026)", " (measured on an NVIDIA H100 on 1 December 2026)"
    both = values.attributed_once(f"<p>It checked {value('65', alike, h100)} rows, the worst at "
                                  f"{value('0.26', h100)}.</p>")
    assert re.sub(r"<[^>]+>", "", both) == "It checked 65 rows, the worst at 0.26 (measured on an NVIDIA H100 on 1 December 2026)."
    alone = values.attributed_once(f"<p>It checked {value('65', alike, h100)} rows.</p>")
    assert re.sub(r"<[^>]+>", "", alone) == "It checked 65 rows (measured on both test machines on 1 December 2026)."
