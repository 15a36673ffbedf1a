"""site.reasons: requirement terms and the engine's reason codes said in the reader's language."""

from __future__ import annotations

import pytest

from _support import CPU_DEVICE as CPU
from _support import H200
from _support import fragment_block as _block
from _support import ledger_entry as _entry
from ruota_docs.blocks.terms import KNOWN, Requirement, parse
from ruota_docs.records import reason_codes
from ruota_docs.run.conditions import unmet
from ruota_docs.site import reasons

NB = "\u00a0"


LANGUAGES = ("es", "fr", "en")


# -- requirement terms -------------------------------------------------------------------------------------------
_EXAMPLES = {"arch": "arch=gfx906,gfx1102", "os": "os=linux,windows", "import": "import=tensorflow,keras",
             "vram": "vram>=8GiB", "python": "python>=3.10", "torch": "torch>=2.9", "tool": "tool=roc-obj-ls,rocminfo",
             "triton": "triton>=3.9"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_term_of_the_vocabulary_has_words(lang):
    for name in KNOWN:
        term = parse(_EXAMPLES.get(name, name))[0]
        label, phrase = reasons.requirement_label(term, lang), reasons.requirement_phrase(term, lang)
        assert label and phrase and "{" not in label + phrase, (name, label, phrase)


def test_terms_read_natively():
    terms = parse("gpu cpu network arch=gfx906,gfx1102 os=linux,windows import=tensorflow,keras vram>=8GiB python>=3.10")
    assert [reasons.requirement_label(t, "fr") for t in terms] == [
        "GPU", "CPU seul", "Accès au réseau", "gfx906 / gfx1102", "Linux / Windows", "TensorFlow et Keras",
        f"VRAM ≥{NB}8{NB}Gio", f"Python ≥{NB}3.10"]
    assert reasons.needs(terms, "es") == (
        "requiere una GPU, una máquina sin GPU, acceso a la red, una GPU gfx906 o gfx1102, Linux o Windows, "
        f"al menos 8{NB}GiB de VRAM y Python 3.10 o posterior, además de los módulos tensorflow y keras")
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
    assert reasons.requirement_label(Requirement("tool", ("roc-obj-ls",)), "fr") == "Programme roc-obj-ls"
    assert reasons.needs(parse("tool=roc-obj-ls,rocminfo"), "fr") == "nécessite les programmes roc-obj-ls et rocminfo"
    # English badges name the command alone, as the module badges do; the mark says "program"
    assert reasons.requirement_label(Requirement("tool", ("roc-obj-ls", "rocminfo")), "en") == "roc-obj-ls and rocminfo"
    assert reasons.needs(parse("tool=roc-obj-ls"), "en") == "needs the roc-obj-ls program"
    # either of two programs: one program, named in the page's language
    assert reasons.needs(parse("tool=llvm-readobj|roc-obj-ls"), "en") == "needs the llvm-readobj or roc-obj-ls program"
    assert reasons.needs(parse("tool=llvm-readobj|roc-obj-ls"), "es") == "requiere el programa llvm-readobj o roc-obj-ls"
    assert reasons.needs(parse("tool=llvm-readobj|roc-obj-ls"), "fr") == "nécessite le programme llvm-readobj ou roc-obj-ls"
    assert reasons.requirement_label(parse("tool=llvm-readobj|roc-obj-ls")[0], "fr") == "Programme llvm-readobj ou roc-obj-ls"


@pytest.mark.parametrize(("requires", "device", "lang", "expected"), [
    ("rocm arch=gfx906 vram>=8GiB", CPU, "es", f"requiere ROCm, una GPU gfx906 y al menos 8{NB}GiB de VRAM"),
    ("rocm arch=gfx906 vram>=8GiB", H200, "fr", "nécessite ROCm et un GPU gfx906"),
    # a module no environment has: the reason names it whatever this machine installed
    ("gpu import=no_such_module", CPU, "en", "needs a GPU and the no_such_module module"),
    ("network", CPU, "fr", "nécessite un accès au réseau"),
    ("os=windows", CPU, "es", "requiere Windows"),
])
def test_skip_reasons_from_the_engine_said_in_the_readers_language(requires, device, lang, expected, monkeypatch):
    monkeypatch.delenv("RUOTA_DOCS_NETWORK", raising=False)
    block = _block(requires)
    code = unmet(block.requirements, device)  # what the engine records
    assert code.english().startswith("requires ")
    assert reasons.reason_text(_entry("skipped", code.english(), reason_code=code.to_record()), lang) == expected


def test_engine_messages_are_translated(engine_messages):
    m = engine_messages
    assert m["timeout"] == "timed out after 0.5 s"  # the engine's own English, recorded beside its code
    assert reasons.render(m["code:timeout"], "es") == f"superó el tiempo límite de 0,5{NB}s"
    assert reasons.render(m["code:dead"], "fr") == (
        f"un bloc précédent, à la ligne 3, a mis fin au processus de la page (délai de 0,5{NB}s dépassé)")
    assert reasons.render(m["code:dead"], "en") == "an earlier block, at line 3, ended the page’s process (timed out after 0.5\u00a0s)"
    assert reasons.render(m["code:killed"], "es") == "el proceso de la página terminó de forma inesperada (señal SIGKILL)"
    assert reasons.render(m["code:shell"], "fr") == "le bloc shell s'est terminé sur une erreur (code de sortie 3)"
    assert reasons.render(m["code:wrote"], "es") == (
        "escribió en el repositorio en vez de en su directorio de trabajo: docs/es/x.md (created)")


@pytest.mark.parametrize(("code", "lang", "expected"), [
    ({"code": "not_run", "args": {"why": "instala paquetes del sistema"}}, "es", "instala paquetes del sistema"),
    ({"code": "shown_only", "args": {"kind": "text"}}, "fr", "sortie ou prose, pas du code"),
    ({"code": "page_stopped", "args": {"cause": {"code": "cannot_start_as_user", "args": {}}}}, "en",
     "the page's process cannot start as the unprivileged user"),
])
def test_a_block_never_run_is_said_from_its_code(code, lang, expected):
    entry = _entry("skipped", reason_codes.Reason.from_record(code).english(), reason_code=code)
    assert reasons.reason_text(entry, lang) == expected


@pytest.mark.parametrize("name", ["timeout", "dead", "killed", "shell", "wrote"])
@pytest.mark.parametrize("lang", ["es", "en", "fr"])
def test_every_engine_reason_has_words_in_every_language(engine_messages, name, lang):
    code = engine_messages[f"code:{name}"]
    assert reason_codes.Reason.from_record(code).english() == engine_messages[name]
    said = reasons.render(code, lang)
    assert said and "{" not in said and (lang == "en" or said != engine_messages[name])


def test_a_skip_is_said_from_its_code_not_its_english():
    code = reason_codes.reason("requires", terms=["rocm"], machine=["CUDA, NVIDIA H200"]).to_record()
    # the English is not read when the code is there: a code says what the text may not
    entry = _entry("skipped", "whatever the text says", reason_code=code)
    assert reasons.reason_text(entry, "fr") == "nécessite ROCm"
    stopped = reason_codes.reason("page_stopped", cause={"code": "page_ended", "args": {
        "line": 3, "why": {"code": "died", "args": {"ended": {"signal": "SIGKILL"}}}}})
    assert reasons.reason_text(_entry("skipped", stopped.english(), reason_code=stopped.to_record()), "en") == (
        "an earlier block, at line 3, ended the page’s process (the page’s process died (signal SIGKILL))")


def test_a_code_without_words_of_its_own_is_shown_as_recorded():
    code = reason_codes.reason("raised", message="ZeroDivisionError: division by zero")
    entry = _entry("failed", code.english(), reason_code=code.to_record(), error="Traceback …\nZeroDivisionError: division by zero")
    assert reasons.engine_failure(entry, "fr") is None
    assert reasons.reason_text(entry, "es") == "ZeroDivisionError: division by zero"
    assert reasons.error_text(entry, "es") == entry.error


def test_a_reason_without_a_code_is_shown_as_recorded():
    assert reasons.reason_text(_entry("skipped", "valid yaml"), "es") == "valid yaml"
    assert reasons.engine_failure(_entry("failed", "ZeroDivisionError: division by zero"), "fr") is None
    assert reasons.reason_text(None, "es") == ""




def test_an_authors_reason_gets_the_apostrophes_of_the_site_english():
    """A reason= is typed with a straight apostrophe; the English pages write theirs curly, the French keep theirs."""
    assert reasons.author_reason("changes your user's groups and the site's pages", "en") == \
        "changes your user’s groups and the site’s pages"
    assert reasons.author_reason("modifie l'environnement", "fr") == "modifie l'environnement"
    assert reasons.author_reason("prints 'x'", "en") == "prints 'x'"  # a quote around a word is not an apostrophe


def test_several_requirements_read_as_one_list():
    """The short ones first, so that a long one (hipcc and its targets) ends the sentence; where one
    holds an "and" of its own, the last is joined so that no reader takes it for one list."""
    assert reasons.needs(parse("hipcc arch=gfx906 tool=roc-obj-ls"), "en") == \
        "needs the roc-obj-ls program and a HIP compiler (hipcc) that can build for gfx906"
    assert reasons.needs(parse("network import=tensorflow,tensorflow_datasets"), "en") == \
        "needs network access, as well as the tensorflow and tensorflow_datasets modules"
    assert reasons.needs(parse("network import=tensorflow,tensorflow_datasets"), "fr") == \
        "nécessite un accès au réseau, ainsi que les modules tensorflow et tensorflow_datasets"
    assert reasons.needs(parse("rocm arch=gfx906"), "es") == "requiere ROCm y una GPU gfx906"
