"""Records → site: the MkDocs plugins and what they write into pages, in each language.

Imports blocks, records and translations (staleness only), never run.
"""
