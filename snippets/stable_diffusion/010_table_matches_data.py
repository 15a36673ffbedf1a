"""The support table on the page must be exactly the one the data generates.

On the page, the include line below is replaced by rocm_support_table.md, the file the
page shows as its table; run alone, this script reads that file itself.
"""

import runpy
from pathlib import Path

HERE = Path(__file__).resolve().parent
globals().update(runpy.run_path(str(HERE / "rocm_support.py")))

# --8<-- [start:published]
PUBLISHED_TABLE = """\
--8<-- "stable_diffusion/rocm_support_table.md"
"""
# --8<-- [end:published]

if PUBLISHED_TABLE.startswith("--8<--"):  # run alone: nothing expanded the include
    PUBLISHED_TABLE = (HERE / "rocm_support_table.md").read_text(encoding="utf-8")

# --8<-- [start:check]
expected = markdown_table()
assert PUBLISHED_TABLE.strip() == expected.strip(), (
    "the table on the page is stale: regenerate it with\n"
    "  python snippets/stable_diffusion/rocm_support.py --markdown"
    " > snippets/stable_diffusion/rocm_support_table.md"
)
# A few rows the rest of the guide relies on.
assert lookup("gfx1102").products == ("RX 7600",)
assert lookup("gfx1100:sramecc-:xnack-").family == "RDNA3"
assert lookup("gfx1032") is None  # RX 6600/6650 XT: not in the official table
assert lookup("gfx906") is None  # Radeon VII: not in the ROCm 7.x tables
assert lookup("gfx1151").windows_pytorch  # Ryzen AI APUs: AMD gives a Windows PyTorch install
print(f"ROCm {ROCM_RELEASE}: {len(ROCM_7_14_RADEON_RYZEN)} targets, table on the page up to date")
# --8<-- [end:check]
