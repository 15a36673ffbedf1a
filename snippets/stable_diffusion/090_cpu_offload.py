"""Model CPU offload: weights live in system memory and visit the GPU one model at a time."""

import importlib.util
import runpy
from pathlib import Path

import torch

# Run alone, first build what the earlier blocks of the page define.
globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("030_tiny_pipeline.py"))))
if not ON_GPU or importlib.util.find_spec("accelerate") is None:  # the page skips it there
    print("CPU offload needs a GPU and the accelerate package; nothing to do here")
    raise SystemExit(0)

# --8<-- [start:offload]
weights_mib = sum(p.numel() * p.element_size()
                  for model in (pipe.text_encoder, pipe.unet, pipe.vae)
                  for p in model.parameters()) / 2**20

_, peak_on_gpu = measure(lambda: generate(pipe, steps=2))
pipe.enable_model_cpu_offload()  # weights to system memory; each model visits the GPU in turn
_, peak_offloaded = measure(lambda: generate(pipe, steps=2))

print(f"weights of the three models: {weights_mib:.1f} MiB")
print(f"peak, everything on the GPU: {peak_on_gpu:.1f} MiB")
print(f"peak, model CPU offload:     {peak_offloaded:.1f} MiB")
print(f"weights_mib: {weights_mib:.1f}")
print(f"peak_mib_all_on_gpu: {peak_on_gpu:.1f}")
print(f"peak_mib_model_offload: {peak_offloaded:.1f}")
# Offload can only save what the weights of the idle models occupy; activations stay.
assert peak_offloaded < peak_on_gpu
assert peak_on_gpu - peak_offloaded <= weights_mib + 1
# --8<-- [end:offload]
