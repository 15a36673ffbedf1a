"""Device self-test: does the device compute what float64 on the CPU computes?

1. A float32 matrix product on the device, against float64 on the CPU.
2. A tiny Keras convnet (3 input channels, like an RGB first layer) trained
   for one epoch on the device, against the same net trained in float64 on
   the CPU from the same initial weights: the weight updates must agree
   within the stated tolerance.
"""

import os

os.environ["KERAS_BACKEND"] = "torch"  # before the first `import keras`

import keras
import numpy as np
import torch

# Where Keras puts new tensors: cuda (ROCm or NVIDIA) or cpu.
device = keras.ops.zeros(()).device
on_nvidia = device.type == "cuda" and torch.version.hip is None
ampere_or_later = on_nvidia and torch.cuda.get_device_capability(device)[0] >= 8
# On NVIDIA GPUs PyTorch lets cuDNN run float32 convolutions in TF32 by
# default; float32 matrix products stay in full float32 unless
# torch.set_float32_matmul_precision() allows TF32.
tf32_conv = ampere_or_later and torch.backends.cudnn.allow_tf32
tf32_matmul = ampere_or_later and torch.backends.cuda.matmul.allow_tf32
gpu = torch.cuda.get_device_name(device) if device.type == "cuda" else "CPU"
print("device:", device, "|", gpu)
print("TF32 convolutions:", tf32_conv, "| TF32 matmul:", tf32_matmul)

results = []


def relative_error(value, reference):
    value = np.asarray(value, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    return float(np.linalg.norm(value - reference) / np.linalg.norm(reference))


def check(what, error, tolerance):
    passed = error <= tolerance
    results.append(passed)
    verdict = "PASS" if passed else "FAIL"
    print(f"{what:<22} rel. error {error:.1e}  tol. {tolerance:.0e}  {verdict}")


# 1. Matrix product.
generator = torch.Generator().manual_seed(0)
a = torch.randn(1024, 1024, generator=generator)
b = torch.randn(1024, 1024, generator=generator)
product = (a.to(device) @ b.to(device)).cpu()
expected = a.double() @ b.double()
check("matmul 1024x1024", relative_error(product, expected),
      1e-3 if tf32_matmul else 1e-5)


# 2. One epoch of a small convolutional net.
def small_convnet(dtype, name):
    return keras.Sequential(
        [
            keras.layers.Input(shape=(16, 16, 3), dtype=dtype),
            keras.layers.Conv2D(8, 3, activation="relu", dtype=dtype,
                                name="conv"),
            keras.layers.GlobalAveragePooling2D(dtype=dtype, name="pool"),
            keras.layers.Dense(4, dtype=dtype, name="dense"),
        ],
        name=name,
    )


def train_one_epoch(model, images, labels, dtype):
    model.compile(
        optimizer=keras.optimizers.SGD(learning_rate=0.1),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                        dtype=dtype),
    )
    history = model.fit(images.astype(dtype), labels, batch_size=16,
                        epochs=1, shuffle=False, verbose=0)
    return history.history["loss"][0]


rng = np.random.default_rng(0)
images = rng.standard_normal((64, 16, 16, 3)).astype("float32")
labels = rng.integers(0, 4, size=64)

keras.utils.set_random_seed(42)
model = small_convnet("float32", "selftest")
initial = model.get_weights()
loss = train_one_epoch(model, images, labels, "float32")
assert all(w.value.device.type == device.type for w in model.weights), (
    "the weights are not on the selected device"
)

with keras.device("cpu"):
    reference = small_convnet("float64", "reference")
    reference.set_weights([w.astype("float64") for w in initial])
    reference_loss = train_one_epoch(reference, images, labels, "float64")

tolerance = 2e-3 if tf32_conv else 1e-4
for variable, start, trained, wanted in zip(
    model.weights, initial, model.get_weights(), reference.get_weights()
):
    start = start.astype(np.float64)
    check("update " + variable.path.split("/", 1)[1],
          relative_error(trained - start, wanted - start), tolerance)
print(f"loss after one epoch: {loss:.5f} (float64 CPU: {reference_loss:.5f})")

assert all(results), "the device disagrees with the float64 CPU reference"
print("self_test: PASS")
