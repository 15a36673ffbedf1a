"""The requirement vocabulary of ``<!-- requires: … -->`` directives.

A directive is a space-separated list of terms, and a block runs only where every term
holds. The terms are:

| Term | Holds when |
| --- | --- |
| `gpu` | PyTorch can use a GPU (ROCm or CUDA) |
| `rocm` | PyTorch runs on ROCm (`torch.version.hip` set, and a GPU visible) |
| `cuda` | PyTorch runs on CUDA (an NVIDIA GPU visible) |
| `cpu` | no GPU is visible (for blocks that show CPU behaviour) |
| `arch=A[,B…]` | the GPU target is one of these (`gfx906`, `gfx1102`, `sm_90`) |
| `hipcc` | a HIP compiler is installed and works: it builds for at least one gfx target |
| `hipcc arch=A[,B…]` | `hipcc` can build for every listed gfx target (for example `gfx906`), with or without a GPU |
| `tool=P[,Q…]` | these programs are installed (on `PATH`, or in `bin` or `llvm/bin` of `$ROCM_PATH` or `/opt/rocm`) |
| `tool=P|Q` | either of these programs is installed |
| `vram>=N` | the first GPU has at least N of memory (`8GiB`, `512MiB`) |
| `os=O[,P…]` | the operating system is one of `linux`, `windows`, `macos` |
| `import=M[,N…]` | these modules are installed (checked without importing them) |
| `network` | the run allows network access (`pytest --network` or `RUOTA_DOCS_NETWORK=1`) |
| `rocm_library` | a ROCm library is installed (torch's `libtorch_hip.so`, `librocblas`, `librocrand1`) |
| `python>=X.Y` | the Python version is at least X.Y |
| `torch>=X.Y` | torch is installed, at least version X.Y |
| `triton>=X.Y` | Triton is installed (``triton``, or ``pytorch-triton-rocm`` from ROCm builds of torch), at least X.Y |

Written right after ``hipcc``, ``arch=`` qualifies the compiler: ``hipcc arch=gfx906`` means
that ``hipcc`` can build for gfx906, even on a machine with no GPU. Anywhere else, ``arch=`` is the
GPU's target (``rocm arch=gfx906``), and ``rocm arch=gfx906 hipcc arch=gfx906`` asks for both.
This module only parses the terms. Whether a term holds on this machine is decided in
`ruota_docs.run.conditions`.

An unknown term or a malformed value raises `RequirementError`. It is never ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

#: ROCm's own programs: a block that needs one of them (``tool=rocminfo``) needs ROCm's userland.
ROCM_PROGRAMS = ("hipcc", "hipconfig", "rocminfo", "rocm_agent_enumerator", "roc-obj", "roc-obj-ls",
                 "roc-obj-extract", "rocm-smi", "amd-smi")
OS_NAMES = ("linux", "windows", "macos")
#: How skip reasons and badges write each operating system.
OS_LABELS = {"linux": "Linux", "windows": "Windows", "macos": "macOS"}
_UNITS = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
_TERM = re.compile(r"^(?P<name>[a-z_]+)(?:(?P<op>>=|=)(?P<value>\S+))?$")
#: An LLVM AMDGPU processor (gfx906, gfx90a, gfx1102, gfx11-generic), features allowed after ``:``.
_GFX = re.compile(r"gfx(?:\d{1,2}[0-9a-f]{2}|\d{1,2}(?:-\d)?-generic)(?::(?:sramecc|xnack)[+-])*")
_CUDA_ARCH = re.compile(r"sm_\d{2,3}[a-z]?")
_PROGRAM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")

#: How a term is written: ``gpu``; ``os=linux,windows``; ``vram>=8GiB``; ``hipcc`` or ``hipcc arch=gfx906``.
FLAG, CHOICE, MINIMUM, QUALIFIED = "flag", "choice", "minimum", "qualified"


class RequirementError(ValueError):
    """A requirement directive that cannot be understood."""


@dataclass(frozen=True)
class Written:
    """One term exactly as written in the directive, kept so that the term's check can validate its values."""

    token: str  #: the term as written (``arch=gfx906``)
    value: str  #: what follows ``=`` or ``>=``
    values: tuple[str, ...]  #: the value split at commas
    following: str | None  #: the next token of the directive (to explain ``arch=gfx 906``)


@dataclass(frozen=True)
class Term:
    """A term of the requirement vocabulary (``gpu``, ``arch=``, ``vram>=``…): how it is written and what it means.

    Whether it holds on a machine is decided by the check registered under the same name in
    `ruota_docs.run.conditions`. What readers see is in the site's strings, under
    ``term.<key>`` (the badge) and ``needs.<key>`` (the skip reason).
    """

    name: str
    form: str  #: FLAG, CHOICE, MINIMUM or QUALIFIED (see above)
    words: Callable[[tuple[str, ...]], str]  #: English for skip reasons, from the term's values
    check: Callable[[Written], None] | None = None  #: raises RequirementError for a malformed value
    key: str = ""  #: the strings' key; the name where empty
    qualified_key: str = ""  #: the strings' key where the term carries values (``hipcc arch=``)
    value_label: Callable[[str], str] | None = None  #: how badges and reasons write one value

    def strings_key(self, values: tuple[str, ...]) -> str:
        """The key under which the site's strings hold this term's badge and skip reason, for the given ``values``."""
        return (self.qualified_key if values and self.qualified_key else "") or self.key or self.name


