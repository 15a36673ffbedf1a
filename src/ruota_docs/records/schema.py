"""Limits every record shares: what the engine writes and what `record check` holds it to."""

#: Bytes of a block's output kept in the record; the middle of longer output is cut.
OUTPUT_LIMIT = 20_000
#: The note the engine puts where it cuts a long output, at its longest.
CUT_NOTE = 80
