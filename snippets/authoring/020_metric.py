"""Prints a metric line (`name: value unit`) that a chart: directive can plot."""

import time

n = 200_000
start = time.perf_counter()
total = sum(i * i for i in range(n))
elapsed_ms = (time.perf_counter() - start) * 1000
# closed form of 0² + 1² + … + (n-1)²
assert total == (n - 1) * n * (2 * n - 1) // 6
print(f"sum_of_squares_ms: {elapsed_ms:.2f} ms")
