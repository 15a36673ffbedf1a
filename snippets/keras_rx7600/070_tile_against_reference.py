"""The compiled tile, run on a GPU and compared with a float64 reference, shape by shape.

The same ``matmul_tile`` the previous script compiles for gfx1102, launched by Triton on
the GPU in front of it (ROCm or CUDA: Triton's active driver says which target that is),
against ``torch.matmul`` in float64 on the CPU from the same float16 inputs, as
*Verify against a reference* teaches. Without a GPU there is nothing to run it on.

    python 070_tile_against_reference.py
"""

import runpy
from pathlib import Path

globals().update(runpy.run_path(str(Path(__file__).resolve().parents[1] / "amd_targets" / "amd_code.py")))

# --8<-- [start:check]
import torch

target = triton.runtime.driver.active.get_current_target()
print(f"running on {torch.cuda.get_device_name(0)}: Triton target {target.backend} {target.arch}")
TOLERANCE = 1e-4  # float16 inputs multiply exactly in float32; what is left is float32 summation
generator = torch.Generator().manual_seed(0)
worst = 0.0
for M, N, K in [(32, 32, 32), (64, 48, 80), (100, 70, 130), (257, 129, 96), (512, 512, 512)]:
    a = torch.randn(M, K, generator=generator, dtype=torch.float64).half()  # rounded once: both sides use these
    b = torch.randn(K, N, generator=generator, dtype=torch.float64).half()
    c = torch.empty(M, N, device="cuda", dtype=torch.float32)
    grid = (triton.cdiv(M, TILE["BLOCK_M"]), triton.cdiv(N, TILE["BLOCK_N"]))
    matmul_tile[grid](a.cuda(), b.cuda(), c, M, N, K, **TILE)
    reference = torch.matmul(a.double(), b.double())  # float64 on the CPU
    error = ((c.cpu().double() - reference).abs().max() / reference.abs().max()).item()
    worst = max(worst, error)
    print(f"{M:>3} x {N:>3} x {K:>3}: relative error {error:.1e} {'ok' if error < TOLERANCE else 'WRONG'}")
assert worst < TOLERANCE, f"the tile does not match the reference: {worst:.1e} (tolerance {TOLERANCE:.0e})"
#> running on ...: Triton target ...
#>  32 x  32 x  32: relative error ... ok
#>  64 x  48 x  80: relative error ... ok
#> 100 x  70 x 130: relative error ... ok
#> 257 x 129 x  96: relative error ... ok
#> 512 x 512 x 512: relative error ... ok
# --8<-- [end:check]
