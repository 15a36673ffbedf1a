"""`ruota-docs record check` on a small record with three problems, in a throwaway project."""

import contextlib
import hashlib
import io
from pathlib import Path

from ruota_docs import Record, main

# A project with one page of two blocks, in the current directory (a temporary one when the site runs it).
Path("mkdocs.yml").write_text("site_name: demo\ndocs_dir: docs\ntheme:\n  name: mkdocs\n  locale: es\n")
Path("docs/es").mkdir(parents=True, exist_ok=True)
Path("docs/es/demo.md").write_text("# Demo\n\n```python\nprint('saved')\n```\n\n```python\nprint(2 + 2)\n```\n")


def entry(index: int, code: str, output: str) -> dict:
    return {"page": "es/demo.md", "lang": "es", "index": index, "line": 3 + 4 * index, "language": "python",
            "sha256": hashlib.sha256(code.encode()).hexdigest(), "id": None, "outcome": "passed", "reason": None,
            "error": None, "duration": 0.01, "output": output, "ran_at": "2026-11-20T10:00:00Z",
            "reused_from": None, "signature": None, "as_root": False}


record = {
    "schema": 3, "kind": "ruota-docs/ledger", "machine_id": "rocm-gfx1102", "updated": "2026-11-20T10:00:00Z",
    "provenance": {"kind": "sent", "commit": None},
    "machine": {"backend": "rocm", "gpu_name": "AMD Radeon RX 7600", "arch": "gfx1102", "vram_bytes": 8 * 2**30,
                "gpu_count": 1, "os": "linux", "machine": "x86_64", "python": "3.12.3", "torch": "2.9.1+rocm6.4",
                "hip": None, "cuda": None, "packages": {}, "machine_id": "rocm-gfx1102"},  # no HIP version
    "blocks": {
        "es/demo.md#0": entry(0, "print('saved')", "saved to /home/ada/models\n"),  # a home directory
        "es/demo.md#1": entry(1, "print(1 + 1)", "2\n"),  # code that has changed since
    },
}
Path("verification").mkdir(exist_ok=True)
# Written as the engine writes it: the language copies of a block share one result, and each output is stored once.
Path("verification/rocm-gfx1102.json").write_text(Record.from_dict(record).to_json())

report = io.StringIO()
with contextlib.redirect_stdout(report):
    status = main(["--root", ".", "record", "check", "verification/rocm-gfx1102.json"])
print(report.getvalue(), end="")
print("exit status", status)
#> verification/rocm-gfx1102.json: machine.hip: error: no HIP version (torch.version.hip): a ROCm machine must record it
#> verification/rocm-gfx1102.json: es/demo.md#1: warning: stale: the code of block 1 (line 7) has changed since it ran
#>   hint: The site marks this block “Not yet verified” until the page runs again on the machine that wrote this record.
#> verification/rocm-gfx1102.json: es/demo.md#0.output: error: contains a home directory (/home/<a…>)
#>   hint: Run the page again on the machine that wrote this record (the engine masks its user and host names), or remove the text and run `ruota-docs record migrate` on the record. If the docs print this text on purpose, add it to allow_private in mkdocs.yml.
#> verification/rocm-gfx1102.json: 2 entries, 1 stale, 2 errors, 1 warning
#> REFUSED: 1 record, 2 entries (1 stale); 2 errors, 1 warning
#> exit status 1
lines = report.getvalue().splitlines()
assert status == 1 and lines[-1].startswith("REFUSED: 1 record, 2 entries (1 stale); 2 errors")
assert any("machine.hip: error" in line for line in lines)
assert any("es/demo.md#0.output: error: contains a home directory" in line for line in lines)
assert any("es/demo.md#1: warning: stale" in line for line in lines)
