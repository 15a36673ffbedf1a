"""What a seed fixes (initial weights, shuffling) and what it does not."""

import os

os.environ["KERAS_BACKEND"] = "torch"  # before the first `import keras`

import keras
import numpy as np

rng = np.random.default_rng(0)
images = rng.standard_normal((64, 16, 16, 3)).astype("float32")
labels = rng.integers(0, 4, size=64)


def build_and_train(seed):
    keras.utils.set_random_seed(seed)  # Python, NumPy and the backend at once
    model = keras.Sequential(
        [
            keras.layers.Input(shape=(16, 16, 3)),
            keras.layers.Conv2D(8, 3, activation="relu"),
            keras.layers.GlobalAveragePooling2D(),
            keras.layers.Dense(4),
        ]
    )
    model.compile(
        optimizer=keras.optimizers.SGD(learning_rate=0.1),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )
    initial = model.get_weights()
    model.fit(images, labels, batch_size=16, epochs=1, shuffle=True,
              verbose=0)
    return initial, model.get_weights()


initial_a, trained_a = build_and_train(42)
initial_b, trained_b = build_and_train(42)

same_start = all(np.array_equal(a, b) for a, b in zip(initial_a, initial_b))
assert same_start, "same seed, different initial weights"
print("same seed -> identical initial weights:", same_start)
# Usually 0.0 on a CPU; on a GPU, non-deterministic kernels may change the
# last bits.
largest = max(
    float(np.max(np.abs(a - b))) for a, b in zip(trained_a, trained_b)
)
print(f"largest weight difference after one epoch: {largest:.1e}")
