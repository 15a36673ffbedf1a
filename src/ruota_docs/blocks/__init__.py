"""Docs → blocks: a page's code blocks as the site's own renderer renders them.

Reads the site's configuration, renders pages with its Markdown extensions, captures
each code block with its origin and directives. Imports nothing else of the package.
"""
