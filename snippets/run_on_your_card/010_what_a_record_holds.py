"""What this machine's record says about the machine, and what the engine keeps out of it."""

import os

from ruota_docs.records import private_data
from ruota_docs.run.device import probe

# The machine as the record describes it: none of its fields holds a host name or a user name.
machine = probe().to_json()
for name, value in machine.items():
    if name != "packages":
        print(f"{name}: {value}")
print("packages:", ", ".join(f"{name} {version}" for name, version in sorted(machine["packages"].items())))
assert "hostname" not in machine and "user" not in machine

# What a block prints is scrubbed before it is written: the home directory becomes "~".
home = os.path.expanduser("~")
printed = f"model saved to {home}/models/pets.keras"
print("recorded as:", private_data.scrub(printed))
assert private_data.scrub(printed) == "model saved to ~/models/pets.keras"

# The record also notes whether the block ran as root (as_root). Started as root, the suite runs the
# pages as an unprivileged user, so this prints False unless it is given --run-as-root.
print("this block runs as root:", os.geteuid() == 0 if hasattr(os, "geteuid") else False)
