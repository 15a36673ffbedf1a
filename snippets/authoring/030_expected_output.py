"""Expected output: the #> lines under a print state what it prints, and are checked."""

import sys

print(0.1 + 0.2)
#> 0.30000000000000004
print(f"{0.1 + 0.2:.2f}")
#> 0.30
# what changes from machine to machine is written as ...
print(f"python {sys.version_info.major}.{sys.version_info.minor} on {sys.platform}")
#> python 3... on ...
