"""What PyTorch and the system say when "no GPU" is the problem. Prints; never fails."""

# --8<-- [start:diagnose]
import os
import platform

import torch

print(f"PyTorch {torch.__version__}; HIP {torch.version.hip}; CUDA {torch.version.cuda}")
print(f"GPU visible to PyTorch: {torch.cuda.is_available()} ({torch.cuda.device_count()} devices)")
if torch.version.hip is None:
    print("-> not a ROCm build of PyTorch: install one from AMD's or PyTorch's ROCm index")
for name in ("HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
             "HSA_OVERRIDE_GFX_VERSION"):
    if name in os.environ:
        print(f"{name}={os.environ[name]!r} is set: it changes which GPU (or target) is seen")
if platform.system() == "Linux":
    import grp

    for path in ("/dev/kfd", "/dev/dri"):
        state = "missing" if not os.path.exists(path) else (
            "accessible" if os.access(path, os.R_OK | os.W_OK) else "NOT accessible")
        print(f"{path}: {state}")
    names = set()
    for gid in os.getgroups():
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            pass
    missing = [g for g in ("render", "video") if g not in names]
    if os.geteuid() == 0:
        print("running as root: group membership does not matter")
    else:
        print("groups render and video: " + ("ok" if not missing else f"missing {missing}"))
# --8<-- [end:diagnose]
