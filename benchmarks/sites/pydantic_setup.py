"""pydantic's doc-test set-up, for the engine's ``setup`` option: what pydantic's own test of its
docs (``tests/conftest.py`` and ``tests/test_docs.py``, run with pytest-examples) does around each
example, so that the examples print what their ``#>`` lines say:

- error messages without their documentation link (``PYDANTIC_ERRORS_INCLUDE_URL=false``);
- printed links to the errors' pages with the major version only (``errors.pydantic.dev/2/``);
- ``random.randint`` returning 3, and the clock stopped at 2032-01-02 03:04:05.000006 (time-machine,
  where it is installed).
"""

import builtins
import os
import random
import re
from datetime import datetime

os.environ["PYDANTIC_ERRORS_INCLUDE_URL"] = "false"
random.randint = lambda *args, **kwargs: 3

_print = builtins.print


def _print_major_version(*args, **kwargs):
    """pytest-examples' ``print_callback`` of pydantic: each argument printed with /2/ in its errors' links."""
    _print(*(re.sub(r"(https://errors.pydantic.dev)/.+?/", r"\1/2/", str(a)) for a in args), **kwargs)


builtins.print = _print_major_version

try:
    import time_machine
except ImportError:
    pass
else:
    time_machine.travel(datetime(2032, 1, 2, 3, 4, 5, 6).astimezone(), tick=False).start()
