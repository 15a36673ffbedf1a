"""The interface in each language: plurals, numbers, units, dates, requirement terms, engine messages."""

from __future__ import annotations

import datetime as dt
import html
import re
import string
from dataclasses import dataclass, field

import pytest

from ruota_docs.site import formatting, fragments, locales, reasons
from ruota_docs.records import reason_codes
from ruota_docs.records.machine import Device
from ruota_docs.site.locales import LANGUAGE_NAMES, STRINGS, text
from ruota_docs.records.verdicts import MachineResult, Verdict
from ruota_docs.blocks.terms import KNOWN, Requirement, parse
from ruota_docs.run.conditions import unmet_reason
from ruota_docs.run.guard import repository_note
from ruota_docs.run.process.session import PageSession

NB = "\u00a0"
LANGUAGES = ("es", "fr", "en")
CPU = Device(backend="cpu", gpu_name=None, arch=None, vram_bytes=None, gpu_count=0,
             os="linux", machine="x86_64", python="3.10.12", torch=None)
H200 = Device(backend="cuda", gpu_name="NVIDIA H200", arch="sm_90", vram_bytes=143_771 * 2**20, gpu_count=1,
              os="linux", machine="x86_64", python="3.11.7", torch="2.13.0+cu130", cuda="13.0")


# -- the string tables ---------------------------------------------------------------------------------------------
def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _forms(entry) -> dict[str, str]:
    return {k: v for k, v in entry.items() if k != "by"} if isinstance(entry, dict) else {"": entry}


@pytest.mark.parametrize("lang", ["es", "fr"])
def test_every_string_exists_with_the_same_fields(lang):
    for key, entry in STRINGS["en"].items():
        assert key in STRINGS[lang], f"{lang} lacks {key!r}"
        if not STRINGS[lang][key]:
            continue  # deliberately empty: shown only on translations, never in the source language
        english = set().union(*(_fields(t) for t in _forms(entry).values()))
        for form, template in _forms(STRINGS[lang][key]).items():
            assert _fields(template) <= english | {"count"}, f"{lang} {key} {form}: {template!r}"
    assert set(STRINGS[lang]) == set(STRINGS["en"])


def test_counted_strings_have_the_forms_their_languages_use():
    for lang, table in STRINGS.items():
        for key, entry in table.items():
            if isinstance(entry, dict):
                assert {"one", "other"} <= set(entry), f"{lang} {key}"
                if "by" in entry:  # a count other than ``count`` is one of the string's own numbers
                    assert entry["by"] in set().union(*(_fields(t) for t in _forms(entry).values())), f"{lang} {key}"


def test_no_string_writes_an_optional_plural():
    for lang in LANGUAGES:
        for key, entry in STRINGS[lang].items():
            for template in _forms(entry).values():
                assert "(s)" not in template, f"{lang} {key}: {template!r}"


@pytest.mark.parametrize(("lang", "count", "expected"), [
    ("fr", 0, "0 bloc"), ("fr", 1, "1 bloc"), ("fr", 2, "2 blocs"),  # French: 0 and 1 are singular
    ("es", 0, "0 bloques"), ("es", 1, "1 bloque"), ("es", 2, "2 bloques"),
    ("en", 0, "0 blocks"), ("en", 1, "1 block"), ("en", 1500, "1,500 blocks"),
    ("es", 1500, "1500 bloques"), ("es", 15000, "15.000 bloques"), ("fr", 1500, "1\u202f500 blocs"),
])
def test_counts_follow_each_languages_plural_rule(lang, count, expected):
    assert text(lang, "blocks_count", count=count) == expected


def test_a_counted_string_needs_its_number():
    with pytest.raises(KeyError, match="counts 'total'"):
        text("es", "summary", passed=1, machines="1 máquina", date="hoy")



# -- the data files ------------------------------------------------------------------------------------------------
@pytest.fixture
def locale_dir(tmp_path, monkeypatch):
    """An empty folder of locale files in place of the package's own."""
    monkeypatch.setattr(locales, "LOCALES_DIR", tmp_path)
    locales._table.cache_clear()
    yield tmp_path
    locales._table.cache_clear()


def test_the_strings_are_the_packages_data_files():
    assert list(STRINGS) == ["en", "es", "fr"] == locales.languages()
    assert all((locales.LOCALES_DIR / f"{lang}.yml").is_file() for lang in LANGUAGES)


