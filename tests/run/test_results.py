"""run.results: a block's outcome as the record's typed result."""

from __future__ import annotations

from ruota_docs.blocks.block import Block
from ruota_docs.records.reason_codes import reason
from ruota_docs.records.schema import BlockRef, Result
from ruota_docs.run.process.session import Outcome
from ruota_docs.run.results import block_ref, result_of


def block(**fields) -> Block:
    return Block(**{"page": "fr/p.md", "lang": "fr", "line": 12, "fence_language": "python", "kind": "python",
                    "code": "print(1)\n", "index": 2, "signature": "sig", "options": {"id": "one"}} | fields)


def test_the_block_is_named_by_page_language_index_and_line():
    assert block_ref(block()) == BlockRef("fr/p.md", "fr", 2) and block_ref(block()).line == 12


def test_a_block_written_in_an_included_markdown_file_is_named_at_that_file_and_line():
    """Its identity stays its page and index; where it is written is the file an include brought it from."""
    found = block_ref(block(source="snippets/part.md:7"))
    assert found == BlockRef("fr/p.md", "fr", 2) and (found.line, found.file) == (7, "snippets/part.md")
    # a file outside the project is not named in a record (its path would show the sender's folders)
    outside = block_ref(block(source="/home/someone/part.md:7"))
    assert (outside.line, outside.file) == (12, None)


def test_an_outcome_becomes_a_result_with_the_block_s_code_and_the_credit_it_has():
    found = result_of(block(), Outcome("passed", "1\n", 0.123456, as_root=False, reused_from="es/p.md",
                                       ran_at="2026-12-01T10:00:00Z"), None, 9.0)
    assert found == Result(fence_language="python", sha256=block().sha256, block_id="one", outcome="passed", duration=0.1235,
                           output="1\n", ran_at="2026-12-01T10:00:00Z", reused_from="es/p.md", signature="sig",
                           as_root=False)


def test_a_skip_carries_its_code_and_its_english():
    code = reason("shown_only", kind="text")
    found = result_of(block(), Outcome("skipped", code=code), None, 0.0)
    assert (found.outcome, found.reason, found.reason_code) == ("skipped", code.english(), code.to_record())
    assert found.ran_at is not None and found.ran_at.endswith("Z")


def test_an_updated_block_is_recorded_with_the_code_it_has_now():
    found = result_of(block(), Outcome("passed", code=reason("outputs_updated"), sha256="f" * 64), None, 0.0)
    assert found.sha256 == "f" * 64 and found.reason_code == {"code": "outputs_updated", "args": {}}


def test_no_outcome_is_the_engine_s_own_failure_on_the_block():
    found = result_of(block(), None, "KeyError: 'x'", 0.5)
    assert (found.outcome, found.duration, found.output) == ("error", 0.5, "")
    assert found.reason_code == {"code": "problem", "args": {"message": "KeyError: 'x'"}}
