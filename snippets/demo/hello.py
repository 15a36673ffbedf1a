import os
# --8<-- [start:greet]
print("hello", os.getpid() > 0)
# --8<-- [end:greet]
x = 41