def test_a_language_without_a_file_is_an_error_not_english():
    with pytest.raises(locales.LocaleError, match=r"no interface strings for language 'de': .*de\.yml does not exist "
                                                  r"\(languages with strings: en, es, fr\)"):
        text("de", "requires")
    assert "de" not in STRINGS


def test_a_missing_key_is_an_error_that_names_the_file():
    with pytest.raises(locales.LocaleError, match=r"fr\.yml: no string 'no_such_string'"):
        text("fr", "no_such_string")


@pytest.mark.parametrize(("content", "expected"), [
    ("strings: {a: b}\n", "expected the sections 'language_names' and 'strings', found strings"),
    ("language_names: {}\nstrings:\n  a: b\n  a: c\n", r":4: strings: 'a' is given twice"),
    ("language_names: {}\nstrings:\n  a: [b]\n", ":3: a: expected a string or a mapping of plural forms"),
    ("language_names: {}\nstrings:\n  a:\n    one: x\n    several: y\n", ":5: a: 'several' is no plural form"),
    ("language_names: {}\nstrings:\n  a:\n    one: x\n", ":4: a: a counted string needs at least its 'other' form"),
    ("language_names: {}\nstrings:\n  a: yes\n", ":3: a: expected a string"),
    ("language_names: {}\nstrings:\n  a: \"b\n", "not valid YAML"),
    ("", "empty"),
])
def test_a_malformed_file_is_an_error_with_its_line(locale_dir, content, expected):
    (locale_dir / "xx.yml").write_text(content, encoding="utf-8")
    with pytest.raises(locales.LocaleError) as raised:
        text("xx", "a")
    assert str(raised.value).startswith(str(locale_dir / "xx.yml")) and expected in str(raised.value)


def test_a_file_is_read_with_its_escapes_and_plural_forms(locale_dir):
    (locale_dir / "it.yml").write_text(
        'language_names: {it: italiano}\nstrings:\n  size: "VRAM \\u2265\\u00a0{size}"\n'
        "  n:\n    one: '{count} cosa'\n    other: '{count} cose'\n", encoding="utf-8")
    assert text("it", "size", size="8 GiB") == "VRAM \u2265\u00a08 GiB"
    assert text("it", "n", count=2) == "2 cose" and LANGUAGE_NAMES["it"] == {"it": "italiano"}


def test_the_summary_agrees_with_its_counts():
    one = dict(passed=1, total=1, machines=text("es", "machines_count", count=1), date="hoy")
    assert text("es", "summary", **one) == "1 de 1 bloque de código verificado en 1 máquina; última ejecución: hoy."
    # French agrees with the verified blocks, Spanish and English with the total
    assert text("fr", "summary", passed=1, total=7, machines="2 machines", date="hier").startswith(
        "Vérifié sur 2 machines : 1 bloc de code sur 7 ;")
    assert text("fr", "summary", passed=23, total=23, machines="2 machines", date="hier").startswith(
        "Vérifiés sur 2 machines : 23 blocs de code sur 23 ;")
    assert text("es", "summary", passed=1, total=7, machines="2 máquinas", date="ayer").startswith("1 de 7 bloques de código verificados")
    assert text("en", "summary", passed=1, total=1, machines="1 machine", date="today").startswith("1 of 1 code block verified")


# -- numbers, units, dates -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "unit", "lang", "expected"), [
    (8, "GiB", "fr", f"8{NB}Gio"), (67.2, "MiB", "fr", f"67,2{NB}Mio"), (512, "KiB", "fr", f"512{NB}Kio"),
    (3, "B", "fr", f"3{NB}o"), (8, "GiB", "es", f"8{NB}GiB"), (67.2, "MiB", "en", f"67.2{NB}MiB"),
    (12, "s", "fr", f"12{NB}s"), (1081.4, "MiB", "es", f"1081,4{NB}MiB"), (5, "", "es", "5"),
])
def test_quantities(value, unit, lang, expected):
    assert formatting.quantity(value, unit, lang) == expected


def test_sizes_as_the_requirement_vocabulary_writes_them():
    assert formatting.size("8GiB", "fr") == f"8{NB}Gio"
    assert formatting.size("512MiB", "es") == f"512{NB}MiB"
    assert formatting.size("1.5GiB", "en") == f"1.5{NB}GiB"


