"""Classifier-free guidance: how many UNet calls, on what batch, at guidance 1.0, 5 and 7.5."""

import runpy
from pathlib import Path

# Run alone, first build what the earlier blocks of the page define.
globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("030_tiny_pipeline.py"))))

# --8<-- [start:cfg]
STEPS = 4
rows = []
for scale in (1.0, 5.0, 7.5):
    with UNetCalls(pipe) as unet:
        _, peak = measure(lambda: generate(pipe, steps=STEPS, guidance_scale=scale))
    rows.append((scale, len(unet.calls), unet.batches, peak))

print("guidance | UNet calls | batch per call | peak MiB")
for scale, calls, batches, peak in rows:
    shown = f"{peak:.1f}" if peak is not None else "not measured (CPU)"
    print(f"{scale:8} | {calls:10} | {sorted(batches)!s:14} | {shown}")

for scale, calls, batches, peak in rows:
    assert calls == STEPS, "one UNet call per step, whatever the scale"
    # > 1: conditional and unconditional halves in ONE call on a doubled batch;
    # <= 1: the unconditional half is skipped altogether.
    assert batches == ({2} if scale > 1 else {1}), (scale, batches)

for scale, calls, batches, peak in rows:
    name = f"{scale:g}".replace(".", "_")  # 1, 5, 7_5
    print(f"unet_batch_cfg_{name}: {max(batches)}")
    if peak is not None:
        print(f"peak_mib_cfg_{name}: {peak:.1f}")
if ON_GPU:
    peaks = {scale: peak for scale, _, _, peak in rows}
    assert abs(peaks[5.0] - peaks[7.5]) <= 0.02 * peaks[7.5], "the value of the scale costs no memory"
    assert peaks[1.0] < peaks[5.0], "skipping the unconditional half lowers the peak"
else:
    print("peak GPU memory is not measured on the CPU: the counts above are the evidence here")
# --8<-- [end:cfg]
