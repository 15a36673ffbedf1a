"""Do AMD's wheel indexes for PyTorch on ROCm respond, and do they serve torch?

Each index is a "simple" repository (PEP 503): ``INDEX/torch/`` lists the torch wheels it
serves. The stable indexes must respond with ROCm builds of torch; the old nightly host is only
reported, since it stopped publishing on 22 August 2026 (ROCm/TheRock#7644).
"""

import re
import urllib.error
import urllib.parse
import urllib.request

INDEXES = {
    "ROCm 7.14, stable": "https://repo.amd.com/rocm/whl-multi-arch/",
    "ROCm 10.x, stable": "https://stable.repo.amd.com/rocm/whl-next/",
    "nightly": "https://nightly.repo.amd.com/rocm/whl-next/",
    "old nightly host, retired": "https://rocm.nightlies.amd.com/whl-multi-arch/",
}


def torch_versions(index: str) -> list[str] | None:
    """The ROCm builds of torch ``index`` lists; None where it does not respond."""
    try:
        with urllib.request.urlopen(index + "torch/", timeout=30) as response:
            page = response.read().decode("utf-8", "replace")
    except (urllib.error.URLError, TimeoutError) as error:
        print(f"{index}: no response ({error})")
        return None
    # wheel names as the page links them: torch-2.11.0+rocm7.14.0-cp312-…, the "+" often written %2B
    versions = re.findall(r"torch-(\d[^-/\"'<>]*?(?:\+|%2B)rocm[^-/\"'<>]*?)-", page)
    return list(dict.fromkeys(urllib.parse.unquote(v) for v in versions))  # in the page's order, once each


found = {}
for label, index in INDEXES.items():
    found[label] = torch_versions(index)
    if found[label] is not None:
        last = found[label][-1] if found[label] else "none"
        print(f"{label}: {index} lists {len(found[label])} ROCm builds of torch; the last: {last}")
for label in ("ROCm 7.14, stable", "ROCm 10.x, stable"):
    assert found[label] is not None, f"{INDEXES[label]} does not respond from this machine"
    assert found[label], f"{INDEXES[label]} serves no ROCm build of torch: the install commands need another index"
