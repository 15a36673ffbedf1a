"""Does this ROCm library carry code for the Radeon VII (gfx906)?

rocBLAS 6.4 stopped shipping gfx906 kernels (ROCm/legacy-rocm-build#4625): a torch or a
ROCm install can import and still have no code for this card. For a library of your
choice: ``python ../rocm_toolchain/rocm_tools.py PATH gfx906``.
"""

import runpy
from pathlib import Path

globals().update(runpy.run_path(str(Path(__file__).resolve().parents[1] / "rocm_toolchain" / "rocm_tools.py")))

# --8<-- [start:check]
library = default_library()  # or your own: Path("…/site-packages/torch/lib/libtorch_hip.so")
targets = carries(library, "gfx906")
assert targets, f"{library} carries no GPU code at all: is it a ROCm library?"
#> ...: code for ...
#> gfx906: ...
# --8<-- [end:check]
