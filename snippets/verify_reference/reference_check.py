"""Compare what a device computes with a float64 reference computed on the CPU.

Save this file as ``reference_check.py`` next to your own scripts and
``import reference_check``: importing it runs nothing. Running it
(``python reference_check.py``) prints the tolerance table it applies here.

The recipe, for every operation:

1. draw fresh random inputs from a seeded generator (float64, on the CPU);
2. round them to the dtype under test and move them to the device;
3. run the operation there, forward and backward;
4. run it again on the CPU in float64 on *the same rounded inputs*, so that the
   rounding of the inputs is not counted as an error of the operation;
5. compare with the relative error defined below, against a per-precision tolerance.
"""

from __future__ import annotations

import contextlib
import copy
import math
import warnings
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F

# PyTorch may warn once when the backward pass first reaches cuBLAS from its own thread; harmless.
warnings.filterwarnings("ignore", message="Attempting to run cuBLAS, but there was no current CUDA context")

#: The smallest positive normal float64: guards the division when the reference is all zeros.
TINY = torch.finfo(torch.float64).tiny

#: Unit roundoff u of each precision: the largest relative error of one rounding.
UNIT_ROUNDOFF = {
    "float64": 2.0**-53,  # 1.1e-16
    "float32": 2.0**-24,  # 6.0e-08
    "tf32": 2.0**-11,  # 4.9e-04: Tensor Cores keep 11 significant bits (10 stored) of each float32 input
    "float16": 2.0**-11,  # 4.9e-04
    "bfloat16": 2.0**-8,  # 3.9e-03
}

#: The largest relative error accepted for each precision (see the guide for the reasoning).
TOLERANCES = {
    "float64": 1e-10,
    "float32": 1e-4,
    "tf32": 2e-3,
    "float16": 5e-3,
    "bfloat16": 3e-2,
}

#: Operation families that NVIDIA GPUs may run with TF32 Tensor Cores on float32 data.
TF32_PATHS = ("matmul", "conv", "rnn")


