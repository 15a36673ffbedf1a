"""Only meaningful on an AMD GPU with a ROCm build of PyTorch."""

import torch

assert torch.version.hip, "this is not a ROCm build of PyTorch"
props = torch.cuda.get_device_properties(0)
print("HIP", torch.version.hip)
print("gfx target:", props.gcnArchName.split(":")[0])
