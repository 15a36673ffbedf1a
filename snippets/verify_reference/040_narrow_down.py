"""Reading a failure: what a wrong gradient looks like, and re-running one case under other flags.

Run alone: python 040_narrow_down.py (reference_check.py must sit in the same directory).
"""

from reference_check import ConvCase, backend_flags, conv_check, default_device, miopen_immediate_flag, report_conv

# --8<-- [start:broken]
import torch

device = default_device()
stem = ConvCase("RGB stem 7x7/2", 4, 3, (64, 64), 16, (7, 7), 2, 3)


class FlippedWeightGradConv(torch.autograd.Function):
    """A deliberately broken convolution: right output, right input gradient, but a
    weight gradient whose kernel comes back flipped, as a solver that confused
    correlation with convolution would return it. Training would not stop; this
    layer would just stop learning."""

    @staticmethod
    def forward(ctx, x, w, b):
        ctx.save_for_backward(x, w)
        return stem(x, w, b)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        grad_x = torch.nn.grad.conv2d_input(x.shape, w, grad, stem.stride, stem.padding)
        grad_w = torch.nn.grad.conv2d_weight(x, w.shape, grad, stem.stride, stem.padding)
        return grad_x, grad_w.flip(-1, -2), grad.sum((0, 2, 3))


(broken,) = conv_check(stem, device=device, conv=FlippedWeightGradConv.apply)
report_conv([broken], prefix="broken_checks")
bad = [name for name, error in broken.errors.items() if error > broken.tolerance]
print("outside tolerance:", ", ".join(bad))
assert bad == ["grad_weight"], "the comparison must catch the broken weight gradient, and only it"
# --8<-- [end:broken]

# --8<-- [start:flags]
# The same first-layer problem under every combination worth trying. On a healthy
# backend every row passes; on a faulty one, the rows that pass say where to look.
SETTINGS = [
    {},  # as configured
    {"benchmark": True},  # autotuning: cuDNN times its algorithms, MIOpen runs a full Find
    # On ROCm up to PyTorch 2.8 this is MIOpen's immediate mode (no Find at all);
    # from 2.9 on, MIOpen still runs its quick Find here (pytorch#158951).
    {"benchmark": False, "deterministic": True},
    {"allow_tf32": False},  # full float32 convolutions: cuDNN's TF32 off (NVIDIA GPUs with Tensor Cores)
    {"enabled": False},  # no cuDNN / MIOpen at all: PyTorch's own kernels
]
if miopen_immediate_flag():  # PyTorch 2.9+: immediate mode has a flag of its own
    SETTINGS.insert(3, {"immediate": True})
rechecks = conv_check(stem, device=device, runs=SETTINGS)
checked, passed = report_conv(rechecks, prefix="recheck_runs")
assert passed == checked, "some settings give a wrong convolution here: see the table"
# --8<-- [end:flags]

# --8<-- [start:which-flags]
# Which rows this PyTorch can try, checked against its version: this holds on any machine.
version = tuple(int(part) for part in torch.__version__.split("+")[0].split(".")[:2])
flag = "exists" if miopen_immediate_flag() else "does not exist"
print(f"PyTorch {torch.__version__}: torch.backends.miopen.immediate {flag}")
assert miopen_immediate_flag() == (version >= (2, 9)), "the flag arrived in PyTorch 2.9"
assert ({"immediate": True} in SETTINGS) == (version >= (2, 9))
if miopen_immediate_flag():
    import torch.backends.miopen

    assert torch.backends.miopen.immediate is False, "off unless you set it"
    with backend_flags(immediate=True):
        assert torch.backends.miopen.immediate is True
    assert torch.backends.miopen.immediate is False, "backend_flags restores it"
rows = [" ".join(f"{name}={value}" for name, value in row.items()) or "as configured" for row in SETTINGS]
print("rows tried here:", " | ".join(rows))
# --8<-- [end:which-flags]
