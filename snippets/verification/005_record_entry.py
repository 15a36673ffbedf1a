"""One entry of a committed verification record, as the engine reads it from the file it wrote.

Run alone from the repository root: python snippets/verification/005_record_entry.py
"""

import json
import sys
from pathlib import Path

from ruota_docs.records.schema import ENTRY_FIELDS, OPTIONAL_FIELDS, Record

# sys.argv[0] is this file, under `python FILE` and under the suite alike, so the repository is two directories up.
root = Path(sys.argv[0]).resolve().parents[2]
# On disk, the es, en and fr copies of a block share one stored result. Record.to_dict() gives each copy its own entry.
record = Record.from_json((root / "verification" / "cpu-x86_64.json").read_bytes())
entry = record.to_dict()["blocks"]["es/index.md#0"]
assert list(entry) == [f for f in ENTRY_FIELDS if f in entry], "the record lists its fields in the model's order"
assert set(ENTRY_FIELDS) - set(entry) <= set(OPTIONAL_FIELDS), "only fields that do not apply or are newer than the record may be absent"

# Long values cut short, so the excerpt fits on the page: hashes to 6 characters, output to its first line.
# The isolation it ran under ("sandbox", "user", "none") depends on the machine, so it is printed separately.
shown = dict(entry, sha256=entry["sha256"][:6] + "…", signature=entry["signature"][:6] + "…",
             output=entry["output"].split("\n")[0] + "\n…")
isolation = shown.pop("isolation", None)
print(json.dumps({"es/index.md#0": shown}, indent=2, ensure_ascii=False))
#> {
#>   "es/index.md#0": {
#>     "page": "es/index.md",
#>     "lang": "es",
#>     "index": 0,
#>     "line": ...,
#>     "language": "python",
#>     "sha256": "...…",
#>     "id": null,
#>     "outcome": "passed",
#>     "reason": null,
#>     "error": null,
#>     "duration": ...,
#>     "output": "python: ...\n…",
#>     "ran_at": "...Z",
#>     "reused_from": null,
#>     "signature": "...…",
#>     "as_root": false,
#>     "reason_code": null
#>   }
#> }
print("isolation:", isolation)
#> isolation: ...
