"""Summing floats two ways, for the include examples of the authoring guide."""

# --8<-- [start:setup]
import math

values = [0.1] * 10
# --8<-- [end:setup]

# --8<-- [start:check]
naive = 0.0
for value in values:  # each addition rounds (since Python 3.12, sum() compensates)
    naive += value
exact = math.fsum(values)  # correctly rounded sum
print("sum:", naive, "fsum:", exact)
assert naive != exact and math.isclose(naive, exact, rel_tol=1e-15)
# --8<-- [end:check]
