"""What PyTorch and the system say when "no GPU" is the problem. Prints; never fails."""

# --8<-- [start:diagnose]
import glob
import os
import platform

import torch

print(f"PyTorch {torch.__version__}; HIP {torch.version.hip}; CUDA {torch.version.cuda}")
count = torch.cuda.device_count()
print(f"GPU visible to PyTorch: {torch.cuda.is_available()} ({count} device{'' if count == 1 else 's'})")
if torch.version.hip is None:
    print("-> not a ROCm build of PyTorch: install one from AMD's or PyTorch's ROCm index")
for name in ("HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
             "HSA_OVERRIDE_GFX_VERSION"):
    if name in os.environ:
        print(f"{name}={os.environ[name]!r} is set: it changes which GPU (or target) is seen")
if platform.system() == "Linux":
    import grp

    def group_of(path):
        try:
            return grp.getgrgid(os.stat(path).st_gid).gr_name
        except KeyError:
            return str(os.stat(path).st_gid)

    # ROCm opens these device nodes (not the /dev/dri directory, which every user can list)
    nodes = ["/dev/kfd"] + (sorted(glob.glob("/dev/dri/renderD*")) or ["/dev/dri/renderD*"])
    for path in nodes:
        if not os.path.exists(path):
            what = "no compute interface" if path == "/dev/kfd" else "no render node"
            print(f"{path}: missing ({what}: is the amdgpu kernel driver loaded?)")
        elif os.access(path, os.R_OK | os.W_OK):
            print(f"{path}: read-write for this user (group {group_of(path)})")
        else:
            print(f"{path}: NOT read-write for this user: it belongs to group {group_of(path)}")
    names = set()
    for gid in os.getgroups():
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            pass
    missing = [g for g in ("render", "video") if g not in names]
    if os.geteuid() == 0:
        print("running as root: the permissions above are not what a normal user gets")
    else:
        print("groups render and video: " + ("ok" if not missing else f"missing {missing}"))
# --8<-- [end:diagnose]
