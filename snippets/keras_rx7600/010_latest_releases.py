"""The newest keras, torch and tensorflow on PyPI, against the versions these guides name.

PyPI's JSON API (https://pypi.org/pypi/NAME/json) gives a project's newest release in
``info.version``. When a new release comes out this block fails, naming it, so that the pages
are updated rather than continuing to name an old version as the newest.
"""

import json
import urllib.request

# The newest releases the guides name (PyPI, checked 6 December 2026)
NAMED = {"keras": "3.15.1", "torch": "2.15.0", "tensorflow": "2.21.0"}

newer = []
for name, named in NAMED.items():
    with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=30) as response:
        newest = json.load(response)["info"]["version"]
    print(f"{name}: newest on PyPI {newest}; the guides name {named}")
    if newest != named:
        newer.append(f"{name} {newest}")
assert not newer, f"PyPI has {', '.join(newer)}: update the versions the guides name"
#> keras: newest on PyPI 3.15.1; the guides name 3.15.1
#> torch: newest on PyPI 2.15.0; the guides name 2.15.0
#> tensorflow: newest on PyPI 2.21.0; the guides name 2.21.0
