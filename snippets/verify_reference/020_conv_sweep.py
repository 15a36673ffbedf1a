"""Convolution shape sweep, with the backend's autotuning on and off.

Run alone: python 020_conv_sweep.py (reference_check.py must sit in the same directory).
"""

from reference_check import ConvCase, conv_check, default_device, describe_device, report_conv

# --8<-- [start:sweep]
import torch

device = default_device()
print(describe_device(device))

CASES = [
    # label, batch, C_in, (H, W), C_out, kernel, stride, padding, dilation, groups
    ConvCase("RGB stem 7x7/2", 4, 3, (64, 64), 16, (7, 7), 2, 3),
    ConvCase("RGB 3x3", 4, 3, (32, 32), 16, (3, 3), 1, 1),
    ConvCase("RGB 3x3/2", 4, 3, (32, 32), 32, (3, 3), 2, 1),
    ConvCase("RGB 5x5 no padding", 4, 3, (28, 28), 8, (5, 5)),
    ConvCase("RGB 3x3, batch 1", 1, 3, (48, 40), 16, (3, 3), 1, 1),
    ConvCase("grey 3x3", 4, 1, (28, 28), 8, (3, 3), 1, 1),
    ConvCase("3x3", 4, 16, (32, 32), 32, (3, 3), 1, 1),
    ConvCase("3x3/2", 4, 32, (32, 32), 64, (3, 3), 2, 1),
    ConvCase("1x1", 4, 32, (16, 16), 64, (1, 1)),
    ConvCase("1x1/2", 4, 64, (16, 16), 32, (1, 1), 2),
    ConvCase("5x5", 4, 16, (24, 24), 16, (5, 5), 1, 2),
    ConvCase("1x7", 4, 16, (17, 17), 16, (1, 7), 1, (0, 3)),
    ConvCase("dilated 3x3", 4, 16, (32, 32), 16, (3, 3), 1, 2, 2),
    ConvCase("depthwise 3x3", 4, 32, (32, 32), 32, (3, 3), 1, 1, 1, 32),
    ConvCase("grouped 3x3 (4)", 4, 32, (32, 32), 32, (3, 3), 1, 1, 1, 4),
    ConvCase("odd size 3x3", 2, 8, (17, 23), 8, (3, 3), 1, 1),
]
# Autotuning off, then on: with benchmark=True cuDNN times its algorithms and MIOpen runs
# a full Find, so the algorithm that ends up running can change with the flag.
RUNS = ({"benchmark": False}, {"benchmark": True})
# float32 everywhere; float16 too on GPUs, where mixed-precision training runs convolutions in it.
DTYPES = (torch.float32, torch.float16) if device.type == "cuda" else (torch.float32,)

results = []
for dtype in DTYPES:
    for number, case in enumerate(CASES):
        results += conv_check(case, device=device, dtype=dtype, seed=number, runs=RUNS)

checked, passed = report_conv(results)
assert passed == checked, f"{checked - passed} of {checked} convolution checks outside tolerance"
# --8<-- [end:sweep]
