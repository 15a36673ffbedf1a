"""The requirement vocabulary of ``<!-- requires: … -->`` directives.

A directive is a space-separated list of terms; a block runs only where every term
holds. Terms:

| term | holds when |
| --- | --- |
| `gpu` | PyTorch can use a GPU (ROCm or CUDA) |
| `rocm` | PyTorch runs on ROCm (`torch.version.hip` set, a GPU visible) |
| `cuda` | PyTorch runs on CUDA (an NVIDIA GPU visible) |
| `cpu` | no GPU is visible (for blocks that show CPU-only behaviour) |
| `arch=A[,B…]` | the GPU target is one of these (`gfx906`, `gfx1102`, `sm_90`) |
| `hipcc` | a HIP compiler is installed and works: it builds for at least one gfx target |
| `hipcc arch=A[,B…]` | hipcc can build for every one of these gfx targets (`gfx906`), GPU or not |
| `tool=P[,Q…]` | these programs are installed (on `PATH`, or in `$ROCM_PATH/bin` or `/opt/rocm/bin`) |
| `vram>=N` | the first GPU has at least N of memory (`8GiB`, `512MiB`) |
| `os=O[,P…]` | the operating system is one of `linux`, `windows`, `macos` |
| `import=M[,N…]` | these modules are installed (checked without importing them) |
| `network` | the run allows internet access (`pytest --network` or `RUOTA_DOCS_NETWORK=1`) |
| `python>=X.Y` | the Python version is at least X.Y |
| `torch>=X.Y` | torch is installed, at least version X.Y |

``arch=`` written right after ``hipcc`` qualifies the compiler (``hipcc arch=gfx906``:
it can build for gfx906, even on a machine with no GPU); anywhere else it is the GPU's
target (``rocm arch=gfx906``). ``rocm arch=gfx906 hipcc arch=gfx906`` asks for both. Whether a term holds on this
machine is decided in `ruota_docs.run.conditions`; this module only reads them.

An unknown term or a malformed value raises `RequirementError`; it is never
ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: ROCm's own programs: a block that needs one of them (``tool=rocminfo``) needs ROCm's userland.
ROCM_PROGRAMS = ("hipcc", "hipconfig", "rocminfo", "rocm_agent_enumerator", "roc-obj", "roc-obj-ls",
                 "roc-obj-extract", "rocm-smi", "amd-smi")
#: Terms that take no value.
FLAGS = ("gpu", "rocm", "cuda", "cpu", "network")
#: The HIP compiler: a flag, or qualified by the ``arch=`` right after it.
HIPCC = "hipcc"
#: Terms written ``name=value[,value…]``.
CHOICES = ("arch", "os", "import", "tool")
#: Terms written ``name>=value``.
MINIMUMS = ("vram", "python", "torch")
KNOWN = FLAGS + (HIPCC,) + CHOICES + MINIMUMS
OS_NAMES = ("linux", "windows", "macos")
#: How skip reasons and badges write each operating system.
OS_LABELS = {"linux": "Linux", "windows": "Windows", "macos": "macOS"}
_UNITS = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
_TERM = re.compile(r"^(?P<name>[a-z_]+)(?:(?P<op>>=|=)(?P<value>\S+))?$")
#: An LLVM AMDGPU processor (gfx906, gfx90a, gfx1102, gfx11-generic), features allowed after ``:``.
_GFX = re.compile(r"gfx(?:\d{1,2}[0-9a-f]{2}|\d{1,2}(?:-\d)?-generic)(?::(?:sramecc|xnack)[+-])*")
_CUDA_ARCH = re.compile(r"sm_\d{2,3}[a-z]?")
_PROGRAM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")


class RequirementError(ValueError):
    """A requirement directive that cannot be understood."""


@dataclass(frozen=True)
class Requirement:
    """One term of a ``requires:`` directive."""

    name: str
    values: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.name in FLAGS:
            return self.name
        if self.name == HIPCC:
            return HIPCC + (f" arch={','.join(self.values)}" if self.values else "")
        op = ">=" if self.name in MINIMUMS else "="
        return f"{self.name}{op}{','.join(self.values)}"

    def describe(self) -> str:
        """English words for skip reasons: ``ROCm``, ``arch gfx906``, ``≥ 8 GiB of VRAM``."""
        words = {"gpu": "a GPU", "rocm": "ROCm", "cuda": "CUDA", "cpu": "no GPU", "network": "network access"}
        if self.name in words:
            return words[self.name]
        if self.name == "arch":
            return "arch " + " or ".join(self.values)
        if self.name == HIPCC:
            return f"hipcc able to build for {' and '.join(self.values)}" if self.values else "a working hipcc"
        if self.name == "tool":
            return " and ".join(self.values)
        if self.name == "os":
            return " or ".join(OS_LABELS[v] for v in self.values)
        if self.name == "import":
            return "installed " + ", ".join(self.values)
        if self.name == "vram":
            return f"≥ {self.values[0]} of VRAM"
        return f"{self.name} ≥ {self.values[0]}"


def parse_size(text: str) -> int:
    """``8GiB`` → bytes. Raises RequirementError for anything else."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(KiB|MiB|GiB|TiB)", text)
    if not match:
        raise RequirementError(f"malformed size {text!r}: write a number and a unit, e.g. 8GiB or 512MiB")
    return int(float(match[1]) * _UNITS[match[2]])


