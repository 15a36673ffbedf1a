"""ROCm: re-run the first-layer check under MIOpen environment variables, one process each.

MIOpen reads its variables when the process starts using it, so every setting gets a
fresh Python process. Run alone: python 050_miopen_bisect.py (reference_check.py must
sit in the same directory). Elsewhere than on ROCm the variables change nothing.
"""

from reference_check import TOLERANCES

# --8<-- [start:bisect]
import json
import os
import subprocess
import sys
import tempfile

# The child: the 7x7/2 first layer on 3 channels, autotuned (benchmark=True makes
# PyTorch call MIOpen's Find), forward and the three gradients against float64 on the CPU.
CHILD = r"""
import json, torch, torch.nn.functional as F
torch.backends.cudnn.benchmark = True
device = "cuda" if torch.cuda.is_available() else "cpu"
g = torch.Generator().manual_seed(0)
shapes = ((4, 3, 64, 64), (16, 3, 7, 7), (16,), (4, 16, 32, 32))
x, w, b, up = (torch.randn(s, generator=g, dtype=torch.float64).float() for s in shapes)

def run(dev, dtype):
    t = [v.to(dev, dtype, copy=True).requires_grad_(True) for v in (x, w, b)]
    y = F.conv2d(*t, stride=2, padding=3)
    y.backward(up.to(dev, dtype))
    return [y.detach().cpu().double()] + [v.grad.cpu().double() for v in t]

ref = run("cpu", torch.float64)
got = run(device, torch.float32)
print(json.dumps([((a - r).abs().max() / r.abs().max()).item() for a, r in zip(got, ref)]))
"""

FAMILIES = ("WINOGRAD", "IMPLICIT_GEMM", "GEMM", "DIRECT", "FFT")
SETTINGS = [("as installed (your own FindDb)", None, {})]
SETTINGS += [("fresh FindDb", "fresh", {}), ("fresh FindDb, MIOPEN_FIND_MODE=1", "fresh", {"MIOPEN_FIND_MODE": "1"})]
SETTINGS += [(f"fresh FindDb, MIOPEN_DEBUG_CONV_{f}=0", "fresh", {f"MIOPEN_DEBUG_CONV_{f}": "0"}) for f in FAMILIES]

tolerance = TOLERANCES["float32"]  # no TF32 on ROCm convolutions
rows, driver_commands = [], []
for label, database, variables in SETTINGS:
    with tempfile.TemporaryDirectory() as fresh_db:
        env = dict(os.environ, MIOPEN_ENABLE_LOGGING_CMD="1", **variables)
        if database == "fresh":  # an empty user database: no earlier Find result is reused
            env.update(MIOPEN_USER_DB_PATH=fresh_db, MIOPEN_DEBUG_DISABLE_FIND_DB="1")
        proc = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=900)
    if not driver_commands:
        driver_commands = sorted({line.split("MIOpenDriver", 1)[1].strip()
                                  for line in proc.stderr.splitlines() if "MIOpenDriver" in line})
    if proc.returncode != 0:  # e.g. no solver left for this problem once a family is off
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1][:70]
        rows.append((label, None, last))
        continue
    rows.append((label, json.loads(proc.stdout.strip().splitlines()[-1]), ""))

print(f"{'setting':<45}{'output':>10}{'grad_in':>10}{'grad_w':>10}{'grad_b':>10}  ok")
for label, errors, note in rows:
    if errors is None:
        print(f"{label:<45}{'-':>10}{'-':>10}{'-':>10}{'-':>10}  did not run: {note}")
    else:
        verdict = "yes" if max(errors) <= tolerance else "NO"
        print(f"{label:<45}" + "".join(f"{e:>10.1e}" for e in errors) + f"  {verdict}")
print("\nMIOpenDriver commands for this convolution (rerun them outside PyTorch):")
print("\n".join(f"  MIOpenDriver {command}" for command in driver_commands) or "  none logged")

ran = [errors for _, errors, _ in rows if errors is not None]
assert rows[0][1] is not None, f"the check did not run as installed: {rows[0][2]}"
assert all(max(errors) <= tolerance for errors in ran), "some settings give a wrong convolution: see the table"
# --8<-- [end:bisect]
