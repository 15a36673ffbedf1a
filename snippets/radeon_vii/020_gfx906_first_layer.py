"""On a gfx906 card: the first layer of an image network (3 input channels), forward and
backward, against float64 on the CPU, with MIOpen's autotuning off and on.

It needs a PyTorch build that runs on gfx906 (ROCm on Linux up to the releases that still
ship gfx906 kernels, or a build of your own on Windows). Anywhere else it stops at once.
"""

import torch
import torch.nn.functional as F

if not (torch.version.hip and torch.cuda.is_available()):
    raise SystemExit("this check needs PyTorch on ROCm with a visible GPU")
arch = torch.cuda.get_device_properties(0).gcnArchName
if arch.split(":")[0] != "gfx906":
    raise SystemExit(f"this check is written for gfx906; this GPU is {arch}")
print(f"{torch.cuda.get_device_name(0)} ({arch}), torch {torch.__version__}, MIOpen {torch.backends.cudnn.version()}")

TOLERANCE = 1e-4  # float32 against float64; ROCm convolutions do not use TF32
# (input shape, weight shape, stride, padding): the first layers of ResNet, a VGG-style network and MobileNet.
FIRST_LAYERS = [
    ((8, 3, 224, 224), (64, 3, 7, 7), 2, 3),
    ((8, 3, 64, 64), (32, 3, 3, 3), 1, 1),
    ((8, 3, 64, 64), (32, 3, 3, 3), 2, 1),
]


def relative_error(a, b):
    return ((a.double().cpu() - b).abs().max() / b.abs().max().clamp_min(1e-300)).item()


failures = 0
for number, (x_shape, w_shape, stride, padding) in enumerate(FIRST_LAYERS):
    g = torch.Generator().manual_seed(number)
    x, w, b = (torch.randn(s, generator=g, dtype=torch.float64).float() for s in (x_shape, w_shape, w_shape[:1]))

    def step(device, dtype, upstream=None):
        tensors = [t.to(device, dtype, copy=True).requires_grad_(True) for t in (x, w, b)]
        y = F.conv2d(*tensors, stride=stride, padding=padding)
        if upstream is None:
            upstream = torch.randn(y.shape, generator=g, dtype=torch.float64).float()
        y.backward(upstream.to(device, dtype))
        return [y.detach()] + [t.grad for t in tensors], upstream

    reference, upstream = step("cpu", torch.float64)
    for benchmark in (False, True):  # True: MIOpen's Find benchmarks its solvers and keeps the fastest
        torch.backends.cudnn.benchmark = benchmark
        results, _ = step("cuda", torch.float32, upstream)
        errors = [relative_error(r, ref) for r, ref in zip(results, reference)]
        ok = max(errors) <= TOLERANCE
        failures += not ok
        print(f"{x_shape} * {w_shape} stride {stride} benchmark={benchmark}: output {errors[0]:.1e}, "
              f"grad_input {errors[1]:.1e}, grad_weight {errors[2]:.1e}, grad_bias {errors[3]:.1e} "
              f"-> {'ok' if ok else 'WRONG'}")
torch.backends.cudnn.benchmark = False
assert failures == 0, f"{failures} first-layer runs outside {TOLERANCE:g}: switch off MIOpen's solver families one at a time (MIOPEN_DEBUG_CONV_*) to find the wrong one"