def _version(text: str) -> tuple[int, ...]:
    if not re.fullmatch(r"\d+(\.\d+)*", text):
        raise RequirementError(f"malformed version {text!r}: write digits and dots, e.g. 2.9")
    return tuple(int(p) for p in text.split("."))


def _check_targets(values: tuple[str, ...], token: str, following: str | None, for_hipcc: bool) -> None:
    """gfx targets for hipcc (features such as ``:xnack-`` allowed); for the GPU, a gfx target
    without features (the probe strips them) or a CUDA compute capability."""
    for value in values:
        if (_GFX.fullmatch(value) and (for_hipcc or ":" not in value)) or (not for_hipcc and _CUDA_ARCH.fullmatch(value)):
            continue
        if value == "gfx" and following and following.isdigit():
            raise RequirementError(f"malformed target in {token!r}: write it without a space, gfx{following}")
        if _GFX.fullmatch(value):
            raise RequirementError(f"the GPU's target is compared without features: write {value.split(':')[0]} (got {token!r})")
        if for_hipcc:
            raise RequirementError(f"malformed gfx target {value!r} in {token!r}: write gfx and its number, "
                                   "e.g. hipcc arch=gfx906 or hipcc arch=gfx1030,gfx1102")
        raise RequirementError(f"malformed target {value!r} in {token!r}: write a gfx target (gfx906, gfx90a, gfx1102) "
                               "or a CUDA compute capability (sm_90)")


def parse(text: str) -> tuple[Requirement, ...]:
    """Parse the arguments of a ``requires:`` directive.

    ``parse("gpu rocm arch=gfx906")`` gives three terms; ``parse("hipcc arch=gfx906")``
    one (the compiler's target); ``parse("rocm colour=red")`` raises `RequirementError`
    (unknown requirement ``colour``).
    """
    terms: list[Requirement] = []
    tokens = text.split()
    position = 0
    while position < len(tokens):
        token = tokens[position]
        following = tokens[position + 1] if position + 1 < len(tokens) else None
        position += 1
        if token == HIPCC:
            if following is not None and following.startswith("arch="):
                value = following[len("arch="):]
                values = tuple(v for v in value.split(",") if v)
                if not values:
                    raise RequirementError(f"{token} {following} names no target: write hipcc arch=gfx906 "
                                           "(or hipcc alone for any working HIP compiler)")
                after = tokens[position + 1] if position + 1 < len(tokens) else None
                _check_targets(values, f"{token} {following}", after, for_hipcc=True)
                terms.append(Requirement(HIPCC, values))
                position += 1
            else:
                terms.append(Requirement(HIPCC))
            continue
        match = _TERM.match(token)
        if not match:
            raise RequirementError(f"malformed requirement {token!r}")
        name, op, value = match["name"], match["op"], match["value"]
        if name not in KNOWN:
            raise RequirementError(f"unknown requirement {name!r}; known: {', '.join(KNOWN)}")
        if name == HIPCC:
            raise RequirementError(f"requirement 'hipcc' is written hipcc, or hipcc arch=TARGET (got {token!r})")
        if name in FLAGS:
            if op:
                raise RequirementError(f"requirement {name!r} takes no value (got {token!r})")
            terms.append(Requirement(name))
            continue
        expected = ">=" if name in MINIMUMS else "="
        if op != expected or not value:
            raise RequirementError(f"requirement {name!r} is written {name}{expected}VALUE (got {token!r})")
        values = tuple(v for v in value.split(",") if v)
        if not values:
            raise RequirementError(f"requirement {name!r} is written {name}{expected}VALUE (got {token!r})")
        if name == "os" and (bad := [v for v in values if v not in OS_NAMES]):
            raise RequirementError(f"unknown os {bad[0]!r}; known: {', '.join(OS_NAMES)}")
        if name == "arch":
            _check_targets(values, token, following, for_hipcc=False)
        if name == "tool" and (bad := [v for v in values if not _PROGRAM.fullmatch(v)]):
            raise RequirementError(f"malformed program name {bad[0]!r} in {token!r}: write the file name, e.g. tool=roc-obj-ls")
        if name == "vram":
            parse_size(value)
        if name in ("python", "torch"):
            _version(value)
        terms.append(Requirement(name, values))
    if not terms:
        raise RequirementError("empty requires: directive")
    return tuple(terms)
