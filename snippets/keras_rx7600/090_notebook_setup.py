"""First notebook cell: Keras on PyTorch, TensorFlow only for tf.data."""

import os

os.environ["KERAS_BACKEND"] = "torch"  # before anything imports keras

# PyTorch before TensorFlow, as in the training script: the other order can abort the process.
import keras
import torch
import tensorflow as tf

# TensorFlow only feeds data: keep it on the CPU, away from the GPU.
tf.config.set_visible_devices([], "GPU")

keras.utils.set_random_seed(42)
assert keras.backend.backend() == "torch", (
    "keras was imported before KERAS_BACKEND was set: restart the kernel"
)
gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none"
print("Keras backend:", keras.backend.backend())
print("GPUs visible to TensorFlow:", tf.config.get_visible_devices("GPU"))
print("Keras device:", keras.ops.zeros(()).device, "| GPU:", gpu)
