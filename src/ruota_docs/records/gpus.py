"""Which GPU target a GPU's name implies, for the cards people are likely to send records from.

``ruota-docs record check`` holds a record's ``arch`` against its ``gpu_name`` (as PyTorch
reports it: ``torch.cuda.get_device_properties(0).name``, for example ``AMD Radeon RX
7600`` or ``NVIDIA H200``). A name is matched on whole words, the longest known name
first, so ``Radeon RX 7600 XT`` is not taken for ``Radeon RX 7600``. A name the table does
not know is a warning, not an error: add it here.

AMD targets from the ROCm 7.14 hardware tables and TheRock's SUPPORTED_GPUS (read late
2026); consumer RDNA2 cards (RX 6000) from the LLVM AMDGPU processor table; NVIDIA compute
capabilities from NVIDIA's CUDA GPUs page.
"""

from __future__ import annotations

import re

#: GPU name (lower case, as it appears inside the reported name) → target.
KNOWN: dict[str, str] = {
    # AMD Vega 20 (GCN 5.1)
    "radeon vii": "gfx906", "radeon pro vii": "gfx906", "instinct mi50": "gfx906", "instinct mi60": "gfx906",
    "radeon instinct mi50": "gfx906", "radeon instinct mi60": "gfx906",
    # AMD Instinct (CDNA)
    "instinct mi100": "gfx908", "instinct mi210": "gfx90a", "instinct mi250": "gfx90a", "instinct mi250x": "gfx90a",
    "instinct mi300x": "gfx942", "instinct mi300a": "gfx942", "instinct mi308x": "gfx942", "instinct mi325x": "gfx942",
    "instinct mi350x": "gfx950", "instinct mi355x": "gfx950",
    # AMD RDNA2
    "radeon rx 6950 xt": "gfx1030", "radeon rx 6900 xt": "gfx1030", "radeon rx 6800 xt": "gfx1030",
    "radeon rx 6800": "gfx1030", "radeon pro w6800": "gfx1030", "radeon pro v620": "gfx1030",
    "radeon rx 6750 xt": "gfx1031", "radeon rx 6700 xt": "gfx1031", "radeon rx 6700": "gfx1031",
    "radeon rx 6650 xt": "gfx1032", "radeon rx 6600 xt": "gfx1032", "radeon rx 6600": "gfx1032",
    "radeon rx 6500 xt": "gfx1034", "radeon rx 6400": "gfx1034",
    # AMD RDNA3
    "radeon rx 7900 xtx": "gfx1100", "radeon rx 7900 xt": "gfx1100", "radeon rx 7900 gre": "gfx1100",
    "radeon pro w7900": "gfx1100", "radeon pro w7800": "gfx1100",
    "radeon rx 7800 xt": "gfx1101", "radeon rx 7700 xt": "gfx1101", "radeon rx 7700": "gfx1101",
    "radeon pro w7700": "gfx1101", "radeon pro v710": "gfx1101",
    "radeon rx 7600 xt": "gfx1102", "radeon rx 7600": "gfx1102", "radeon pro w7600": "gfx1102",
    # AMD RDNA4
    "radeon rx 9070 xt": "gfx1201", "radeon rx 9070 gre": "gfx1201", "radeon rx 9070": "gfx1201",
    "radeon ai pro r9700": "gfx1201", "radeon rx 9060 xt": "gfx1200", "radeon rx 9060": "gfx1200",
    # AMD chip names, which some ROCm releases report instead of the card's
    "vega 20": "gfx906", "navi 21": "gfx1030", "navi 22": "gfx1031", "navi 23": "gfx1032",
    "navi 31": "gfx1100", "navi 32": "gfx1101", "navi 33": "gfx1102",
    # NVIDIA
    "v100": "sm_70", "t4": "sm_75", "quadro rtx 6000": "sm_75", "quadro rtx 8000": "sm_75",
    "a100": "sm_80", "a800": "sm_80", "a30": "sm_80",
    "a10": "sm_86", "a40": "sm_86", "rtx a6000": "sm_86", "rtx a5000": "sm_86", "rtx a4000": "sm_86",
    "rtx 3090": "sm_86", "rtx 3080": "sm_86", "rtx 3070": "sm_86", "rtx 3060": "sm_86",
    "l4": "sm_89", "l40": "sm_89", "l40s": "sm_89", "rtx 6000 ada": "sm_89",
    "rtx 4090": "sm_89", "rtx 4080": "sm_89", "rtx 4070": "sm_89", "rtx 4060": "sm_89",
    "h100": "sm_90", "h200": "sm_90", "h800": "sm_90", "gh200": "sm_90",
    "b100": "sm_100", "b200": "sm_100", "gb200": "sm_100",
    "rtx 5090": "sm_120", "rtx 5080": "sm_120", "rtx 5070": "sm_120",
}

_ORDER = sorted(KNOWN, key=len, reverse=True)
_PATTERNS = {name: re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])") for name in _ORDER}


def expected_arch(gpu_name: str | None) -> tuple[str, str] | None:
    """``("radeon rx 7600", "gfx1102")`` for ``"AMD Radeon RX 7600"``; None for a name not in `KNOWN`."""
    if not gpu_name:
        return None
    name = re.sub(r"\((?:tm|r)\)|[™®]", " ", gpu_name.lower())
    name = " ".join(name.split())
    for known in _ORDER:
        if _PATTERNS[known].search(name):
            return known, KNOWN[known]
    return None
