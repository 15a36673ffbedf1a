"""What 110_train_pets.py and 120_train_pets_offline.py share: Keras 3 on the PyTorch
backend, the input pipeline, MobileNetV2 with a new head, and what is measured.

The guide shows each script with the sections of this file before its own code; run
alone, each script loads this file first, so that the script runs what the page shows.
"""

# --8<-- [start:setup]
import os

os.environ["KERAS_BACKEND"] = "torch"  # before the first `import keras`

import resource
import statistics
import time

# PyTorch first: if TensorFlow loads first, Triton (which PyTorch's GPU builds install)
# registers LLVM options TensorFlow has already registered, and the process aborts.
import keras
import torch

import tensorflow as tf

tf.config.set_visible_devices([], "GPU")  # TensorFlow only feeds data (CPU)

import tensorflow_datasets as tfds

keras.utils.set_random_seed(42)
# cuda on ROCm and NVIDIA; cpu with KERAS_TORCH_DEVICE=cpu.
device = keras.ops.zeros(()).device
# --8<-- [end:setup]


# --8<-- [start:train]
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


def train_and_measure(train_raw, val_raw, info, image_size, batch_size, epochs, weights):
    """Transfer learning: MobileNetV2 frozen, a new head for the dataset's labels; prints
    the time per epoch, the validation accuracy and the peak memory as `name: value` lines."""

    def prepare(image, label):
        image = tf.image.resize(image, (image_size, image_size))
        return image / 127.5 - 1.0, label  # MobileNetV2 wants pixels in [-1, 1]

    autotune = tf.data.AUTOTUNE
    train = train_raw.map(prepare, num_parallel_calls=autotune)
    train = train.batch(batch_size).prefetch(autotune)
    val = val_raw.map(prepare, num_parallel_calls=autotune)
    val = val.batch(batch_size).prefetch(autotune)

    base = keras.applications.MobileNetV2(
        input_shape=(image_size, image_size, 3),
        include_top=False,
        weights=weights,
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

    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
    timer = EpochTimer()
    history = model.fit(train, validation_data=val, epochs=epochs,
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
# --8<-- [end:train]
