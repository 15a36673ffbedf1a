"""Train MobileNetV2 on Oxford-IIIT Pet with Keras 3 on the PyTorch backend.

    python 110_train_pets.py                         # GPU, if PyTorch sees one
    KERAS_TORCH_DEVICE=cpu python 110_train_pets.py  # same script, on the CPU

The first run downloads the data set into ./datasets (TFDS) and the ImageNet
weights (Keras). The setup and the training are pets_training.py's, loaded first.
"""

import runpy
from pathlib import Path

globals().update(runpy.run_path(str(Path(__file__).resolve().with_name("pets_training.py"))))

# --8<-- [start:script]
IMAGE_SIZE = 160
BATCH_SIZE = 32
EPOCHS = 3

# Train on the first 80% of the official train split, validate on the next
# 10%; the last 10% and the test split stay untouched for the final check.
(train_raw, val_raw), info = tfds.load(
    "oxford_iiit_pet:4.0.0",
    split=["train[:80%]", "train[80%:90%]"],
    as_supervised=True,
    with_info=True,
    data_dir="datasets",
)
train_and_measure(train_raw, val_raw, info, IMAGE_SIZE, BATCH_SIZE, EPOCHS, weights="imagenet")
# --8<-- [end:script]
