"""A machine as running text names it: "an x86-64 CPU", "an NVIDIA H100", "una CPU x86-64".

Records keep the exact label (`Machine.label`: ``CPU x86_64``, ``NVIDIA H100 80GB HBM3 (CUDA)``);
tabs, charts and tables show it (`label`, `target_label`) with a CPU named as the marks name it
("x86-64 CPU", "CPU x86-64"), so that the reader meets one name per machine; a sentence says what a
writer would: the card's model without its memory and packaging ("NVIDIA H100"), the CPU
architecture as prose spells it ("x86-64"), with the article and word order of the reader's language.
"""

from __future__ import annotations

import re

from ruota_docs.records.schema import Machine
from ruota_docs.records.verdicts import MachineResult
from ruota_docs.site.locales import text

#: CPU architectures as prose writes them (``uname -m`` → the name in sentences).
_ARCHES = {"x86_64": "x86-64", "amd64": "x86-64", "aarch64": "AArch64", "arm64": "Arm64", "i686": "x86"}
#: What follows the model in a GPU's device string: its memory size, memory type, form factor.
_GPU_TAIL = re.compile(r"\s+(?:\d+\s*[GM]B\b|HBM\d\w*|PCIe\b|SXM\d*\b|NVL\b).*$", re.I)
#: Letters whose names begin with a vowel sound, for an initialism ("an NVIDIA", "an H100", "an x86").
_VOWEL_LETTERS = frozenset("AEFHILMNORSX")


def gpu_model(name: str) -> str:
    """``NVIDIA H100 80GB HBM3`` → ``NVIDIA H100``; a name without such a tail is kept whole."""
    return _GPU_TAIL.sub("", name).strip() or name


def article_an(word: str) -> str:
    """English's indefinite article before ``word``: ``an`` before a vowel sound, spelled or read as letters."""
    head = re.match(r"[A-Za-z]+\d*", word)
    if head is None:
        return "a"
    token = head[0]
    spelled = token.isupper() or re.match(r"x\d", token) is not None  # "NVIDIA", "H100", "x86" read as letters
    if spelled:
        return "an" if token[0].upper() in _VOWEL_LETTERS else "a"
    return "an" if token[0].lower() in "aeiou" else "a"


def _kind_and_fields(machine: Machine) -> tuple[str, dict[str, str]] | None:
    if machine.gpu_name:
        gpu = gpu_model(machine.gpu_name)  # the model says the card; the tabs and tables give its target
        return "gpu", {"gpu": gpu, "an": article_an(gpu)}
    if machine.machine and machine.backend in ("cpu", ""):
        arch = _ARCHES.get(machine.machine, machine.machine)
        return "cpu", {"arch": arch, "an": article_an(arch)}
    return None


def arch(machine: str) -> str:
    """A CPU architecture as prose and labels spell it: ``x86_64`` → ``x86-64``; one not known as written."""
    return _ARCHES.get(machine, machine)


def cpu_label(arch: str, lang: str) -> str:
    """A CPU as labels name it in ``lang``: ``x86_64`` → "x86-64 CPU", "CPU x86-64"."""
    return text(lang, "machine_name_cpu", arch=_ARCHES.get(arch, arch))


def machine_label(machine: Machine, lang: str, fallback: str = "") -> str:
    """``machine`` as a tab, a chart or a table labels it, by the one name the marks give it: a card by its
    model ("NVIDIA H100", never ``NVIDIA H100 80GB HBM3 (CUDA)``: the status page's machine table lists the
    hardware), a CPU by its architecture ("x86-64 CPU"), never the identifier ``x86_64``. ``fallback``: the
    label of a machine not known."""
    found = _kind_and_fields(machine)
    if found is not None:
        return text(lang, f"machine_name_{found[0]}", **found[1])
    return fallback or machine.label


def label(result: MachineResult, lang: str) -> str:
    """`machine_label` of the machine of ``result``; a result whose machine is not known keeps its label."""
    return machine_label(result.machine, lang, result.label)


def name(result: MachineResult, lang: str, form: str = "a") -> str:
    """How a sentence names the machine of ``result``: ``form`` is ``name`` (bare: "x86-64 CPU", in a
    parenthesis), ``a`` (with its article: "an x86-64 CPU") or ``machine`` (the machine rather than
    its chip: "an x86-64 CPU machine", where a sentence would otherwise say the chip did the work).
    A result whose machine is not known keeps its label."""
    found = _kind_and_fields(result.machine)
    if found is None:
        return result.label
    kind, fields = found
    return text(lang, f"machine_{form}_{kind}", **fields)
