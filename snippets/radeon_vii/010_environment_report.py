"""What this PyTorch runs on, and every setting that decides which convolution algorithm runs.

Runs anywhere: on a CPU-only machine it says so. On ROCm, PyTorch keeps the cuDNN names
(torch.backends.cudnn, torch.cuda) for MIOpen and HIP.
"""

import os
from pathlib import Path

import torch

print(f"torch {torch.__version__}")
if torch.version.hip:
    build = f"ROCm build (HIP {torch.version.hip})"
elif torch.version.cuda:
    build = f"CUDA build (CUDA {torch.version.cuda})"
else:
    build = "CPU-only build"
print(f"build: {build}")

if torch.cuda.is_available():
    props = torch.cuda.get_device_properties(0)
    arch = props.gcnArchName if torch.version.hip else f"sm_{props.major}{props.minor}"
    print(f"GPU 0: {props.name}, {arch}, {props.total_memory / 2**30:.1f} GiB")
    if torch.version.hip and arch.split(":")[0] == "gfx906":
        print("this is a Vega 20 (gfx906) card: Radeon VII, Radeon Pro VII or Instinct MI50/MI60")
else:
    print("GPU: none visible to PyTorch")

# cuDNN on NVIDIA, MIOpen on ROCm: the same flags steer both.
cudnn = torch.backends.cudnn
library = "MIOpen" if torch.version.hip else "cuDNN"
print(f"{library} available: {cudnn.is_available()}, version {cudnn.version() if cudnn.is_available() else '-'}")
for flag in ("enabled", "benchmark", "deterministic", "allow_tf32"):
    print(f"torch.backends.cudnn.{flag} = {getattr(cudnn, flag)}")
print(f"torch.backends.cuda.matmul.allow_tf32 = {torch.backends.cuda.matmul.allow_tf32}")
miopen = getattr(torch.backends, "miopen", None)  # PyTorch 2.9 and later
if miopen is not None and hasattr(miopen, "immediate"):
    print(f"torch.backends.miopen.immediate = {miopen.immediate}")

# MIOpen reads its settings from the environment of the process.
settings = {name: value for name, value in os.environ.items() if name.startswith("MIOPEN_")}
print("MIOPEN_* variables set:", ", ".join(f"{k}={v}" for k, v in sorted(settings.items())) or "none")

# Where MIOpen keeps compiled kernels and its user database by default (Linux paths,
# from MIOpen's documentation); the two variables move or switch them off.
home = Path.home()
for label, path, variable in (
    ("kernel cache", home / ".cache" / "miopen", "MIOPEN_DISABLE_CACHE"),
    ("user database", Path(os.environ.get("MIOPEN_USER_DB_PATH", home / ".config" / "miopen")), "MIOPEN_USER_DB_PATH"),
):
    state = "present" if path.exists() else "absent"
    print(f"MIOpen {label}: {path} ({state}; see {variable})")
