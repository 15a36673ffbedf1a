"""A throwaway site with one guide whose blocks reach each level of the card matrix, and records
of it: shared by the tests of site.evidence and site.matrix."""

from __future__ import annotations

from _support import synthetic_record, write_tree
from ruota_docs.blocks.terms import parse
from ruota_docs.records.schema import Machine
from ruota_docs.run.conditions import unmet

GUIDE = """\
    # Una guía: con subtítulo { #guide }

    ```python title="010_env.py"
    --8<-- "g/010_env.py"
    ```

    ```python title="020_self.py"
    --8<-- "g/020_self.py"
    ```

    ```python
    print("any machine")
    ```

    <!-- requires: rocm -->
    ```python
    print("ROCm only")
    ```

    <!-- requires: network -->
    ```python
    print("downloads")
    ```

    <!-- run: skip reason="instala paquetes" -->
    ```bash
    pip install x
    ```

    ```powershell
    Write-Output "Windows"
    ```
    """



TABLE = {"guides/g.md": {"environment": ("g/010_env.py",), "self_test": ("g/020_self.py",)}}



CPU = {"backend": "cpu", "gpu_name": None, "arch": None, "vram_bytes": None, "gpu_count": 0, "os": "linux",
       "machine": "x86_64", "python": "3.11.7", "torch": "2.13.0+cpu", "hip": None, "cuda": None, "packages": {},
       "machine_id": "cpu-x86_64"}



H200 = CPU | {"backend": "cuda", "gpu_name": "NVIDIA H200", "arch": "sm_90", "vram_bytes": 150_109_880_320, "gpu_count": 1,
              "torch": "2.11.0+cu130", "cuda": "13.0", "machine_id": "cuda-nvidia-h200"}



INDEX = {"env": 0, "self": 1, "any": 2, "rocm": 3, "network": 4, "skip": 5, "windows": 6}



def make_project(tmp_path):
    """The site, with its guide in the three languages."""
    files = {"snippets/g/010_env.py": "print('env ok')\n", "snippets/g/020_self.py": "print('self-test ok')\n"}
    files |= {f"docs/{lang}/guides/g.md": GUIDE for lang in ("es", "en", "fr")}
    return write_tree(tmp_path / "project", files, conftest=False)



def run_on(project, machine, **states) -> dict:
    """A record where every block passed except ``states`` (``rocm="skipped"``…), network and
    Windows blocks skipped as a real run skips them, and the author's skip skipped."""
    device = Machine(**{k: v for k, v in machine.items() if k != "machine_id"})

    def outcome(block):
        name = next(k for k, v in INDEX.items() if v == block.index)
        if name in states:
            return states[name], "", "requires something"
        if name in ("network", "windows", "skip"):
            return "skipped", "", unmet(parse("network"), device)
        if name == "rocm" and machine["backend"] != "rocm":
            return "skipped", "", unmet(parse("rocm"), device)
        return "passed", "ok\n", None
    return synthetic_record(project, machine, outcome)
