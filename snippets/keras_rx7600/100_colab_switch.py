"""First cell for both places: Colab (TensorFlow) and home (PyTorch, ROCm)."""

import os
import sys

IN_COLAB = "google.colab" in sys.modules
os.environ["KERAS_BACKEND"] = "tensorflow" if IN_COLAB else "torch"

# At home, importing keras loads PyTorch, which has to come before TensorFlow (see the training script).
import keras
import tensorflow as tf

if not IN_COLAB:
    # At home TensorFlow only feeds data, on the CPU.
    tf.config.set_visible_devices([], "GPU")

keras.utils.set_random_seed(42)
print("Colab:", IN_COLAB, "| Keras backend:", keras.backend.backend())
