"""ruota-docs: a knowledge base in which every code block on every page is executed.

The package holds the snippet engine (blocks from the site's renderer, Sybil parsers and evaluators), the
device probe, the verification ledger, the translation checks, the MkDocs plugin and
the ``ruota-docs`` command.
"""

__version__ = "0.1.0"
