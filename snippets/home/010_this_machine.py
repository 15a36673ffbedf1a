"""What this page runs on: the Python version and what PyTorch can see.

Runs everywhere: without torch it says so instead of failing.
"""

import importlib.util
import platform

system = f"{platform.system()} {platform.machine()}"
print("python:", platform.python_version(), "on", system)

if importlib.util.find_spec("torch") is None:
    print("torch: not installed (every GPU block will be skipped)")
    print("gpu: none visible (no torch)")
else:
    import torch

    if torch.version.hip:
        build = f"ROCm/HIP {torch.version.hip}"
    elif torch.version.cuda:
        build = f"CUDA {torch.version.cuda}"
    else:
        build = "CPU-only"
    print("torch:", torch.__version__, f"({build} build)")
    if torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        # ROCm names the gfx target (gfx906, gfx1102...);
        # CUDA gives a compute capability instead.
        if torch.version.hip:
            arch = props.gcnArchName.split(":")[0]
        else:
            arch = f"sm_{props.major}{props.minor}"
        print(f"gpu: {props.name}, {arch}, {props.total_memory / 2**30:.1f} GiB")
    else:
        print("gpu: none visible to PyTorch")
#> python: 3... on ...
#> torch: ...
#> gpu: ...
