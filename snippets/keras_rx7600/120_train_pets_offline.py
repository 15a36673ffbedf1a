"""110_train_pets.py offline: the same pipeline, with nothing downloaded.

The only differences from the real script: TFDS serves random images with
the data set's exact spec (tfds.testing.mock_data), MobileNetV2 starts from
random weights (weights=None), and the images are smaller and the epochs
fewer, so that it runs in well under a minute on a CPU. It measures the same
things and prints them as `name: value` lines. The labels are random, so the
accuracy means nothing. The setup and the training are pets_training.py's,
loaded first.
"""

import runpy
from pathlib import Path

globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("pets_training.py"))))

# --8<-- [start:script]
IMAGE_SIZE = 64  # real script: 160
BATCH_SIZE = 32
EPOCHS = 2  # real script: 3
MOCK_EXAMPLES = 200  # images the mock serves to each split

# The mock serves MOCK_EXAMPLES random images to each split (it ignores the
# percentages) and downloads nothing.
with tfds.testing.mock_data(num_examples=MOCK_EXAMPLES):
    (train_raw, val_raw), info = tfds.load(
        "oxford_iiit_pet:4.0.0",
        split=["train[:80%]", "train[80%:90%]"],
        as_supervised=True,
        with_info=True,
    )
train_and_measure(train_raw, val_raw, info, IMAGE_SIZE, BATCH_SIZE, EPOCHS, weights=None)  # real script: "imagenet"
# --8<-- [end:script]
