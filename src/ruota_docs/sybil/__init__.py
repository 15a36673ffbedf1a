"""The snippet engine: Sybil lexers, parsers and evaluators for the knowledge base.

``conftest.py`` at the repository root builds the Sybil with :func:`make_sybil`.
"""

from .parsers import make_sybil

__all__ = ["make_sybil"]
