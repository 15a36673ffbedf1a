"""Collect every page under docs/ with the project's Sybil: each code block is a test."""

from pathlib import Path

from ruota_docs.run.sybil import make_sybil

pytest_collect_file = make_sybil(Path(__file__).parent).pytest()
