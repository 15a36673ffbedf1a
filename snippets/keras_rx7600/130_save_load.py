"""Save a compiled Keras model as a .keras file and load it back."""

import os

os.environ["KERAS_BACKEND"] = "torch"  # before the first `import keras`

import keras
import numpy as np

keras.utils.set_random_seed(42)
model = keras.Sequential(
    [
        keras.layers.Input(shape=(32, 32, 3)),
        keras.layers.Conv2D(8, 3, activation="relu"),
        keras.layers.GlobalAveragePooling2D(),
        keras.layers.Dense(37),
    ]
)
model.compile(
    optimizer="adam",
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
images = np.random.default_rng(0).random((8, 32, 32, 3), dtype=np.float32)
labels = np.arange(8)
model.fit(images, labels, epochs=1, verbose=0)  # gives the optimizer a state

# Architecture, weights, compile() settings and optimizer state, in one file
# written to the current directory.
model.save("pets_classifier.keras")
restored = keras.models.load_model("pets_classifier.keras")

before = model.predict(images, verbose=0)
after = restored.predict(images, verbose=0)
np.testing.assert_allclose(after, before, rtol=1e-6, atol=1e-6)
assert int(restored.optimizer.iterations) == int(model.optimizer.iterations)
print("file size:", os.path.getsize("pets_classifier.keras"), "bytes")
print("restored weights on:", restored.weights[0].value.device)
print("optimizer:", type(restored.optimizer).__name__)
print("OK: same predictions after loading")
