"""run.sybil.python: Python blocks run in the page's namespace with their #> lines checked; doctests too."""

from __future__ import annotations

from _support import evaluate_page, write_tree

PAGE = """\
# P

```python
total = 40 + 2
print(total)
#> 42
```

```python
print(total)
#> 43
```

```pycon
>>> total * 2
84
```

```python
import sys
print(sys.argv[0].endswith("p.md"), __name__)
#> True __main__
```
"""


def test_the_namespace_is_the_pages_and_outputs_are_checked(reader_tmp):
    root = write_tree(reader_tmp, {"docs/es/p.md": PAGE}, conftest=False)
    (first, ok), (second, wrong), (doctest, ok_doctest), (script, ok_script) = evaluate_page(root, "es/p.md")
    assert (ok, ok_doctest) == (None, None) and first.outcome.output == "42\n"
    assert wrong.startswith("SybilFailure") and "43" in wrong and "42" in wrong
    assert doctest.kind == "doctest"
    assert ok_script is None, ok_script  # a block runs as a reader's script: its file in argv, __main__
