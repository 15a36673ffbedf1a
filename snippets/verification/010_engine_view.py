"""How the engine sees this machine: what `requires:` is checked against."""

from ruota_docs.run.device import probe

device = probe()
print("machine id:", device.machine_id)
print("described as:", device.describe())
print("backend:", device.backend, "| os:", device.os, "| python:", device.python)