def default_device() -> torch.device:
    """The GPU when PyTorch sees one (CUDA or ROCm: both are "cuda"), else the CPU."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def relative_error(actual: torch.Tensor, reference: torch.Tensor) -> float:
    """max|a - b| / max(max|b|, TINY), computed in float64 on the CPU.

    Normalising by the largest reference value (not element by element) keeps
    entries that are nearly zero from inflating the error, while an error
    anywhere in the tensor still counts in full. NaN or inf gives ``inf``.
    """
    a = actual.detach().to("cpu", torch.float64)
    b = reference.detach().to("cpu", torch.float64)
    if a.shape != b.shape:
        raise ValueError(f"shape mismatch: {tuple(a.shape)} vs {tuple(b.shape)}")
    if not torch.isfinite(a).all():
        return math.inf
    if a.numel() == 0:
        return 0.0
    scale = max(b.abs().max().item(), TINY)
    return (a - b).abs().max().item() / scale


def tf32_in_use(device: torch.device, path: str) -> bool:
    """Whether float32 work of this family may run as TF32 here.

    True only on NVIDIA GPUs of compute capability 8.0 or newer, and only where
    PyTorch allows it: cuDNN convolutions and RNNs by default
    (``torch.backends.cudnn.allow_tf32``), matrix products only when asked for
    (``torch.backends.cuda.matmul.allow_tf32``). ROCm builds report False.
    """
    device = torch.device(device)
    if device.type != "cuda" or torch.version.hip or path not in TF32_PATHS:
        return False
    if torch.cuda.get_device_capability(device) < (8, 0):
        return False
    if path == "matmul":
        return bool(torch.backends.cuda.matmul.allow_tf32)
    return bool(torch.backends.cudnn.enabled and torch.backends.cudnn.allow_tf32)


def precision_of(dtype: torch.dtype, device: torch.device, path: str = "other") -> str:
    """The row of TOLERANCES a check is judged by."""
    if dtype == torch.float32 and tf32_in_use(device, path):
        return "tf32"
    return str(dtype).removeprefix("torch.")


@dataclass
class Result:
    """One compared tensor: an output or a gradient."""

    op: str
    shape: str
    precision: str
    error: float | None  #: None when the device does not support the operation
    note: str = ""

    @property
    def tolerance(self) -> float:
        return TOLERANCES[self.precision]

    @property
    def supported(self) -> bool:
        return self.error is not None

    @property
    def ok(self) -> bool:
        return self.error is not None and self.error <= self.tolerance


def _unsupported(error: Exception) -> bool:
    text = str(error).lower()
    return any(words in text for words in ("not implemented", "not supported", "unsupported"))


def _failure(op, shape, precision, error: Exception) -> Result:
    """An operation that raised: "not supported here" is reported separately; anything else fails."""
    text = (str(error).strip().splitlines() or [type(error).__name__])[0][:60]
    if _unsupported(error):
        return Result(op, shape, precision, None, note=f"not supported here: {text}")
    return Result(op, shape, precision, math.inf, note=f"raised {type(error).__name__}: {text}")


def _shape_text(tensors) -> str:
    return ", ".join("x".join(str(n) for n in t.shape) or "scalar" for t in tensors)


def compare(op, fn, inputs, *, device, dtype, path="other", grads=(), seed=0, shape=None):
    """Run ``fn(*inputs)`` on the device in ``dtype`` and on the CPU in float64.

    ``inputs`` are float64 CPU tensors; ``grads`` names the gradients to compare,
    one name per input (``None`` for an input that needs none). Returns one
    :class:`Result` for the output and one per named gradient.
    """
    device = torch.device(device)
    precision = precision_of(dtype, device, path)
    shape = shape or _shape_text(inputs)
    wanted = list(grads) + [None] * (len(inputs) - len(grads))
    try:
        dev_in = [x.to(device=device, dtype=dtype, copy=True) for x in inputs]
        ref_in = [x.to("cpu", torch.float64, copy=True) for x in dev_in]  # the same rounded values
        for x, r, name in zip(dev_in, ref_in, wanted):
            if name:
                x.requires_grad_(True)
                r.requires_grad_(True)
        out = fn(*dev_in)
        ref = fn(*ref_in)
        rows = [Result(op, shape, precision, relative_error(out, ref))]
        if any(wanted):
            upstream = torch.randn(ref.shape, generator=torch.Generator().manual_seed(seed + 1), dtype=torch.float64)
            upstream_dev = upstream.to(device=device, dtype=dtype)
            out.backward(upstream_dev)
            ref.backward(upstream_dev.to("cpu", torch.float64))
            for x, r, name in zip(dev_in, ref_in, wanted):
                if name:
                    rows.append(Result(f"{op} {name}", shape, precision, relative_error(x.grad, r.grad)))
        return rows
    except (RuntimeError, NotImplementedError) as error:
        return [_failure(op, shape, precision, error)]


def compare_module(op, module, x, *, device, dtype, path="other", seed=0, output=lambda result: result):
    """Compare a module: its output, the gradient of its input, and the gradients of
    all its parameters (reported as one row: the worst parameter).

    The float64 reference is a copy of the *device* module converted back to
    float64, so both sides start from the same rounded weights.
    """
    device = torch.device(device)
    precision = precision_of(dtype, device, path)
    shape = _shape_text([x])
    try:
        dev_module = copy.deepcopy(module).to(device=device, dtype=dtype)
        ref_module = copy.deepcopy(dev_module).to("cpu", torch.float64)
        dev_x = x.to(device=device, dtype=dtype, copy=True).requires_grad_(True)
        ref_x = dev_x.detach().to("cpu", torch.float64, copy=True).requires_grad_(True)
        out = output(dev_module(dev_x))
        ref = output(ref_module(ref_x))
        upstream = torch.randn(ref.shape, generator=torch.Generator().manual_seed(seed + 1), dtype=torch.float64)
        upstream_dev = upstream.to(device=device, dtype=dtype)
        out.backward(upstream_dev)
        ref.backward(upstream_dev.to("cpu", torch.float64))
        worst = max(
            relative_error(p.grad, q.grad)
            for p, q in zip(dev_module.parameters(), ref_module.parameters())
        )
        return [
            Result(op, shape, precision, relative_error(out, ref)),
            Result(f"{op} grad_input", shape, precision, relative_error(dev_x.grad, ref_x.grad)),
            Result(f"{op} grad_weights", shape, precision, worst),
        ]
    except (RuntimeError, NotImplementedError) as error:
        return [_failure(op, shape, precision, error)]


def describe_device(device: torch.device) -> str:
    """One line saying what is compared, and in which TF32 mode."""
    device = torch.device(device)
    if device.type == "cpu":
        return f"device cpu, torch {torch.__version__}: float32 and lower precisions vs float64, both on the CPU"
    name = torch.cuda.get_device_name(device)
    if torch.version.hip:
        arch = torch.cuda.get_device_properties(device).gcnArchName
        return f"device {name} ({arch}), torch {torch.__version__}, HIP {torch.version.hip}"
    major, minor = torch.cuda.get_device_capability(device)
    return (
        f"device {name} (sm_{major}{minor}), torch {torch.__version__}, CUDA {torch.version.cuda}; "
        f"TF32 for cuDNN conv/RNN: {'on' if tf32_in_use(device, 'conv') else 'off'}, "
        f"for matmul: {'on' if tf32_in_use(device, 'matmul') else 'off'}"
    )


def report(results, prefix="ops") -> tuple[int, int]:
    """Print the table, the total and the metric lines; return (checked, within tolerance)."""
    w_op = max([len("op")] + [len(r.op) for r in results])
    w_shape = max([len("shape")] + [len(r.shape) for r in results])
    print(f"{'op':<{w_op}}  {'shape':<{w_shape}}  {'dtype':<8}  {'rel. error':>10}  {'tolerance':>9}  ok")
    for r in results:
        error = "n/a" if r.error is None else f"{r.error:.1e}"
        verdict = "n/a" if not r.supported else ("yes" if r.ok else "NO")
        line = f"{r.op:<{w_op}}  {r.shape:<{w_shape}}  {r.precision:<8}  {error:>10}  {r.tolerance:>9.0e}  {verdict}"
        print(line + (f"  ({r.note})" if r.note else ""))
    checked = [r for r in results if r.supported]
    passed = [r for r in checked if r.ok]
    skipped = len(results) - len(checked)
    worst = max((r.error / r.tolerance for r in checked), default=0.0)
    print()
    print(f"{len(passed)}/{len(checked)} within tolerance" + (f" ({skipped} not supported on this device)" if skipped else ""))
    print(f"{prefix}_checked: {len(checked)}")
    print(f"{prefix}_within_tolerance: {len(passed)}")
    print(f"{prefix}_unsupported: {skipped}")
    print(f"worst_error_to_tolerance: {worst:.3g}")
    return len(checked), len(passed)


def miopen_immediate_flag() -> bool:
    """Whether this PyTorch has ``torch.backends.miopen.immediate`` (PyTorch 2.9 and later).

    Up to PyTorch 2.8, ROCm builds put MIOpen in immediate mode when ``deterministic``
    was True and ``benchmark`` False; from 2.9 only this flag does (pytorch#158951).
    """
    try:
        import torch.backends.miopen as miopen
    except ImportError:
        return False
    return hasattr(miopen, "immediate")


@contextlib.contextmanager
def backend_flags(**settings):
    """Set backend flags for a block of code, then restore them.

    ``enabled``, ``benchmark``, ``deterministic`` and ``allow_tf32`` are the
    ``torch.backends.cudnn`` flags: they steer cuDNN on NVIDIA GPUs and MIOpen on ROCm
    (PyTorch keeps the cudnn names for both). ``immediate`` is
    ``torch.backends.miopen.immediate``, which only PyTorch 2.9 and later have.
    On the CPU none of them changes anything.
    """
    modules = {}
    for name in settings:
        if name == "immediate":
            if not miopen_immediate_flag():
                raise ValueError(f"immediate: torch.backends.miopen.immediate needs PyTorch 2.9 or later "
                                 f"(this is {torch.__version__})")
            modules[name] = torch.backends.miopen
        elif name in ("enabled", "benchmark", "deterministic", "allow_tf32"):
            modules[name] = torch.backends.cudnn
        else:
            raise ValueError(f"{name}: not a backend flag (expected enabled, benchmark, deterministic, "
                             "allow_tf32 or immediate)")
    saved = {name: getattr(modules[name], name) for name in settings}
    try:
        for name, value in settings.items():
            setattr(modules[name], name, value)
        yield
    finally:
        for name, value in saved.items():
            setattr(modules[name], name, value)


@dataclass(frozen=True)
class ConvCase:
    """One conv2d problem: batch, channels, image size, kernel and the rest."""

    label: str
    batch: int
    in_channels: int
    size: tuple
    out_channels: int
    kernel: tuple
    stride: int = 1
    padding: object = 0
    dilation: int = 1
    groups: int = 1

    def shapes(self):
        weight = (self.out_channels, self.in_channels // self.groups, *self.kernel)
        return (self.batch, self.in_channels, *self.size), weight, (self.out_channels,)

    def __call__(self, x, w, b):
        return F.conv2d(x, w, b, self.stride, self.padding, self.dilation, self.groups)

    def __str__(self):
        x, w, _ = self.shapes()
        return f"{'x'.join(map(str, x))} * {'x'.join(map(str, w))}"


@dataclass
class ConvResult:
    """Forward and gradient errors of one convolution under one set of backend flags."""

    case: ConvCase
    settings: dict
    precision: str
    errors: dict = field(default_factory=dict)  #: empty when the device does not support it
    note: str = ""

    @property
    def tolerance(self) -> float:
        return TOLERANCES[self.precision]

    @property
    def ok(self) -> bool:
        return bool(self.errors) and max(self.errors.values()) <= self.tolerance


CONV_TENSORS = ("output", "grad_input", "grad_weight", "grad_bias")


def conv_check(case, *, device, dtype=torch.float32, seed=0, runs=({},), conv=None):
    """Compare ``case`` on the device with float64 on the CPU, once per flag setting in ``runs``.

    The inputs and the upstream gradient are drawn once, so every run sees the same
    problem; ``conv`` replaces the convolution on the device side only (to test the test).
    """
    device = torch.device(device)
    generator = torch.Generator().manual_seed(seed)
    inputs = [torch.randn(s, generator=generator, dtype=torch.float64).to(dtype) for s in case.shapes()]
    rounded = [t.to(torch.float64, copy=True).requires_grad_(True) for t in inputs]
    out = case(*rounded)
    upstream = torch.randn(out.shape, generator=generator, dtype=torch.float64).to(dtype)
    out.backward(upstream.to(torch.float64))
    reference = [out.detach()] + [t.grad for t in rounded]
    results = []
    for settings in runs:
        with backend_flags(**settings):
            precision = precision_of(dtype, device, "conv")
            try:
                on_device = [t.to(device, copy=True).requires_grad_(True) for t in inputs]
                y = (conv or case)(*on_device)
                y.backward(upstream.to(device))
                got = [y.detach()] + [t.grad for t in on_device]
                errors = {name: relative_error(a, b) for name, a, b in zip(CONV_TENSORS, got, reference)}
                results.append(ConvResult(case, dict(settings), precision, errors))
            except (RuntimeError, NotImplementedError) as error:
                failed = _failure(case.label, str(case), precision, error)
                errors = {} if failed.error is None else {"output": math.inf}
                results.append(ConvResult(case, dict(settings), precision, errors, failed.note))
    return results


def report_conv(results, prefix="conv_checks") -> tuple[int, int]:
    """Print one row per convolution and flag setting, the total and the metric lines."""
    w_label = max([len("case")] + [len(r.case.label) for r in results])
    w_shape = max([len("input * weight")] + [len(str(r.case)) for r in results])
    w_flags = max([len("flags")] + [len(_flags_text(r.settings)) for r in results])
    names = "".join(f"{name:>12}" for name in CONV_TENSORS)
    print(f"{'case':<{w_label}}  {'input * weight':<{w_shape}}  {'flags':<{w_flags}}  {'dtype':<8}{names}  {'tolerance':>9}  ok")
    for r in results:
        errors = "".join(f"{r.errors[name]:>12.1e}" if name in r.errors else f"{'n/a':>12}" for name in CONV_TENSORS)
        verdict = "yes" if r.ok else ("n/a" if not r.errors else "NO")
        line = f"{r.case.label:<{w_label}}  {str(r.case):<{w_shape}}  {_flags_text(r.settings):<{w_flags}}  {r.precision:<8}{errors}  {r.tolerance:>9.0e}  {verdict}"
        print(line + (f"  ({r.note})" if r.note else ""))
    checked = [r for r in results if r.errors]
    passed = [r for r in checked if r.ok]
    worst = max((max(r.errors.values()) / r.tolerance for r in checked), default=0.0)
    print()
    print(f"{len(passed)}/{len(checked)} convolution checks within tolerance")
    print(f"{prefix}: {len(checked)}")
    print(f"{prefix}_within_tolerance: {len(passed)}")
    print(f"worst_error_to_tolerance: {worst:.3g}")
    return len(checked), len(passed)


def _flags_text(settings: dict) -> str:
    return " ".join(f"{name}={value}" for name, value in settings.items()) or "as configured"


def print_tolerances(device=None) -> None:
    """The tolerance table, and which precision float32 convolutions count as here."""
    device = torch.device(device or default_device())
    print(f"{'precision':<10} {'unit roundoff':>13} {'tolerance':>10} {'tolerance / u':>14}")
    for name, tolerance in TOLERANCES.items():
        u = UNIT_ROUNDOFF[name]
        print(f"{name:<10} {u:>13.1e} {tolerance:>10.0e} {tolerance / u:>14.3g}")
    print(describe_device(device))


if __name__ == "__main__":
    print_tolerances()
    #> precision  unit roundoff  tolerance  tolerance / u
    #> float64          1.1e-16      1e-10       9.01e+05
    #> float32          6.0e-08      1e-04       1.68e+03
    #> tf32             4.9e-04      2e-03            4.1
    #> float16          4.9e-04      5e-03           10.2
    #> bfloat16         3.9e-03      3e-02           7.68
    #> device ...
