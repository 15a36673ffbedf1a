"""Which PyTorch build is installed, and which device will Keras 3 use?"""

import os

os.environ["KERAS_BACKEND"] = "torch"  # before the first `import keras`

import keras
import torch

# ROCm builds fill in torch.version.hip, NVIDIA builds torch.version.cuda.
print("torch:", torch.__version__)
print("torch.version.hip:", torch.version.hip)
print("torch.version.cuda:", torch.version.cuda)
print("torch.cuda.is_available():", torch.cuda.is_available())
print("GPU 0:", torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none")
print("keras:", keras.__version__, "| backend:", keras.backend.backend())
# Keras's default device: "cuda" on ROCm and on NVIDIA, "cpu" without a GPU.
print("Keras device:", keras.ops.zeros(()).device)
#> torch: ...
#> torch.version.hip: ...
#> torch.version.cuda: ...
#> torch.cuda.is_available(): ...
#> GPU 0: ...
#> keras: 3... | backend: torch
#> Keras device: ...
