"""Train MobileNetV2 on Oxford-IIIT Pet with Keras 3 on the PyTorch backend.

    python 060_train_pets.py                         # GPU, if PyTorch sees one
    KERAS_TORCH_DEVICE=cpu python 060_train_pets.py  # same script, on the CPU

The first run downloads the data set into ./datasets (TFDS) and the ImageNet
weights (Keras).
"""

import os

os.environ["KERAS_BACKEND"] = "torch"  # before the first `import keras`

import resource
import statistics
import time

import tensorflow as tf

tf.config.set_visible_devices([], "GPU")  # TensorFlow only feeds data (CPU)

import keras
import tensorflow_datasets as tfds
import torch

IMAGE_SIZE = 160
BATCH_SIZE = 32
EPOCHS = 3

keras.utils.set_random_seed(42)
# cuda on ROCm and NVIDIA; cpu with KERAS_TORCH_DEVICE=cpu.
device = keras.ops.zeros(()).device

# Train on the first 80 % of the official train split, validate on the next
# 10 %; the last 10 % and the test split stay untouched for the final check.
(train_raw, val_raw), info = tfds.load(
    "oxford_iiit_pet:4.0.0",
    split=["train[:80%]", "train[80%:90%]"],
    as_supervised=True,
    with_info=True,
    data_dir="datasets",
)


def prepare(image, label):
    image = tf.image.resize(image, (IMAGE_SIZE, IMAGE_SIZE))
    return image / 127.5 - 1.0, label  # MobileNetV2 wants pixels in [-1, 1]


AUTOTUNE = tf.data.AUTOTUNE
train = train_raw.map(prepare, num_parallel_calls=AUTOTUNE)
train = train.batch(BATCH_SIZE).prefetch(AUTOTUNE)
val = val_raw.map(prepare, num_parallel_calls=AUTOTUNE)
val = val.batch(BATCH_SIZE).prefetch(AUTOTUNE)

base = keras.applications.MobileNetV2(
    input_shape=(IMAGE_SIZE, IMAGE_SIZE, 3),
    include_top=False,
    weights="imagenet",
)
base.trainable = False  # transfer learning: only the new head learns
model = keras.Sequential(
    [
        base,
        keras.layers.GlobalAveragePooling2D(),
        keras.layers.Dropout(0.2),
        keras.layers.Dense(info.features["label"].num_classes),  # 37 breeds
    ]
)
model.compile(
    optimizer="adam",
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)


def wait_for_device():
    if device.type == "cuda":
        torch.cuda.synchronize(device)  # GPU work is asynchronous


class EpochTimer(keras.callbacks.Callback):
    """Wall time of each epoch, training and validation included."""

    def __init__(self):
        super().__init__()
        self.seconds = []

    def on_epoch_begin(self, epoch, logs=None):
        wait_for_device()
        self.start = time.perf_counter()

    def on_epoch_end(self, epoch, logs=None):
        wait_for_device()
        self.seconds.append(time.perf_counter() - self.start)


if device.type == "cuda":
    torch.cuda.reset_peak_memory_stats(device)
timer = EpochTimer()
history = model.fit(train, validation_data=val, epochs=EPOCHS,
                    callbacks=[timer], verbose=2)
assert all(w.value.device.type == device.type for w in model.weights)

# The first epoch also pays for one-off kernel compilation and search.
first, rest = timer.seconds[0], timer.seconds[1:]
print("device:", device)
print(f"first_epoch_seconds: {first:.2f}")
print(f"seconds_per_epoch: {statistics.mean(rest):.2f}")
print(f"val_accuracy: {history.history['val_accuracy'][-1]:.3f}")
if device.type == "cuda":
    # Peak of the tensor memory PyTorch allocated on the GPU.
    peak_mib = torch.cuda.max_memory_allocated(device) / 2**20
    print("memory_kind: gpu_max_allocated")
else:
    # Peak resident memory of the whole process (ru_maxrss is KiB on Linux).
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("memory_kind: process_peak_rss")
print(f"peak_memory_mib: {peak_mib:.1f}")
