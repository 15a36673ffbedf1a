"""Check a whole model once: its loss and every parameter's gradient against float64 on the CPU.

Run alone: python 030_check_model.py (reference_check.py must sit in the same directory).
"""

from reference_check import Result, backend_flags, default_device, precision_of, relative_error, report

# --8<-- [start:model]
import copy

import torch
from torch import nn


def check_model(model, inputs, targets, loss_fn, *, device, dtype=torch.float32):
    """One training step on the device in ``dtype`` against a float64 copy on the CPU.

    Run it once with the real input shape of every new model: each layer then sees
    the shapes it will see in training. cuDNN's TF32 is switched off for the step (matrix
    products keep their own flag, off by default), because its rounding compounds from
    layer to layer and the per-op tolerance would no longer apply; the per-op sweep above
    covers the TF32 case.
    """
    device = torch.device(device)
    with backend_flags(allow_tf32=False):
        on_device = copy.deepcopy(model).to(device=device, dtype=dtype).train()
        reference = copy.deepcopy(on_device).to("cpu", torch.float64)  # the same rounded weights
        x = inputs.to(device=device, dtype=dtype)
        loss = loss_fn(on_device(x), targets.to(device))
        ref_loss = loss_fn(reference(x.to("cpu", torch.float64)), targets)
        loss.backward()
        ref_loss.backward()
        precision = precision_of(dtype, device, "conv")
    shape = "x".join(map(str, inputs.shape))
    rows = [Result("loss", shape, precision, relative_error(loss, ref_loss))]
    for (name, p), q in zip(on_device.named_parameters(), reference.parameters()):
        rows.append(Result(f"grad {name}", "x".join(map(str, p.shape)), precision, relative_error(p.grad, q.grad)))
    return rows


# A small image classifier: 3-channel first layer, batch norm, smooth activations.
# ReLU and max pooling have kinks: an input within a rounding error of a kink can land
# on the other side of it on the GPU and get another gradient, a legitimate difference.
# And a convolution followed by batch norm gets no bias: batch norm cancels it, so its
# exact gradient is zero and a relative error against zero means nothing.
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.SiLU(),
    nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(32), nn.SiLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10),
).double()
generator = torch.Generator().manual_seed(1)
images = torch.randn(16, 3, 32, 32, generator=generator, dtype=torch.float64)
labels = torch.randint(0, 10, (16,), generator=generator)

rows = check_model(model, images, labels, nn.functional.cross_entropy, device=default_device())
checked, passed = report(rows, prefix="model_tensors")
assert passed == checked, "the model's training step differs from the reference: see the rows marked NO"
# --8<-- [end:model]
