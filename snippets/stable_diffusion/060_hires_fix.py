"""HiRes Fix versus generating directly at the high resolution: peak memory and UNet work."""

import runpy
from pathlib import Path

# Run alone, first build what the earlier blocks of the page define.
globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("030_tiny_pipeline.py"))))

# --8<-- [start:hires]
import torch.nn.functional as F
from diffusers import StableDiffusionImg2ImgPipeline

STEPS = 20  # Automatic1111's default sampling steps
# Same weights, no copy.
img2img = StableDiffusionImg2ImgPipeline(**pipe.components, requires_safety_checker=False)
img2img.set_progress_bar_config(disable=True)


def hires_second_pass(latents, denoise):
    """Upscale the latents 2x (like A1111's "Latent" upscaler), then img2img at full size."""
    upscaled = F.interpolate(latents, scale_factor=2, mode="bilinear")
    return img2img(PROMPT, image=upscaled, strength=denoise, num_inference_steps=STEPS,
                   generator=torch.Generator(device).manual_seed(0),
                   output_type="latent").images


with UNetCalls(pipe) as direct:
    _, peak_direct = measure(lambda: generate(pipe, side=SIDE, steps=STEPS))
with UNetCalls(pipe) as first:
    low_res, peak_first = measure(lambda: generate(pipe, side=SIDE // 2, steps=STEPS))

second, peak_second = {}, {}
for denoise in (0.7, 0.35):  # A1111's default strength; a common lower choice
    with UNetCalls(pipe) as second[denoise]:
        _, peak_second[denoise] = measure(lambda: hires_second_pass(low_res, denoise))

print(f"path                       | UNet calls | work vs direct | peak MiB  ({SIDE} px target)")
paths = [("direct", direct, peak_direct), ("HiRes pass 1 (half side)", first, peak_first)]
paths += [(f"HiRes pass 2, denoise {d}", second[d], peak_second[d]) for d in (0.7, 0.35)]
for name, calls, peak in paths:
    shown = f"{peak:.1f}" if peak is not None else "not measured (CPU)"
    print(f"{name:26} | {len(calls.calls):10} | {calls.work / direct.work:14.2f} | {shown}")

work = {d: (first.work + second[d].work) / direct.work for d in (0.7, 0.35)}
print("unet_work_direct: 1.0")
print(f"unet_work_hires_0_7: {work[0.7]:.2f}")
print(f"unet_work_hires_0_35: {work[0.35]:.2f}")
assert [len(second[d].calls) for d in (0.7, 0.35)] == [14, 7]  # int(20 x denoise) steps
assert work[0.35] < work[0.7] < 1.0, "HiRes Fix saves work..."
if ON_GPU:
    print(f"peak_mib_direct: {peak_direct:.1f}")
    print(f"peak_mib_hires_pass1: {peak_first:.1f}")
    print(f"peak_mib_hires_pass2: {peak_second[0.7]:.1f}")
    assert peak_first < peak_direct
    assert peak_second[0.7] >= 0.9 * peak_direct, "...but not the peak: pass 2 runs at full size"
else:
    print("peak GPU memory is not measured on the CPU; the work ratios above are the evidence here")
# --8<-- [end:hires]