@pytest.mark.parametrize(("value", "lang", "expected"), [
    (0.001, "es", f"<{NB}0,01{NB}s"), (0.42, "fr", f"0,42{NB}s"), (14.04, "en", f"14{NB}s"),
    (17.14, "es", f"17,1{NB}s"), (125, "fr", f"2{NB}min 5{NB}s"), (120, "en", f"2{NB}min"),
])
def test_durations(value, lang, expected):
    assert formatting.seconds(value, lang) == expected


@pytest.mark.parametrize(("day", "lang", "style", "expected"), [
    (dt.datetime(2026, 11, 29, 10), "es", "long", "29 de noviembre de 2026"),
    (dt.datetime(2026, 12, 1, 10), "fr", "long", "1er décembre 2026"),
    (dt.datetime(2026, 12, 1, 10), "fr", "medium", "1er déc. 2026"),
    (dt.datetime(2026, 11, 29, 10), "fr", "long", "29 novembre 2026"),
    (dt.datetime(2026, 11, 29, 10), "en", "long", "29 November 2026"),
    (dt.datetime(2026, 11, 29, 10), "es", "medium", "29 nov 2026"),
])
def test_dates(day, lang, style, expected):
    assert formatting.date(day, lang, style) == expected
    assert formatting.date(day.isoformat() + "Z", lang, style) == expected


def test_no_date():
    assert formatting.date(None, "fr") == formatting.date("not a date", "es") == "—"


def test_lists_in_each_language():
    items = ["CPU x86_64", "NVIDIA H200 (CUDA)", "AMD Radeon VII (ROCm, gfx906)"]
    assert formatting.join(items, "es") == "CPU x86_64, NVIDIA H200 (CUDA) y AMD Radeon VII (ROCm, gfx906)"
    assert formatting.join(items[:2], "fr") == "CPU x86_64 et NVIDIA H200 (CUDA)"
    assert formatting.join(items, "en") == "CPU x86_64, NVIDIA H200 (CUDA) and AMD Radeon VII (ROCm, gfx906)"
    assert formatting.join(["gfx906", "gfx1102"], "es", "or") == "gfx906 o gfx1102"


