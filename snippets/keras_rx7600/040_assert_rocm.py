"""ROCm only: the installed torch is a ROCm build and it reaches the GPU."""

import torch

assert torch.version.hip is not None, (
    "this torch is not a ROCm build: install it from a ROCm index"
)
assert torch.cuda.is_available(), (
    "ROCm build, but no GPU visible: check /dev/kfd, the groups, the driver"
)

properties = torch.cuda.get_device_properties(0)
print("HIP:", torch.version.hip)
# gcnArchName is gfx1102 on an RX 7600.
print("GPU 0:", properties.name, "|", properties.gcnArchName)

# On ROCm the GPU keeps PyTorch's CUDA names: torch.cuda and "cuda:0".
ones = torch.ones(1024, device="cuda:0")
assert ones.sum().item() == 1024
print("OK: a kernel ran on cuda:0")
