"""Attention on the GPU: fused SDPA kernels, the plain math path, and attention slicing."""

import runpy
from pathlib import Path

import torch

# Run alone, first build what the earlier blocks of the page define.
globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("030_tiny_pipeline.py"))))
if not ON_GPU:  # the page runs this block on GPUs only
    print("attention memory is only worth measuring on a GPU; nothing to do here")
    raise SystemExit(0)

# --8<-- [start:attention]
import torch.nn.functional as F
from diffusers.models.attention_processor import AttnProcessor, AttnProcessor2_0
from torch.nn.attention import SDPBackend, sdpa_kernel

# 1. Which fused attention kernels does PyTorch have for this GPU (half precision)?
q = torch.randn(1, 8, 1024, 64, device=device, dtype=torch.float16)
for name, backend in (("flash", SDPBackend.FLASH_ATTENTION),
                      ("memory-efficient", SDPBackend.EFFICIENT_ATTENTION)):
    try:
        with sdpa_kernel(backend):
            F.scaled_dot_product_attention(q, q, q)
        available = "yes"
    except RuntimeError:
        available = "no"
    print(f"SDPA {name} kernel on this GPU: {available}")

# 2. Peak memory of the same generation with three ways of computing attention.
variants = {
    "sdpa": lambda: pipe.unet.set_attn_processor(AttnProcessor2_0()),  # diffusers' default
    "math": lambda: pipe.unet.set_attn_processor(AttnProcessor()),  # full attention matrix
    "sliced": lambda: pipe.enable_attention_slicing("max"),  # one head at a time
}
latents, peaks = {}, {}
for name, switch in variants.items():
    switch()
    latents[name], peaks[name] = measure(lambda: generate(pipe, steps=2))
pipe.unet.set_attn_processor(AttnProcessor2_0())  # back to the default

print(f"attention ({SIDE} px, guidance 7.5) | peak MiB")
for name, peak in peaks.items():
    print(f"{name:32} | {peak:8.1f}")
for name, peak in peaks.items():
    print(f"peak_mib_attn_{name}: {peak:.1f}")

# Same result, different memory: slicing trades speed for memory, not quality.
reference = latents["math"].float()
for name in ("sdpa", "sliced"):
    difference = (latents[name].float() - reference).abs().max().item()
    assert difference <= 1e-2 * reference.abs().max().item(), (name, difference)
assert peaks["sliced"] < peaks["math"], "slicing must lower the peak of the math path"
del q, latents, reference  # free what this block kept on the GPU
# --8<-- [end:attention]
