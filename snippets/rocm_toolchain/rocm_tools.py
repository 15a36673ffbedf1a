"""Which GPUs does a ROCm library or program carry code for? ROCm's own tools answer, GPU or not.

    python rocm_tools.py                          # your torch's libtorch_hip.so, else librocblas, else Debian's librocrand
    python rocm_tools.py PATH [TARGET]            # any library or program; TARGET such as gfx906 or gfx1102

A HIP binary keeps its device code in the ``.hip_fatbin`` section of its ELF file: one
code object per gfx target, in clang offload bundles. ROCm lists them with
``llvm-readobj --offloading`` (ROCm 7 and later, in ROCm's LLVM directory) or with the
older ``roc-obj-ls``, which cannot read the compressed bundles of ROCm 6 libraries and
lists nothing for them (ROCm/legacy-rocm-build#4932): this file says so instead of
answering "none".
rocBLAS and hipBLASLt keep most kernels (Tensile) in files of their own beside the
library, named after each target; those are listed too.
"""

import sys

# --8<-- [start:tools]
import os
import re
import shutil
import subprocess
from pathlib import Path

ROCM = Path(os.environ.get("ROCM_PATH", "/opt/rocm"))


def rocm_tool(name):
    """A ROCm program: on PATH, else in $ROCM_PATH/bin or /opt/rocm/bin (where ROCm installs it)."""
    places = [root / "bin" for root in dict.fromkeys((ROCM, Path("/opt/rocm")))]
    found = shutil.which(name) or next((str(p / name) for p in places if os.access(p / name, os.X_OK)), None)
    if found is None:
        raise FileNotFoundError(f"{name} is not installed: not on PATH, nor in {', '.join(map(str, places))}")
    return found


def offloading_reader():
    """An llvm-readobj that has --offloading (ROCm 7 and later), or None. ROCm's own comes first:
    a system LLVM on PATH (Debian's is LLVM 15) may be too old to have the option."""
    ours = [root / "llvm" / "bin" / "llvm-readobj" for root in dict.fromkeys((ROCM, Path("/opt/rocm")))]
    for candidate in [*ours, shutil.which("llvm-readobj")]:
        if candidate and os.access(candidate, os.X_OK):
            shown = subprocess.run([str(candidate), "--help"], capture_output=True, text=True, timeout=60).stdout
            if "--offloading" in shown:
                return str(candidate)
    return None


def fatbin_format(binary):
    """'uncompressed' or 'compressed' clang offload bundles in the ELF's .hip_fatbin, None without one."""
    with open(binary, "rb") as elf:
        def read(offset, size):
            elf.seek(offset)
            return elf.read(size)

        number = lambda raw: int.from_bytes(raw, "little")  # noqa: E731
        head = read(0, 64)
        if head[:4] != b"\x7fELF" or head[4] != 2:
            raise ValueError(f"{binary} is not a 64-bit ELF file")
        shoff, shentsize = number(head[0x28:0x30]), number(head[0x3A:0x3C])  # the section header table
        shnum, shstrndx = number(head[0x3C:0x3E]), number(head[0x3E:0x40])
        sections = [read(shoff + i * shentsize, shentsize) for i in range(shnum)]
        names = read(number(sections[shstrndx][0x18:0x20]), number(sections[shstrndx][0x20:0x28]))
        for header in sections:
            start = number(header[0:4])
            if names[start:names.index(b"\0", start)] == b".hip_fatbin":
                return "compressed" if read(number(header[0x18:0x20]), 4) == b"CCOB" else "uncompressed"
    return None