# -- requirement terms -------------------------------------------------------------------------------------------
_EXAMPLES = {"arch": "arch=gfx906,gfx1102", "os": "os=linux,windows", "import": "import=tensorflow,keras",
             "vram": "vram>=8GiB", "python": "python>=3.10", "torch": "torch>=2.9", "tool": "tool=roc-obj-ls,rocminfo"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_term_of_the_vocabulary_has_words(lang):
    for name in KNOWN:
        term = parse(_EXAMPLES.get(name, name))[0]
        label, phrase = reasons.requirement_label(term, lang), reasons.requirement_phrase(term, lang)
        assert label and phrase and "{" not in label + phrase, (name, label, phrase)


def test_terms_read_natively():
    terms = parse("gpu cpu network arch=gfx906,gfx1102 os=linux,windows import=tensorflow,keras vram>=8GiB python>=3.10")
    assert [reasons.requirement_label(t, "fr") for t in terms] == [
        "GPU", "CPU seul", "Accès au réseau", "gfx906 / gfx1102", "Linux / Windows", "tensorflow + keras",
        f"VRAM ≥{NB}8{NB}Gio", f"Python ≥{NB}3.10"]
    assert reasons.needs(terms, "es") == (
        "requiere una GPU, una máquina sin GPU, acceso a la red, una GPU gfx906 o gfx1102, Linux o Windows, "
        f"los módulos tensorflow y keras, al menos 8{NB}GiB de VRAM y Python 3.10 o posterior")
    assert reasons.needs(parse("import=accelerate"), "en") == "needs the accelerate module"
    assert reasons.needs(parse("import=accelerate"), "fr") == "nécessite le module accelerate"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_badges_in_words_start_with_a_capital_in_every_language(lang):
    """A badge that is words (not a name: ``gfx906``, ``roc-obj-ls``) is capitalised alike in every language."""
    for spec in ("gpu", "rocm", "cuda", "cpu", "network", "hipcc", "hipcc arch=gfx906"):
        label = reasons.requirement_label(parse(spec)[0], lang)
        assert label[0].isupper(), (lang, spec, label)


def test_the_hip_compiler_term():
    """``hipcc`` alone, and with the targets it must build for (``hipcc arch=gfx906``)."""
    assert reasons.requirement_label(Requirement("hipcc"), "es") == "Compilador HIP (hipcc)"
    assert reasons.requirement_label(Requirement("hipcc", ("gfx906",)), "fr") == "Compilateur HIP (hipcc) pour gfx906"
    assert reasons.requirement_phrase(Requirement("hipcc", ("gfx906",)), "en") == "a HIP compiler (hipcc) that can build for gfx906"
    assert reasons.requirement_phrase(Requirement("hipcc"), "es") == "un compilador HIP (hipcc)"
    # several targets: the block builds for all of them
    assert reasons.requirement_phrase(Requirement("hipcc", ("gfx906", "gfx1030")), "es") == \
        "un compilador HIP (hipcc) capaz de compilar para gfx906 y gfx1030"


def test_the_programs_term():
    assert reasons.requirement_label(Requirement("tool", ("roc-obj-ls",)), "fr") == "roc-obj-ls"
    assert reasons.needs(parse("tool=roc-obj-ls,rocminfo"), "fr") == "nécessite les programmes roc-obj-ls et rocminfo"


@dataclass
class _Block:
    """What the page's fragments read of a block (the engine's own block has more)."""

    kind: str = "python"
    requirements: tuple = ()
    options: dict = field(default_factory=dict)

    @property
    def not_run_reason(self) -> str | None:
        return str(self.options.get("reason") or "") if self.options.get("skip") else None


def _block(requires: str = "", kind: str = "python", **options) -> _Block:
    return _Block(kind, parse(requires) if requires else (), options)


@pytest.mark.parametrize(("requires", "device", "lang", "expected"), [
    ("rocm arch=gfx906 vram>=8GiB", CPU, "es", f"requiere ROCm, una GPU gfx906 y al menos 8{NB}GiB de VRAM"),
    ("rocm arch=gfx906 vram>=8GiB", H200, "fr", "nécessite ROCm et un GPU gfx906"),
    ("gpu import=accelerate", CPU, "en", "needs a GPU and the accelerate module"),
    ("network", CPU, "fr", "nécessite un accès au réseau"),
    ("os=windows", CPU, "es", "requiere Windows"),
])
def test_skip_reasons_from_the_engine_said_in_the_readers_language(requires, device, lang, expected, monkeypatch):
    monkeypatch.delenv("RUOTA_DOCS_NETWORK", raising=False)
    block = _block(requires)
    reason = unmet_reason(block.requirements, device)  # the engine's own English, as recorded
    assert reason.startswith("requires ")
    assert reasons.localised_reason(block, reason, lang) == expected


def test_a_windows_block_skipped_elsewhere():
    block = _block(kind="windows")
    assert reasons.localised_reason(block, "requires Windows; this machine: Linux", "fr") == "nécessite Windows"


# -- the engine's messages ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def engine_messages():
    """What the engine really records when a block times out, kills its process or a shell fails:
    each reason's English, and its code under ``code:NAME``."""
    said = {}

    def keep(name: str, outcome) -> None:
        said[name], said[f"code:{name}"] = outcome.reason, outcome.code.to_record()

    session = PageSession("es/p.md")
    try:
        keep("timeout", session.run_python("import time\ntime.sleep(30)\n", "es/p.md:3", 3, timeout=0.5))
        keep("dead", session.run_python("print(1)\n", "es/p.md:9", 9, timeout=5))
    finally:
        session.close()
    session = PageSession("es/p.md")
    try:
        keep("killed", session.run_python("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", "es/p.md:3", 3, timeout=20))
    finally:
        session.close()
    session = PageSession("es/p.md")
    try:
        keep("shell", session.run_shell("exit 3", timeout=20))
    finally:
        session.close()
    said["wrote"] = repository_note(["docs/es/x.md (created)"])
    said["code:wrote"] = reason_codes.reason("repository_changed", files=["docs/es/x.md (created)"], records=[], notes=[],
                                             also=None).to_record()
    return said


def test_engine_messages_are_translated(engine_messages):
    m = engine_messages
    assert m["timeout"] == "timed out after 0.5 s"  # the engine's wording, which the patterns follow
    assert reasons.engine_message(m["timeout"], "es") == f"superó el tiempo límite de 0,5{NB}s"
    assert reasons.engine_message(m["dead"], "fr") == (
        f"un bloc précédent, à la ligne 3, a mis fin au processus de la page (délai de 0,5{NB}s dépassé)")
    assert reasons.engine_message(m["dead"], "en") == "an earlier block, at line 3, ended the page's process (timed out after 0.5\u00a0s)"
    assert reasons.engine_message(m["killed"], "es") == "el proceso de la página terminó de forma inesperada (señal SIGKILL)"
    assert reasons.engine_message(m["shell"], "fr") == "le bloc shell s'est terminé sur une erreur (code de sortie 3)"
    assert reasons.engine_message(m["wrote"], "es") == (
        "escribió en el repositorio en vez de en su directorio de trabajo: docs/es/x.md (created)")


@pytest.mark.parametrize(("reason", "lang", "expected"), [
    ("not run: instala paquetes del sistema", "es", "instala paquetes del sistema"),  # the author's own words
    ("not run: installe des paquets système", "fr", "installe des paquets système"),
    ("not run: output or prose, not code", "fr", "sortie ou prose, pas du code"),
    ("not run: an indented code block has no language; readers see it as text", "es",
     "un bloque de código sangrado no tiene lenguaje; los lectores lo ven como texto"),
    ("not run: installs packages", "en", "installs packages"),
])
def test_a_block_never_run_is_said_without_the_engines_english_prefix(reason, lang, expected):
    assert reasons.localised_reason(_block(), reason, lang) == expected
    verdict = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", reason))])
    shown = _words(fragments.mark(_block(), verdict, lang))
    assert expected in shown and "not run" not in shown


@pytest.mark.parametrize(("code", "lang", "expected"), [
    ({"code": "not_run", "args": {"why": "instala paquetes del sistema"}}, "es", "instala paquetes del sistema"),
    ({"code": "shown_only", "args": {"kind": "text"}}, "fr", "sortie ou prose, pas du code"),
    ({"code": "page_stopped", "args": {"cause": {"code": "cannot_start_as_user", "args": {}}}}, "en",
     "the page's process cannot start as the unprivileged user"),
])
def test_a_block_never_run_is_said_from_its_code(code, lang, expected):
    entry = _entry("skipped", reason_codes.Reason.from_record(code).english(), reason_code=code)
    assert reasons.reason_text(_block(), entry, lang) == expected


@pytest.mark.parametrize("name", ["timeout", "dead", "killed", "shell", "wrote"])
@pytest.mark.parametrize("lang", ["es", "en", "fr"])
def test_reason_codes_are_said_as_the_old_records_english_is(engine_messages, name, lang):
    code = engine_messages[f"code:{name}"]
    assert reason_codes.Reason.from_record(code).english() == engine_messages[name]
    assert reasons.render(code, lang) == reasons.engine_message(engine_messages[name], lang) is not None


def test_a_skip_is_said_from_its_code_not_its_english():
    block = _block("rocm")
    code = reason_codes.reason("requires", terms=["rocm"], machine=["CUDA, NVIDIA H200"]).to_record()
    # the English is not read when the code is there: a code says what the text may not
    entry = _entry("skipped", "whatever the text says", reason_code=code)
    assert reasons.reason_text(block, entry, "fr") == "nécessite ROCm"
    stopped = reason_codes.reason("page_stopped", cause={"code": "page_ended", "args": {
        "line": 3, "why": {"code": "died", "args": {"ended": {"signal": "SIGKILL"}}}}})
    assert reasons.reason_text(block, _entry("skipped", stopped.english(), reason_code=stopped.to_record()), "en") == (
        "an earlier block, at line 3, ended the page's process (the page's process died (signal SIGKILL))")


def test_a_code_without_words_of_its_own_is_shown_as_recorded():
    code = reason_codes.reason("raised", message="ZeroDivisionError: division by zero")
    entry = _entry("failed", code.english(), reason_code=code.to_record(), error="Traceback …\nZeroDivisionError: division by zero")
    assert reasons.engine_failure(entry, "fr") is None
    assert reasons.reason_text(_block(), entry, "es") == "ZeroDivisionError: division by zero"
    assert reasons.error_text(entry, "es") == entry["error"]


def test_a_message_that_is_not_the_engines_is_shown_as_recorded():
    assert reasons.engine_message("ZeroDivisionError: division by zero", "fr") is None
    assert reasons.localised_reason(_block(), "valid yaml", "es") == "valid yaml"


# -- what the page shows ----------------------------------------------------------------------------------------
def _entry(outcome: str, reason: str | None = None, **extra) -> dict:
    return {"page": "es/p.md", "index": 0, "sha256": "x", "outcome": outcome, "reason": reason, "error": extra.pop("error", None),
            "duration": 2.5, "output": "", "ran_at": "2026-12-01T10:00:00Z", "reused_from": None} | extra


def _words(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


def test_a_skip_after_a_dead_process_is_said_in_the_readers_language(engine_messages):
    verdict = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", engine_messages["dead"]))])
    shown = _words(fragments.mark(_block(), verdict, "es"))
    assert "Sin ejecutar en CPU x86_64: un bloque anterior, en la línea 3, acabó con el proceso de la página" in shown
    assert "not run" not in shown and "timed out" not in shown


def test_a_failure_the_engine_explains_is_said_under_the_block(engine_messages):
    failed = _entry("error", engine_messages["timeout"], error=engine_messages["timeout"])
    verdict = Verdict([MachineResult("cpu", "CPU x86_64", "failed", failed), MachineResult("h200", "NVIDIA H200 (CUDA)", "failed", failed)])
    shown = fragments.block_panel(_block(), verdict, "fr", "0")
    assert (f"Échec sur CPU x86_64 et NVIDIA H200 (CUDA), la dernière fois le 1er décembre 2026 : délai de 0,5{NB}s dépassé"
            in _words(shown))
    assert "timed out" not in shown


def test_machines_with_the_same_need_share_one_line():
    block = _block("rocm")
    verdict = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", unmet_reason(block.requirements, CPU))),
                       MachineResult("h200", "NVIDIA H200 (CUDA)", "skipped", _entry("skipped", unmet_reason(block.requirements, H200)))])
    assert fragments.mark(block, verdict, "es").count("<li") == 1
    assert "Sin ejecutar en CPU x86_64 y NVIDIA H200 (CUDA): requiere ROCm" in fragments.mark(block, verdict, "es")


