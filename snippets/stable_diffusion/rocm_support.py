"""Which AMD GPUs ROCm supports officially: the Radeon/Ryzen table of ROCm 7.14.

This file is the only place the table lives. The guide includes the Markdown it
generates and the block that identifies your GPU looks your target up here.

    python rocm_support.py                                      # list the table
    python rocm_support.py --markdown > rocm_support_table.md   # regenerate the page's table
    python rocm_support.py gfx1102                              # look one target up

Sources: ROCm 7.13/7.14 compatibility matrix (Radeon and Ryzen, Linux; read 2026-11);
AMD's "ROCm on Radeon and Ryzen" pages (docs-7.2.1, read 2026-12), which give a PyTorch
install on Windows for Radeon RDNA3 and RDNA4 cards and for Ryzen APUs.
"""

import sys

# --8<-- [start:data]
from typing import NamedTuple


class Target(NamedTuple):
    """One LLVM target (gfx…) of the ROCm 7.14 Radeon/Ryzen table."""

    gfx: str
    family: str
    products: tuple[str, ...]
    windows_pytorch: bool  # AMD's PyTorch-on-Windows pages: Radeon RDNA3/RDNA4 and Ryzen APUs


ROCM_RELEASE = "7.14"
ROCM_7_14_RADEON_RYZEN = (
    Target("gfx1201", "RDNA4", ("RX 9070 XT", "RX 9070 GRE", "RX 9070", "AI PRO R9700",
                                "AI PRO R9700S", "AI PRO R9600D"), True),
    Target("gfx1200", "RDNA4", ("RX 9060 XT", "RX 9060 XT LP", "RX 9060"), True),
    Target("gfx1100", "RDNA3", ("RX 7900 XTX", "RX 7900 XT", "RX 7900 GRE", "PRO W7900",
                                "PRO W7800"), True),
    Target("gfx1101", "RDNA3", ("RX 7800 XT", "RX 7700 XT", "RX 7700", "PRO W7700",
                                "PRO V710"), True),
    Target("gfx1102", "RDNA3", ("RX 7600",), True),
    Target("gfx1030", "RDNA2", ("PRO W6800", "PRO V620"), False),
    Target("gfx1150", "RDNA3.5", ("Ryzen AI (APU)",), True),
    Target("gfx1151", "RDNA3.5", ("Ryzen AI (APU)",), True),
    Target("gfx1152", "RDNA3.5", ("Ryzen AI (APU)",), True),
)
LINUX_DISTRIBUTIONS = ("Ubuntu 24.04", "Ubuntu 22.04", "Ubuntu 26.04 (7.13+)", "RHEL 10.x")


def lookup(gfx: str) -> Target | None:
    """The table row of a target (features such as ``:xnack-`` are ignored)."""
    gfx = gfx.split(":")[0].strip().lower()
    return next((row for row in ROCM_7_14_RADEON_RYZEN if row.gfx == gfx), None)


def markdown_table(rows=ROCM_7_14_RADEON_RYZEN) -> str:
    """The table as the guide shows it (headers and marks need no translation)."""
    lines = ["| gfx | RDNA | GPU | Linux | Windows (PyTorch) |",
             "| --- | --- | --- | :---: | :---: |"]
    for row in rows:
        products = ", ".join(row.products)
        windows = "✓" if row.windows_pytorch else "—"
        lines.append(f"| `{row.gfx}` | {row.family} | {products} | ✓ | {windows} |")
    return "\n".join(lines) + "\n"
# --8<-- [end:data]


def main(argv: list[str]) -> int:
    if not argv:
        print(f"ROCm {ROCM_RELEASE}, Radeon and Ryzen on Linux:")
        for row in ROCM_7_14_RADEON_RYZEN:
            print(f"  {row.gfx:8} {row.family:8} {', '.join(row.products)}")
        return 0
    if argv == ["--markdown"]:
        sys.stdout.write(markdown_table())
        return 0
    if len(argv) == 1 and not argv[0].startswith("-"):
        row = lookup(argv[0])
        if row is None:
            print(f"{argv[0]}: not in the ROCm {ROCM_RELEASE} Radeon/Ryzen table")
            return 1
        print(f"{row.gfx}: {row.family}, {', '.join(row.products)}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
