"""What the Radeon VII would execute, without the card: a Triton tile and this guide's HIP kernel, compiled.

Vega 20 (gfx906) has no matrix cores; its fast path for float16 products is the packed dot
product ``v_dot2_f32_f16``. Triton compiles a matrix-multiply tile for gfx906 and the
assembly shows whether it uses it; hipcc and Debian's clang-15 compile the first-layer HIP
kernel of ``030_hip_first_layer.py`` for gfx906 and for RDNA targets. None of this shows
that the code runs: only the card can.

    python 040_compiled_for_gfx906.py
"""

import ast
import runpy
from pathlib import Path

SNIPPETS = Path(__file__).resolve().parents[1]
globals().update(runpy.run_path(str(SNIPPETS / "amd_targets" / "amd_code.py")))
# The kernel the guide builds with hipcc: the KERNEL string of 030_hip_first_layer.py
KERNEL = next(ast.literal_eval(node.value) for node in ast.parse((SNIPPETS / "radeon_vii" / "030_hip_first_layer.py")
              .read_text()).body if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "KERNEL")

# --8<-- [start:triton]
print(f"Triton {triton.__version__}")
code, code_object = compile_tile("gfx906")
print(describe(code, len(code_object), r"v_(dot\d+|pk_fma|mfma)_\w+"))
assert code.instructions["v_dot2_f32_f16"] > 0, "no packed float16 dot product: not Vega 20 code?"
assert code.spills == 0 and code.scratch == 0, "registers spilled to memory"
#> Triton ...
#> gfx906: code object ... bytes; ... × v_dot2_f32_f16; ... VGPRs, ... SGPRs, 0 spills, 0 bytes of scratch
# --8<-- [end:triton]

# --8<-- [start:hip]
for target, compiler in [("gfx906", "hipcc"), ("gfx1030", "clang++-15"), ("gfx1102", "clang++-15")]:
    code, code_object = compile_hip(KERNEL, target, compiler)
    print(f"{compiler:>10} → " + describe(code, len(code_object), r"v_fmac?_f32\w*"))
    assert code.target == target and code.spills == 0 and code.scratch == 0, code
#>      hipcc → gfx906: code object ... bytes; ... × v_fmac_f32_e32, ... × v_fma_f32; ... VGPRs, ... SGPRs, 0 spills, 0 bytes of scratch
#> clang++-15 → gfx1030: code object ... bytes; ... × v_fmac_f32_e32, ... × v_fma_f32; ... VGPRs, ... SGPRs, 0 spills, 0 bytes of scratch
#> clang++-15 → gfx1102: code object ... bytes; ... × v_fmac_f32_e32, ... × v_fma_f32; ... VGPRs, ... SGPRs, 0 spills, 0 bytes of scratch
# --8<-- [end:hip]
