"""ruota-docs: a knowledge base in which every code block on every page is executed.

The package holds the snippet engine (blocks from the site's renderer, Sybil parsers and evaluators), the
device probe, the verification records, the translation checks, the MkDocs plugins and
the ``ruota-docs`` command.

What a user may import is named here, in `__all__`, and nothing else:

- the record, what happened to each block of each page on one machine: `Record`, its `Result`
  per block, the `BlockRef` that says which block, the `Machine` it ran on, and `RecordError` for
  a record that cannot be read (`ruota_docs.records.schema`);
- the ``ruota-docs`` command, `main`;
- the MkDocs plugins: `LivePreviewPlugin` (``ruota_docs`` in mkdocs.yml) and `SitePlugin`
  (``ruota_docs_site``).

The pytest plugin is loaded by pytest itself (entry point ``pytest11``), never imported.
Every other module and name is internal: it may change in any release.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each public name and the module that defines it: imported when first asked for, so that
#: ``import ruota_docs`` (which pytest does in every run, for its plugin) imports nothing else.
_HOMES = {
    "BlockRef": "ruota_docs.records.schema",
    "LivePreviewPlugin": "ruota_docs.serve.plugin",
    "Machine": "ruota_docs.records.schema",
    "Record": "ruota_docs.records.schema",
    "RecordError": "ruota_docs.records.schema",
    "Result": "ruota_docs.records.schema",
    "SitePlugin": "ruota_docs.site.site_plugin",
    "main": "ruota_docs.cli",
}

__all__ = ["BlockRef", "LivePreviewPlugin", "Machine", "Record", "RecordError", "Result", "SitePlugin", "main"]

if TYPE_CHECKING:
    from ruota_docs.cli import main
    from ruota_docs.records.schema import BlockRef, Machine, Record, RecordError, Result
    from ruota_docs.serve.plugin import LivePreviewPlugin
    from ruota_docs.site.site_plugin import SitePlugin


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'ruota_docs' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
