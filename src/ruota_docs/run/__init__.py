"""Blocks → runs: the pytest plugin, Sybil's parsers and evaluators, one process per page.

Imports blocks and records; only the CLI and the tests import it, so the site never
reaches the runner.
"""
