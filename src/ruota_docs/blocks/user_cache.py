"""Where the engine keeps what it remembers between runs: ``$XDG_CACHE_HOME/ruota-docs/``
(``~/.cache/ruota-docs/`` by default). Each file there is keyed on what it depends on, so
deleting the folder is always safe. In the lowest stage so that every stage may use it."""

from __future__ import annotations

import os
from pathlib import Path


def path(name: str) -> Path:
    """The file or folder ``name`` in the engine's cache folder (nothing is created)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ruota-docs" / name
