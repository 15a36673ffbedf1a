"""A machine as a record names it: backend, GPU, target, memory, system and versions.

The model is `ruota_docs.records.schema.Machine` (a record's ``machine``); the probe that
describes this machine runs with the suite (`ruota_docs.run.device`). ``Device`` is the name the
run stage knew it by, kept for code written against it.
"""

from __future__ import annotations

from ruota_docs.records.schema import BACKENDS, Backend, Machine, slug

Device = Machine

__all__ = ["BACKENDS", "Backend", "Device", "Machine", "slug"]
