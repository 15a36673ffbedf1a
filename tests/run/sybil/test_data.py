"""run.sybil.data: a data block passes where it parses, YAML tags and all."""

from __future__ import annotations

import pytest

from ruota_docs.blocks.block import Block
from ruota_docs.run.sybil.data import DataEvaluator


def data(code: str, fmt: str) -> Block:
    return Block(page="es/p.md", lang="es", line=3, fence_language=fmt, kind="data", code=code, data_format=fmt)


@pytest.mark.parametrize(("code", "fmt"), [
    ('{"a": [1, 2]}', "json"), ('a = 1\n[t]\nb = "x"\n', "toml"),
    ("site_name: x\nsite_url: !ENV [SITE_URL, 'https://x/']\nnav: !!python/name:os.getcwd\n", "yaml"),
    ("a: 1\n---\nb: 2\n", "yaml"),
])
def test_what_parses_passes(code, fmt):
    outcome = DataEvaluator().evaluate(None, data(code, fmt), None)
    assert (outcome.status, outcome.reason) == ("passed", f"valid {fmt}")


@pytest.mark.parametrize(("code", "fmt"), [("{bad", "json"), ("a = ", "toml"), ("a: [1\n", "yaml")])
def test_what_does_not_parse_fails_with_the_parsers_first_line(code, fmt):
    outcome = DataEvaluator().evaluate(None, data(code, fmt), None)
    assert outcome.status == "failed"
    assert outcome.reason.startswith(f"invalid {fmt}: ") and "\n" not in outcome.reason
    assert outcome.error
