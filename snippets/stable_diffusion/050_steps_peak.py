"""Fewer steps: less total work, the same peak memory per step."""

import runpy
from pathlib import Path

# Run alone, first build what the earlier blocks of the page define.
globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("030_tiny_pipeline.py"))))

# --8<-- [start:steps]
results = {}
for steps in (2, 5, 10):
    with UNetCalls(pipe) as unet:
        _, peak = measure(lambda: generate(pipe, steps=steps))
    results[steps] = (len(unet.calls), unet.work, peak)
    assert len(unet.calls) == steps

print("steps | UNet calls | UNet work (latent px) | peak MiB")
for steps, (calls, work, peak) in results.items():
    shown = f"{peak:.1f}" if peak is not None else "not measured (CPU)"
    print(f"{steps:5} | {calls:10} | {work:21,} | {shown}")
for steps, (calls, work, peak) in results.items():
    print(f"unet_calls_steps_{steps}: {calls}")
    if peak is not None:
        print(f"peak_mib_steps_{steps}: {peak:.1f}")

# Work grows with the number of steps...
assert results[10][1] == 5 * results[2][1]
if ON_GPU:
    # ...the peak does not: each step frees its activations before the next one starts.
    peaks = [peak for _, _, peak in results.values()]
    assert max(peaks) - min(peaks) <= 0.02 * max(peaks), peaks
else:
    print("peak GPU memory is not measured on the CPU; only the work is counted here")
# --8<-- [end:steps]
