"""Operation sweep: every operation of a typical training step against a float64 CPU reference.

Run alone: python 010_op_sweep.py (reference_check.py must sit in the same directory).
"""

from reference_check import compare, compare_module, default_device, describe_device, report

# --8<-- [start:sweep]
import torch
import torch.nn.functional as F

SEED = 0
device = default_device()
print(describe_device(device))
print(f"seed {SEED}")
print()

LOW_PRECISION = (torch.float16, torch.bfloat16)
draws = 0


def randn(*shape):
    """Fresh float64 inputs on the CPU: every call seeds a new generator (SEED + 1, + 2, ...)."""
    global draws
    draws += 1
    return torch.randn(*shape, generator=torch.Generator().manual_seed(SEED + draws), dtype=torch.float64)


def well_conditioned(n, spd=False):
    """A fresh random n x n matrix whose singular values (eigenvalues if spd) span [1, 10]."""
    q1, _ = torch.linalg.qr(randn(n, n))
    q2 = q1 if spd else torch.linalg.qr(randn(n, n))[0]
    return q1 @ torch.diag(torch.linspace(1.0, 10.0, n, dtype=torch.float64)) @ q2.T


results = []


def check(op, fn, inputs, dtype=torch.float32, **options):
    results.extend(compare(op, fn, inputs, device=device, dtype=dtype, seed=SEED + 10_000 + len(results), **options))


# Matrix products, in every dtype a training step may use.
for dtype in (torch.float64, torch.float32) + LOW_PRECISION:
    check("matmul", torch.matmul, [randn(256, 256), randn(256, 256)], dtype, path="matmul")
for dtype in (torch.float32,) + LOW_PRECISION:
    check("bmm", torch.bmm, [randn(8, 64, 128), randn(8, 128, 64)], dtype, path="matmul")
check("linear", F.linear, [randn(64, 512), randn(256, 512), randn(256)],
      path="matmul", grads=("grad_input", "grad_weight", "grad_bias"))

# Convolutions: a middle layer, and a first layer with 3 input channels (RGB images).
conv3x3 = lambda x, w, b: F.conv2d(x, w, b, padding=1)  # noqa: E731
stem7x7 = lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=3)  # noqa: E731
check("conv2d 3x3", conv3x3, [randn(8, 16, 32, 32), randn(32, 16, 3, 3), randn(32)],
      path="conv", grads=("grad_input", "grad_weight", "grad_bias"))
check("conv2d 7x7/2 C_in=3", stem7x7, [randn(8, 3, 64, 64), randn(16, 3, 7, 7), randn(16)],
      path="conv", grads=("grad_input", "grad_weight", "grad_bias"))
for dtype in LOW_PRECISION:
    check("conv2d 3x3", conv3x3, [randn(8, 16, 32, 32), randn(32, 16, 3, 3), randn(32)], dtype, path="conv")

# Normalisations (batch statistics, as in training), pooling, activations.
check("batch_norm", lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
      [randn(8, 16, 32, 32), randn(16), randn(16)], grads=("grad_input", "grad_weight"))
check("layer_norm", lambda x, w, b: F.layer_norm(x, (256,), w, b),
      [randn(16, 128, 256), randn(256), randn(256)], grads=("grad_input", "grad_weight"))
check("max_pool2d 2x2", lambda x: F.max_pool2d(x, 2), [randn(8, 16, 32, 32)], grads=("grad_input",))
check("avg_pool2d 3x3/2", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1),
      [randn(8, 16, 32, 32)], grads=("grad_input",))
for name, activation in (("relu", F.relu), ("gelu", F.gelu), ("silu", F.silu)):
    check(name, activation, [randn(4096, 256)], grads=("grad_input",))

# Softmax and cross-entropy (the loss is a scalar: what is compared is its gradient with respect to the logits).
check("softmax", lambda x: F.softmax(x, dim=-1), [randn(64, 1000)], grads=("grad_input",))
targets = torch.randint(0, 1000, (64,), generator=torch.Generator().manual_seed(SEED))
check("cross_entropy", lambda x: F.cross_entropy(x, targets.to(x.device)), [randn(64, 1000)],
      grads=("grad_logits",))

# Attention, forward and backward.
check("sdpa", F.scaled_dot_product_attention,
      [randn(4, 8, 128, 64), randn(4, 8, 128, 64), randn(4, 8, 128, 64)], grads=("grad_q", "grad_k", "grad_v"))

# Recurrent layers: output, input gradient and the worst parameter gradient.
for name, layer in (("lstm", torch.nn.LSTM), ("gru", torch.nn.GRU)):
    torch.manual_seed(SEED + len(results))
    module = layer(input_size=32, hidden_size=64, num_layers=2, batch_first=True).double()
    results.extend(compare_module(name, module, randn(8, 20, 32), device=device, dtype=torch.float32,
                                  path="rnn", seed=SEED + len(results), output=lambda out: out[0]))


# Linear algebra in float32 and float64, on matrices whose condition number is 10.
# QR and SVD factors are unique only up to signs, so what is compared is what is unique:
# the reconstruction Q @ R (U @ diag(S) @ Vh), computed in float64 from the device's
# factors, the singular values, and for eigh the eigenvalues.
def qr_product(m):
    q, r = torch.linalg.qr(m)
    return q.double() @ r.double()


def svd_product(m):
    u, s, vh = torch.linalg.svd(m)
    return u.double() @ torch.diag(s.double()) @ vh.double()


for dtype in (torch.float32, torch.float64):
    check("linalg.solve", torch.linalg.solve, [well_conditioned(64), randn(64, 8)], dtype)
    check("linalg.inv", torch.linalg.inv, [well_conditioned(64)], dtype)
    check("linalg.cholesky", torch.linalg.cholesky, [well_conditioned(64, spd=True)], dtype)
    check("linalg.qr (Q @ R)", qr_product, [well_conditioned(64)], dtype)
    check("linalg.svd (values)", torch.linalg.svdvals, [well_conditioned(64)], dtype)
    check("linalg.svd (U S Vh)", svd_product, [well_conditioned(64)], dtype)
    check("linalg.eigh (values)", lambda m: torch.linalg.eigh(m).eigenvalues, [well_conditioned(64, spd=True)], dtype)

checked, passed = report(results)
assert passed == checked, f"{checked - passed} of {checked} checks outside tolerance: see the rows marked NO"
# --8<-- [end:sweep]
