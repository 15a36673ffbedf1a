"""Limits every record shares: what the engine writes and what `record check` holds it to.

The fields of an entry are `ruota_docs.records.ledger.ENTRY_FIELDS`; the reason codes an
entry's ``reason_code`` may hold are `ruota_docs.records.reason_codes.CODES`.
"""

#: Bytes of a block's output kept in the record; the middle of longer output is cut.
OUTPUT_LIMIT = 20_000
#: The note the engine puts where it cuts a long output, at its longest.
CUT_NOTE = 80
#: Bytes of a whole record: the engine writes about 85 KB for the whole site (one result per
#: code, each output once); a record several times larger holds what no run of it prints.
RECORD_LIMIT = 512 * 1024
