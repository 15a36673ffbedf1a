"""The reference method on the tiny pipeline: does the GPU compute what the CPU computes?

Each component (text encoder, UNet, VAE decoder) runs once on the GPU in the precision the
page uses there (float16) and once on the CPU in float64, with the same weights and the same
inputs already rounded to float16; then a whole generation of 4 steps from the same initial
latents. The error is the one of "Verify against a reference": max|gpu - cpu| / max|cpu|.
"""

import runpy
from pathlib import Path

import torch

# Run alone, first build what the earlier blocks of the page define.
globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("030_tiny_pipeline.py"))))
if not ON_GPU:  # the page runs this block on GPUs only
    print("there is no GPU to compare with the CPU here; nothing to do")
    raise SystemExit(0)

# --8<-- [start:compare]
import copy

# About 20 units of float16's rounding (4.9e-4): a network computed correctly stays a few
# units off the reference; a kernel that computes something else is off by something of order 1.
TOLERANCE = 1e-2

reference = copy.deepcopy(pipe).to("cpu")  # the same weights, as rounded on the GPU...
for model in (reference.text_encoder, reference.unet, reference.vae):
    model.double()  # ...computed in float64
cpu = torch.Generator().manual_seed(1)


def fresh(*shape):
    """Random inputs drawn in float64 on the CPU and rounded to the GPU's precision."""
    return torch.randn(*shape, generator=cpu, dtype=torch.float64).to(dtype)


def relative_error(on_gpu, on_cpu):
    return ((on_gpu.double().cpu() - on_cpu).abs().max() / on_cpu.abs().max()).item()


def both(run):
    """``run(pipeline, device, precision)`` on the GPU pipeline and on its CPU reference."""
    with torch.no_grad():
        return run(pipe, device, dtype), run(reference, "cpu", torch.float64)


tokens = pipe.tokenizer([PROMPT, ""], padding="max_length", max_length=77, return_tensors="pt").input_ids
context = fresh(2, 77, pipe.text_encoder.config.hidden_size)
latents = fresh(2, 4, SIDE // 8, SIDE // 8)
start = fresh(1, 4, SIDE // 8, SIDE // 8)
checks = {
    "text encoder": both(lambda p, dev, dt: p.text_encoder(tokens.to(dev))[0]),
    "UNet": both(lambda p, dev, dt: p.unet(latents.to(dev, dt), 500, context.to(dev, dt)).sample),
    "VAE decoder": both(lambda p, dev, dt: p.vae.decode(latents.to(dev, dt)).sample),
    "generation, 4 steps": both(lambda p, dev, dt: p(
        PROMPT, height=SIDE, width=SIDE, num_inference_steps=4, guidance_scale=7.5,
        latents=start.to(dev, dt), output_type="latent").images),
}

print(f"GPU ({dtype}) against the CPU (float64), {SIDE} px")
failures = []
for name, (on_gpu, on_cpu) in checks.items():
    error = relative_error(on_gpu, on_cpu)
    verdict = "ok" if error <= TOLERANCE else "WRONG"
    print(f"{name:20} rel. error {error:.1e}  tol. {TOLERANCE:.0e}  {verdict}")
    if verdict != "ok":
        failures.append(name)
assert not failures, f"the GPU disagrees with the CPU on: {', '.join(failures)}"
del reference, checks  # the CPU copy is no longer needed
# --8<-- [end:compare]