def parse_size(text: str) -> int:
    """The number of bytes in a size written like ``8GiB``. Any other form raises `RequirementError`.

    Examples:
        >>> parse_size("8GiB")
        8589934592
        >>> parse_size("1.5MiB")
        1572864
    """
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(KiB|MiB|GiB|TiB)", text)
    if not match:
        raise RequirementError(f"malformed size {text!r}: write a number and a unit, e.g. 8GiB or 512MiB")
    return int(float(match[1]) * _UNITS[match[2]])


def version_of(text: str) -> tuple[int, ...]:
    """The tuple that requirement terms compare, such as ``(2, 9)`` for ``2.9``.

    Text that is not a version written in digits and dots raises `RequirementError`."""
    if not re.fullmatch(r"\d+(\.\d+)*", text):
        raise RequirementError(f"malformed version {text!r}: write digits and dots, e.g. 2.9")
    return tuple(int(p) for p in text.split("."))


def _check_targets(values: tuple[str, ...], token: str, following: str | None, for_hipcc: bool) -> None:
    """gfx targets for hipcc (features such as ``:xnack-`` allowed); for the GPU, a gfx target
    without features (the probe strips them) or a CUDA compute capability."""
    for value in values:
        gfx_target = _GFX.fullmatch(value) and (for_hipcc or ":" not in value)
        if gfx_target or (not for_hipcc and _CUDA_ARCH.fullmatch(value)):
            continue
        if value == "gfx" and following and following.isdigit():
            raise RequirementError(f"malformed target in {token!r}: write it without a space, gfx{following}")
        if _GFX.fullmatch(value):
            raise RequirementError(f"the GPU's target is compared without features: write {value.split(':')[0]} "
                                   f"(got {token!r})")
        if for_hipcc:
            raise RequirementError(f"malformed gfx target {value!r} in {token!r}: write gfx and its number, "
                                   "e.g. hipcc arch=gfx906 or hipcc arch=gfx1030,gfx1102")
        raise RequirementError(f"malformed target {value!r} in {token!r}: write a gfx target (gfx906, gfx90a, gfx1102) "
                               "or a CUDA compute capability (sm_90)")


def gfx_target(value: str) -> bool:
    """Whether ``value`` is an LLVM AMDGPU processor name without target features
    (``gfx1102``, not ``gfx90a:xnack+``)."""
    return bool(_GFX.fullmatch(value)) and ":" not in value


def _known_os(written: Written) -> None:
    if bad := [v for v in written.values if v not in OS_NAMES]:
        raise RequirementError(f"unknown os {bad[0]!r}; known: {', '.join(OS_NAMES)}")


def alternatives(value: str) -> tuple[str, ...]:
    """The programs a ``tool=`` value accepts: ``llvm-readobj|roc-obj-ls`` is met by either."""
    return tuple(value.split("|"))


def _program_names(written: Written) -> None:
    if bad := [a for v in written.values for a in alternatives(v) if not _PROGRAM.fullmatch(a)]:
        raise RequirementError(f"malformed program name {bad[0]!r} in {written.token!r}: write the file name, "
                               "e.g. tool=roc-obj-ls")


def _hipcc_words(values: tuple[str, ...]) -> str:
    return f"hipcc able to build for {' and '.join(values)}" if values else "a working hipcc"


#: Every term, in the order error messages list them. A new term is added here, with its check in
#: `ruota_docs.run.conditions.CHECKS` and its strings in the site's locales (tests hold all three).
TERMS: dict[str, Term] = {term.name: term for term in (
    Term("gpu", FLAG, lambda values: "a GPU"),
    Term("rocm", FLAG, lambda values: "ROCm"),
    Term("cuda", FLAG, lambda values: "CUDA"),
    Term("cpu", FLAG, lambda values: "no GPU"),
    Term("network", FLAG, lambda values: "network access"),
    Term("rocm_library", FLAG, lambda values: "a ROCm library"),
    Term("hipcc", QUALIFIED, _hipcc_words, qualified_key="hipcc_arch"),
    Term("arch", CHOICE, lambda values: "arch " + " or ".join(values),
         check=lambda w: _check_targets(w.values, w.token, w.following, for_hipcc=False)),
    Term("os", CHOICE, lambda values: " or ".join(OS_LABELS[v] for v in values), check=_known_os,
         value_label=lambda v: OS_LABELS.get(v, v)),
    Term("import", CHOICE, lambda values: "installed " + ", ".join(values)),
    Term("tool", CHOICE, lambda values: " and ".join(" or ".join(alternatives(v)) for v in values),
         check=_program_names),
    Term("vram", MINIMUM, lambda values: f"≥ {values[0]} of VRAM", check=lambda w: parse_size(w.value)),
    Term("python", MINIMUM, lambda values: f"python ≥ {values[0]}", check=lambda w: version_of(w.value)),
    Term("torch", MINIMUM, lambda values: f"torch ≥ {values[0]}", check=lambda w: version_of(w.value)),
    Term("triton", MINIMUM, lambda values: f"triton ≥ {values[0]}", check=lambda w: version_of(w.value)),
)}
#: The HIP compiler: a flag, or qualified by the ``arch=`` right after it.
HIPCC = "hipcc"
KNOWN = tuple(TERMS)
FLAGS = tuple(name for name, term in TERMS.items() if term.form == FLAG)
CHOICES = tuple(name for name, term in TERMS.items() if term.form == CHOICE)
MINIMUMS = tuple(name for name, term in TERMS.items() if term.form == MINIMUM)


