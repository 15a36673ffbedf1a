"""Which gfx target is your GPU, and is it in AMD's ROCm 7.14 table? (PyTorch on ROCm.)"""

import runpy
from pathlib import Path

import torch

globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("rocm_support.py"))))
if not (torch.version.hip and torch.cuda.is_available()):  # the page skips this block there
    print("needs PyTorch for ROCm and a visible AMD GPU; nothing to identify here")
    raise SystemExit(0)

# --8<-- [start:identify]
import torch

assert torch.version.hip, "this is not a ROCm build of PyTorch"
assert torch.cuda.is_available(), "PyTorch for ROCm sees no GPU: 100_diagnose.py, further down this guide, reports why"

props = torch.cuda.get_device_properties(0)
target = props.gcnArchName.split(":")[0]  # "gfx1102:xnack-" -> "gfx1102"
row = lookup(target)

print(f"GPU: {props.name}, {props.total_memory / 2**30:.1f} GiB, target {target}")
print(f"PyTorch {torch.__version__}, HIP {torch.version.hip}")
if row:
    print(f"in the ROCm {ROCM_RELEASE} table: yes ({row.family}: {', '.join(row.products)})")
    print("PyTorch on Windows, per AMD: " + ("listed" if row.windows_pytorch else "not listed"))
else:
    print(f"in the ROCm {ROCM_RELEASE} table: no. It may still work (TheRock builds more "
          "targets), but nobody promises it: test before you rely on it")

# Fused attention (flash / memory-efficient) comes from AOTriton, whose list of targets
# changes from release to release. PyTorch asks AOTriton at run time whether it has
# kernels for this GPU, so ask PyTorch the same way rather than keep a list here.
from torch.nn.attention import SDPBackend, sdpa_kernel

q = torch.randn(1, 1, 64, 64, device="cuda", dtype=torch.float16)
fused = []
for name, backend in (("flash", SDPBackend.FLASH_ATTENTION), ("memory-efficient", SDPBackend.EFFICIENT_ATTENTION)):
    try:
        with sdpa_kernel(backend):
            torch.nn.functional.scaled_dot_product_attention(q, q, q)
        fused.append(name)
    except RuntimeError:  # PyTorch found no kernel of that kind for this GPU
        pass
if fused:
    print("SDPA: fused attention kernels for this target:", ", ".join(fused))
else:
    print("SDPA: no fused attention kernels for this target; expect the math fallback "
          "(try TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL=1)")
del q
# --8<-- [end:identify]
