"""Runs → records: the verification record per machine, its schema, its check, and the
verdicts the site may draw from it. Imports only blocks.
"""