def code_objects(binary):
    """The device code objects in a binary: [(target, size in bytes, offset or None)].

    llvm-readobj --offloading where ROCm's LLVM has it, else roc-obj-ls. Both print one
    line per bundle entry: its id (hipv4-amdgcn-amd-amdhsa--gfx906) and a file:// URI
    with its offset and size (offsets mean nothing inside compressed bundles).
    """
    binary = Path(binary).resolve()
    kind = fatbin_format(binary)
    if kind is None:
        return []  # no .hip_fatbin section: no device code at all
    compressed = kind == "compressed"
    readobj = offloading_reader()
    if readobj:
        command = [readobj, "--offloading", str(binary)]
    elif compressed:
        raise RuntimeError(f"{binary.name} holds compressed code objects, which roc-obj-ls cannot read "
                           "(it would list none): use llvm-readobj --offloading from ROCm 7 or later")
    else:
        command = [rocm_tool("roc-obj-ls"), str(binary)]
    listing = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300).stdout
    found = []
    for line in listing.splitlines():
        entry = re.search(r"amdgcn-amd-amdhsa-+(gfx[0-9a-z-]+(?::[a-z]+[+-])*)", line)
        size = re.search(r"size=(\d+)", line)
        offset = re.search(r"offset=(\d+)", line)
        if entry and size:
            found.append((entry[1], int(size[1]), None if compressed else int(offset[1])))
    return found


def gfx_targets(binary):
    """The gfx targets a binary carries code for, features such as :xnack- dropped."""
    return sorted({target.split(":")[0] for target, _, _ in code_objects(binary)}, key=lambda t: (len(t), t))


def tensile_targets(library):
    """Targets named by the kernel files rocBLAS and hipBLASLt keep beside their library
    (rocblas/library/TensileLibrary_lazy_gfx906.dat …); empty where there are none."""
    folders = [Path(library).parent / name / "library" for name in ("rocblas", "hipblaslt")]
    names = [f.name for folder in folders if folder.is_dir() for f in folder.iterdir()]
    return sorted({m[1] for n in names for m in [re.search(r"[_-](gfx[0-9a-f]+)", n)] if m}, key=lambda t: (len(t), t))
# --8<-- [end:tools]


# --8<-- [start:library]
import importlib.util


def default_library():
    """The reader's own ROCm code: their torch's libtorch_hip.so, else ROCm's librocblas,
    else a ROCm library Debian ships (librocrand1)."""
    torch = importlib.util.find_spec("torch")
    candidates = [Path(torch.origin).parent / "lib" / "libtorch_hip.so"] if torch and torch.origin else []
    candidates += [root / "lib" / "librocblas.so" for root in (ROCM, Path("/opt/rocm"))]
    candidates += sorted(Path("/usr/lib").glob("*/librocblas.so.*")) + sorted(Path("/usr/lib").glob("*/librocrand.so.1"))
    found = next((c for c in candidates if c.exists()), None)
    if found is None:
        raise FileNotFoundError("no ROCm library found: pass the path of one")
    return found


def carries(library, target):
    """Print, on two lines, the gfx targets in a library and whether ``target`` is among them;
    return the targets."""
    targets = gfx_targets(library)
    tensile = tensile_targets(library)
    found = f"code for {', '.join(targets)}" if targets else "no GPU code"
    if tensile:
        found += f"; rocBLAS/hipBLASLt kernel files for {', '.join(tensile)}"
    print(f"{Path(library).name}: {found}")
    if target not in targets:
        print(f"{target}: no, this build carries no {target} code")
    elif tensile and target not in tensile:
        print(f"{target}: no, it has {target} code but no rocBLAS/hipBLASLt kernel files for it")
    else:
        print(f"{target}: yes")
    return targets
# --8<-- [end:library]


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] in (["-h"], ["--help"]) or len(args) > 2:
        print(__doc__)
        sys.exit(0 if args[:1] in (["-h"], ["--help"]) else 2)
    try:
        carries(Path(args[0]) if args else default_library(), args[1] if len(args) > 1 else "gfx906")
    except (OSError, ValueError, RuntimeError, subprocess.SubprocessError) as error:
        sys.exit(f"rocm_tools: {error}")
