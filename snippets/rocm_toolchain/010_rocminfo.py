"""What rocminfo answers, and what it means: the first check when PyTorch sees no AMD GPU.

rocminfo (Linux) first checks that the amdgpu kernel driver is loaded and live
(/sys/module/amdgpu/initstate), then that this user can open /dev/kfd, and only then
lists the agents: the CPU and each GPU with its gfx target.
"""

import runpy
from pathlib import Path

globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("rocm_tools.py"))))

# --8<-- [start:rocminfo]
import os
import re
import subprocess
from pathlib import Path

answer = subprocess.run([rocm_tool("rocminfo")], capture_output=True, text=True, timeout=120)
said = re.sub(r"\x1b\[[0-9;]*m", "", answer.stdout)  # rocminfo colours its messages
first = next((line.strip() for line in said.splitlines() if line.strip()), "(nothing)")
print(f"rocminfo: {first} (exit status {answer.returncode})")

driver = Path("/sys/module/amdgpu/initstate")
# /sys/module is the host's even inside a container, so "NOT loaded" is about the host's driver.
if "NOT loaded" in first:
    print("the amdgpu kernel driver is not loaded: check `lsmod | grep amdgpu` and `sudo dmesg | grep -i amdgpu`")
elif "NOT live" in first:
    print("the amdgpu driver is loaded but did not start: `sudo dmesg | grep -i amdgpu` says why")
elif "Unable to open /dev/kfd" in said and not Path("/dev/kfd").exists():
    print("the driver runs, but /dev/kfd does not exist here: a container must be given the devices")
    print("(docker run --device=/dev/kfd --device=/dev/dri ...)")
elif "Unable to open /dev/kfd" in said:
    print("the driver runs, but this user cannot open /dev/kfd: join the render and video groups, then log in again")
else:
    print("GPU agents:", ", ".join(re.findall(r"^\s*Name:\s+(gfx\w+)", said, re.MULTILINE)) or "none")
# rocminfo's verdict must agree with the kernel's own state.
if not driver.exists():
    assert answer.returncode != 0 and "ROCk module is NOT loaded" in said, said
elif "live" in driver.read_text() and os.access("/dev/kfd", os.R_OK | os.W_OK):
    assert answer.returncode == 0, f"the driver is live and /dev/kfd opens, yet rocminfo failed:\n{said}"
# --8<-- [end:rocminfo]
