"""Does this ROCm library carry code for the Radeon RX 7600 (gfx1102)?

Libraries are built for a list of targets, and gfx1102 is not always on it (hipBLASLt's
build rejected it in 2025: ROCm/TheRock#1062). For a library of your choice:
``python ../rocm_toolchain/rocm_tools.py PATH gfx1102``.
"""

import runpy
from pathlib import Path

globals().update(runpy.run_path(str(Path(__file__).resolve().parents[1] / "rocm_toolchain" / "rocm_tools.py")))

# --8<-- [start:check]
library = default_library()  # or your own: Path("…/site-packages/torch/lib/libtorch_hip.so")
targets = carries(library, "gfx1102")
assert targets, f"{library} carries no GPU code at all: is it a ROCm library?"
#> ...: code for ...
#> gfx1102: ...
# --8<-- [end:check]
