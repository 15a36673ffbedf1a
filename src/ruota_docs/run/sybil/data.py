"""The evaluator of data blocks (JSON, TOML, YAML): parsed, never run."""

from __future__ import annotations

import json

from ruota_docs.blocks.block import Block
from ruota_docs.blocks.site_config import load_yaml
from ruota_docs.records.reason_codes import reason
from ruota_docs.run.process.session import Outcome
from ruota_docs.run.run_state import RunState
from ruota_docs.run.sybil.evaluators import BlockEvaluator


class DataEvaluator(BlockEvaluator):
    """A data block passes where it parses. YAML may use tags (MkDocs' ``!ENV``,
    ``!relative``, ``!!python/name:``): an excerpt of a mkdocs.yml is valid YAML."""

    def evaluate(self, example, block: Block, run: RunState) -> Outcome:
        what = block.data_format or block.fence_language
        try:
            if what == "json":
                json.loads(block.code)
            elif what == "toml":
                import tomllib  # noqa: PLC0415 — where a page has TOML

                tomllib.loads(block.code)
            else:
                load_yaml(block.code, documents=True)  # tags read as None: builds no objects
        except Exception as error:  # noqa: BLE001 — every parser error is the block's failure
            first = (str(error).splitlines() or [""])[0]
            return Outcome("failed", code=reason("data_invalid", format=what, error=first), error=str(error))
        return Outcome("passed", code=reason("data_valid", format=what))
