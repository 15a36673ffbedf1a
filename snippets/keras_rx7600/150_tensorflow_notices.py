"""Which of TensorFlow's start-up notices each setting hides: each import runs in a fresh process,
since the settings are read only when TensorFlow loads."""

import os
import subprocess
import sys

# A distinctive part of each notice, as TensorFlow prints it.
NOTICES = {
    "oneDNN": "oneDNN custom operations are on",
    "processor instructions": "This TensorFlow binary is optimized",
    "CUDA libraries": "Could not find cuda drivers",
}
SETTINGS = {
    "no setting": {},
    "TF_CPP_MIN_LOG_LEVEL=2": {"TF_CPP_MIN_LOG_LEVEL": "2"},
    "... and TF_ENABLE_ONEDNN_OPTS=0": {"TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"},
}

for name, setting in SETTINGS.items():
    # In the setup cell's order: Keras on torch before TensorFlow (the other order can abort the process).
    started = subprocess.run(
        [sys.executable, "-c", "import keras, tensorflow"],
        env=os.environ | {"KERAS_BACKEND": "torch"} | setting, capture_output=True, text=True, check=True,
    )
    shown = [notice for notice, text in NOTICES.items() if text in started.stderr]
    print(f"{name:<32} {', '.join(shown) or 'no notice'}")
