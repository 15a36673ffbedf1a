"""What a kernel compiles to on an AMD card, built on a machine that does not have the card.

Two compilers generate code for any gfx target ahead of time, GPU or not:

- Triton (``pip install triton``) compiles a ``@triton.jit`` kernel with its own LLVM and
  linker: ``triton.compile(ASTSource(...), target=GPUTarget("hip", "gfx1102", 32))``;
- clang (Debian 12: ``apt install clang-15 hipcc``) compiles a HIP kernel in device-only mode
  (``--cuda-device-only``), and hipcc drives the same clang with ROCm's device libraries.

Both give the assembly (what the card will execute, with the register counts in its metadata)
and the code object (the ELF file the HIP runtime loads). Neither shows that the code runs:
only a run on the card does.

    python amd_code.py                      # the matrix-multiply tile for gfx1102, gfx1100 and gfx906
    python amd_code.py gfx1102 [gfx906 …]   # for these targets
"""

import sys

# --8<-- [start:inspect]
import re
from collections import Counter
from dataclasses import dataclass


@dataclass
class DeviceCode:
    """What the assembly of one kernel says about the code for its target."""

    target: str  #: the gfx target the code is for, from ``.amdgcn_target``
    instructions: Counter  #: how many times each instruction occurs
    vgprs: int  #: vector registers per work-item
    sgprs: int  #: scalar registers per wave
    spills: int  #: registers spilled to memory (vector + scalar)
    scratch: int  #: bytes of private (scratch) memory per work-item


def read_assembly(assembly):
    """The `DeviceCode` of an AMDGPU assembly file (LLVM's ``.s``, one kernel)."""
    def field(name):
        found = re.search(rf"^\s+\.{name}:\s+(\d+)", assembly, re.M)  # the code object's metadata
        if found is None:
            raise ValueError(f"no .{name} in the assembly: is it an AMDGPU kernel?")
        return int(found[1])

    target = re.search(r'\.amdgcn_target "[^"]*?(gfx[0-9a-f]+)', assembly)
    if target is None:
        raise ValueError("no .amdgcn_target in the assembly: is it AMDGPU code?")
    mnemonics = re.findall(r"^\s+([sv]_[a-z0-9_]+)", assembly, re.M)
    return DeviceCode(target[1], Counter(mnemonics), field("vgpr_count"), field("sgpr_count"),
                      field("vgpr_spill_count") + field("sgpr_spill_count"), field("private_segment_fixed_size"))


def describe(code, size, pattern):
    """One line: target, code object size, the instructions matching ``pattern``, registers, spills."""
    wanted = sorted((n, name) for name, n in code.instructions.items() if re.fullmatch(pattern, name))
    shown = ", ".join(f"{n} × {name}" for n, name in reversed(wanted)) or f"no instruction matching {pattern}"
    memory = f"{code.spills} spills, {code.scratch} bytes of scratch"
    return (f"{code.target}: code object {size} bytes; {shown}; "
            f"{code.vgprs} VGPRs, {code.sgprs} SGPRs, {memory}")
# --8<-- [end:inspect]


# --8<-- [start:triton]
import os

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # Triton's default, set explicitly to silence the warning some releases print
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def matmul_tile(a, b, c, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """c = a @ b for row-major float16 a (M × K) and b (K × N), float32 c: one BLOCK_M × BLOCK_N tile per program."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    depth = tl.arange(0, BLOCK_K)
    total = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        ks = k + depth
        a_tile = tl.load(a + rows[:, None] * K + ks[None, :], mask=(rows[:, None] < M) & (ks[None, :] < K), other=0.0)
        b_tile = tl.load(b + ks[:, None] * N + cols[None, :], mask=(ks[:, None] < K) & (cols[None, :] < N), other=0.0)
        total += tl.dot(a_tile, b_tile)  # the matrix instructions of the target: WMMA, MFMA, dot2, Tensor Cores
    tl.store(c + rows[:, None] * N + cols[None, :], total, mask=(rows[:, None] < M) & (cols[None, :] < N))


TILE = {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32}
#: Threads per wave: 32 on RDNA (gfx10, gfx11, gfx12), 64 on GCN and CDNA (gfx906, gfx90a, gfx942).
WAVE_SIZE = {"gfx1030": 32, "gfx1100": 32, "gfx1101": 32, "gfx1102": 32, "gfx906": 64, "gfx90a": 64, "gfx942": 64}


def compile_tile(target):
    """Triton's assembly and code object of `matmul_tile` for an AMD ``target``: ``(DeviceCode, bytes)``."""
    signature = {"a": "*fp16", "b": "*fp16", "c": "*fp32", "M": "i32", "N": "i32", "K": "i32"}
    source = ASTSource(fn=matmul_tile, signature=signature | dict.fromkeys(TILE, "constexpr"), constexprs=TILE)
    kernel = triton.compile(source, target=GPUTarget("hip", target, WAVE_SIZE[target]))
    return read_assembly(kernel.asm["amdgcn"]), kernel.asm["hsaco"]
# --8<-- [end:triton]


# --8<-- [start:hip]
import subprocess
import tempfile
from pathlib import Path

#: Debian 12's ROCm device libraries (5.2) stop at gfx1036, so clang is given none (-nogpulib), for every target
#: alike. Two are linked in by hand: ockl (work-item and group IDs), the one library the kernel calls, and
#: oclc_abi_version_400, which sets the ABI version ockl's functions read (this kernel's code is the same without it).
#: hipcc links them all where they exist.
DEVICE_LIBS = Path("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")


def compile_hip(source, target, compiler):
    """The assembly and code object of the kernels in HIP ``source`` for ``target``: ``(DeviceCode, bytes)``.

    ``compiler`` is ``"hipcc"`` or a clang such as ``"clang++-15"``; device-only, so no host
    code is built and no HIP runtime is needed."""
    common = ["-x", "hip", "--cuda-device-only", f"--offload-arch={target}", "-O2"]
    if compiler == "hipcc":
        command = ["hipcc", *common]
    else:
        libraries = [flag for name in ("ockl.bc", "oclc_abi_version_400.bc")
                     for flag in ("-Xclang", "-mlink-builtin-bitcode", "-Xclang", str(DEVICE_LIBS / name))]
        command = [compiler, *common, "--rocm-path=/usr", "-nogpulib", *libraries]
    # Debian's hipcc picks the NVIDIA platform when it finds an `nvcc` but no `clang++` on PATH, so ask for AMD.
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "kernel.hip").write_text(source)
        # -save-temps keeps the assembly beside the code object (bare ELF: --no-gpu-bundle-output)
        built = subprocess.run([*command, "-c", "--no-gpu-bundle-output", "-save-temps", "kernel.hip", "-o", "kernel.co"],
                               cwd=folder, env=env, capture_output=True, text=True, timeout=300)
        assert built.returncode == 0, f"{compiler} for {target} failed:\n{built.stderr}"
        code = Path(folder, "kernel.co").read_bytes()
        assert code[:4] == b"\x7fELF" and code[18:20] == (224).to_bytes(2, "little"), "not an AMDGPU code object"
        return read_assembly(Path(folder, f"kernel-hip-amdgcn-amd-amdhsa-{target}.s").read_text()), code
# --8<-- [end:hip]


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        sys.exit(0)
    for name in sys.argv[1:] or ["gfx1102", "gfx1100", "gfx906"]:
        device_code, code_object = compile_tile(name)
        print(describe(device_code, len(code_object), r"v_(wmma|mfma|dot\d+|pk_fma)_\w+"))
