"""The RX 7600's matrix instructions, without the card: a Triton matrix-multiply kernel compiled for gfx1102.

Keras's Dense and convolution layers end in matrix products; on RDNA 3 (gfx1100, gfx1101,
gfx1102) the instructions that compute them are the WMMA family. Triton compiles its kernel
for gfx1102 on any Linux machine (``pip install triton``) and the assembly says whether it
uses them. This shows what the card would execute, not that it runs: only the card can.

    python 060_compiled_for_gfx1102.py
"""

import runpy
from pathlib import Path

globals().update(runpy.run_path(str(Path(__file__).resolve().parents[1] / "amd_targets" / "amd_code.py")))

# --8<-- [start:compile]
print(f"Triton {triton.__version__}")
for target in ("gfx1102", "gfx1100"):  # the RX 7600, and for comparison the RX 7900 XTX, the top RDNA 3 card
    code, code_object = compile_tile(target)
    print(describe(code, len(code_object), r"v_(wmma|dot\d+|pk_fma)_\w+"))
    assert code.target == target and code.instructions["v_wmma_f32_16x16x16_f16"] > 0, f"{target}: no WMMA instructions, so this is not RDNA 3 code"
    assert code.spills == 0 and code.scratch == 0, f"{target}: registers spilled to memory"
#> Triton ...
#> gfx1102: code object ... bytes; ... × v_wmma_f32_16x16x16_f16; ... VGPRs, ... SGPRs, 0 spills, 0 bytes of scratch
#> gfx1100: code object ... bytes; ... × v_wmma_f32_16x16x16_f16; ... VGPRs, ... SGPRs, 0 spills, 0 bytes of scratch
# --8<-- [end:compile]
