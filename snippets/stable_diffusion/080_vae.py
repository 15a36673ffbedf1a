"""VAE decoding on the GPU: a batch at once versus slicing, a large image versus tiling."""

import runpy
from pathlib import Path

import torch

# Run alone, first build what the earlier blocks of the page define.
globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("030_tiny_pipeline.py"))))
if not ON_GPU:  # the page runs this block on GPUs only
    print("VAE memory is only worth measuring on a GPU; nothing to do here")
    raise SystemExit(0)

# --8<-- [start:vae]
vae = pipe.vae
factor = pipe.vae_scale_factor
generator = torch.Generator(device).manual_seed(0)


def random_latents(batch, side):
    return torch.randn(batch, 4, side // factor, side // factor, device=device, dtype=dtype,
                       generator=generator)


def decode(latents):
    return vae.decode(latents / vae.config.scaling_factor).sample


# Slicing: four images decoded together, then one at a time.
batch = random_latents(4, SIDE // 2)
whole, peak_batch = measure(lambda: decode(batch))
vae.enable_slicing()
sliced, peak_sliced = measure(lambda: decode(batch))
vae.disable_slicing()

# Tiling: one image decoded in one go, then in overlapping tiles.
single = random_latents(1, SIDE)
full, peak_full = measure(lambda: decode(single))
vae.enable_tiling()
tiled, peak_tiled = measure(lambda: decode(single))
vae.disable_tiling()

rows = {
    f"4 × {SIDE // 2} px, together": peak_batch,
    f"4 × {SIDE // 2} px, sliced": peak_sliced,
    f"1 × {SIDE} px, whole": peak_full,
    f"1 × {SIDE} px, tiled": peak_tiled,
}
print(f"{'VAE decode':<24} | peak MiB")
for label, peak in rows.items():
    print(f"{label:<24} | {peak:8.1f}")
print(f"peak_mib_vae_batch: {peak_batch:.1f}")
print(f"peak_mib_vae_sliced: {peak_sliced:.1f}")
print(f"peak_mib_vae_full: {peak_full:.1f}")
print(f"peak_mib_vae_tiled: {peak_tiled:.1f}")

# Slicing gives the same pixels; tiling blends tiles, so its pixels may differ at the seams.
assert torch.allclose(sliced.float(), whole.float(), atol=1e-2)
print(f"largest pixel change from tiling: {(tiled.float() - full.float()).abs().max().item():.3f}")
assert peak_sliced < peak_batch and peak_tiled < peak_full
del batch, whole, sliced, single, full, tiled  # free what this block kept on the GPU
# --8<-- [end:vae]
