"""Translations that cannot drift: parity with the source page, staleness, glossaries.

Imports only blocks.
"""
