--8<-- "inner.py"
outer = "o"