def test_summary_line_with_singulars():
    passed = Verdict([MachineResult("cpu", "CPU x86_64", "passed", _entry("passed"))])
    skipped = Verdict([MachineResult("cpu", "CPU x86_64", "skipped", _entry("skipped", "requires ROCm"))])
    line = _words(fragments.page_summary([(_block(), passed), (_block("rocm"), skipped)], "fr"))
    assert ("Vérifié sur 1 machine : 1 bloc de code sur 2 ; dernière exécution : 1er décembre 2026. "
            "1 bloc demande un matériel ou un accès qu'aucune machine n'avait : le détail figure sous le bloc.") in line


def test_chart_series_names_units_and_headers():
    entries = [({"backend": "cpu", "machine": "x86_64"},
                [{"outcome": "passed", "output": "peak_a: 1081.4\npeak_b: 67.2\n"}])]
    options = {"metrics": "peak_a,peak_b", "unit": "MiB", "title": "Pic de mémoire", "labels": "sans découpage; découpé"}
    shown = fragments.chart(options, entries, "fr")
    assert "<th>Machine</th><th>Provenance</th><th>sans découpage (Mio)</th><th>découpé (Mio)</th>" in shown
    assert f">1\u202f081,4{NB}Mio</text>" in shown
    # the machine heads its series, each series named in full
    assert re.findall(r'class="ruota-chart-(group|label)">([^<]*)</text>', shown) == [
        ("group", "CPU x86_64"), ("label", "sans découpage"), ("label", "découpé")]
    with pytest.raises(ValueError, match="labels= names 1 series but metrics= has 2"):
        fragments.chart(options | {"labels": "un seul"}, entries, "fr")
    empty = fragments.chart(options | {"labels": "sin trocear; troceado"}, [], "es")
    assert "Ninguna máquina ha registrado todavía sin trocear y troceado." in empty
    single = fragments.chart({"metrics": "peak_a", "unit": "MiB", "title": "Pico"}, entries, "es")
    assert "<th>Valor (MiB)</th>" in single and f">1081,4{NB}MiB</text>" in single


def test_status_counts_say_what_they_count():
    verdicts = [(_block(), Verdict([MachineResult("cpu", "CPU x86_64", s, None)])) for s in ("passed", "passed", "skipped", "absent")]
    ledger = {"machine_id": "cpu", "machine": {"backend": "cpu", "machine": "x86_64", "os": "linux"}, "updated": "2026-12-01T10:00:00Z"}
    shown = fragments.status_page([("Inicio", "./", verdicts)], [ledger], "es")
    assert 'title="2 bloques correctos"' in shown and '<span class="ruota-sr-only">2 bloques correctos</span>' in shown
    assert '<span class="ruota-sr-only">1 bloque omitido</span>' in shown
    assert '<span class="ruota-sr-only">1 bloque sin verificar</span>' in shown
    assert "<td>CPU</td>" in shown and "Linux x86_64" in shown and "1 dic 2026" in shown