@dataclass(frozen=True)
class Requirement:
    """One parsed term of a ``requires:`` directive (its name and its values)."""

    name: str
    values: tuple[str, ...] = ()

    def __str__(self) -> str:
        form = TERMS[self.name].form
        if form == FLAG:
            return self.name
        if form == QUALIFIED:
            return self.name + (f" arch={','.join(self.values)}" if self.values else "")
        op = ">=" if form == MINIMUM else "="
        return f"{self.name}{op}{','.join(self.values)}"

    def describe(self) -> str:
        """The term in the English words of skip reasons, such as ``ROCm``, ``arch gfx906`` or ``≥ 8 GiB of VRAM``."""
        return TERMS[self.name].words(self.values)


def parse(text: str) -> tuple[Requirement, ...]:
    """The arguments of a ``requires:`` directive, parsed into terms.

    For example, ``parse("gpu rocm arch=gfx906")`` gives three terms, and ``parse("hipcc arch=gfx906")``
    gives one (the compiler and its target). But ``parse("rocm colour=red")`` raises
    `RequirementError`, because ``colour`` is not a requirement.

    Examples:
        >>> [str(term) for term in parse("gpu rocm arch=gfx906")]
        ['gpu', 'rocm', 'arch=gfx906']
        >>> [str(term) for term in parse("hipcc arch=gfx906")]
        ['hipcc arch=gfx906']
        >>> parse("rocm colour=red")
        Traceback (most recent call last):
        ...
        ruota_docs.blocks.terms.RequirementError: unknown requirement 'colour'; known: ...
    """
    terms: list[Requirement] = []
    tokens = text.split()
    position = 0
    while position < len(tokens):
        token = tokens[position]
        following = tokens[position + 1] if position + 1 < len(tokens) else None
        position += 1
        if token in TERMS and TERMS[token].form == QUALIFIED:
            after = tokens[position + 1] if position + 1 < len(tokens) else None
            term, took_next = _qualified(token, following, after)
            position += took_next
        else:
            term = _term(token, following)
        terms.append(term)
    if not terms:
        raise RequirementError("empty requires: directive")
    return tuple(terms)


def _qualified(token: str, following: str | None, after: str | None) -> tuple[Requirement, int]:
    """A term written alone or followed by its target (``hipcc arch=gfx906``), and how many of the
    tokens after it that took (0 or 1)."""
    if following is None or not following.startswith("arch="):
        return Requirement(token), 0
    values = tuple(v for v in following[len("arch="):].split(",") if v)
    if not values:
        raise RequirementError(f"{token} {following} names no target: write hipcc arch=gfx906 "
                               "(or hipcc alone for any working HIP compiler)")
    _check_targets(values, f"{token} {following}", after, for_hipcc=True)
    return Requirement(token, values), 1


def _term(token: str, following: str | None) -> Requirement:
    """One term written ``name``, ``name=VALUE`` or ``name>=VALUE``, checked against its form."""
    match = _TERM.match(token)
    if not match:
        raise RequirementError(f"malformed requirement {token!r}")
    name, op, value = match["name"], match["op"], match["value"]
    term = TERMS.get(name)
    if term is None:
        raise RequirementError(f"unknown requirement {name!r}; known: {', '.join(KNOWN)}")
    if term.form == QUALIFIED:
        raise RequirementError(f"requirement {name!r} is written {name}, or {name} arch=TARGET (got {token!r})")
    if term.form == FLAG:
        if op:
            raise RequirementError(f"requirement {name!r} takes no value (got {token!r})")
        return Requirement(name)
    expected = ">=" if term.form == MINIMUM else "="
    values = tuple(v for v in (value or "").split(",") if v)
    if op != expected or not values:
        raise RequirementError(f"requirement {name!r} is written {name}{expected}VALUE (got {token!r})")
    if term.check is not None:
        term.check(Written(token, value, values, following))
    return Requirement(name, values)
