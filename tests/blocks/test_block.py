"""blocks.block: a captured code block made into the block the engine runs, with its policy and options."""

from __future__ import annotations

import hashlib
from types import SimpleNamespace

import pytest

from ruota_docs.blocks import block as blocks
from ruota_docs.blocks.directives import Directive, DirectiveError


def captured(code="print(1)\n", language="python", directives=()):
    """What the capture hands over for one fenced block."""
    return SimpleNamespace(indented=False, fence_language=language, formatter="superfences", code=code, options={},
                           number=0, error=None, directives=list(directives), skip=None)


def build(c, **kw):
    return blocks.build(c, "es/p.md", "es", line=3, end_line=5, source="", code_origins=(), includes=(), extended=None, **kw)


def test_python_that_starts_with_a_prompt_is_a_doctest():
    assert build(captured()).kind == "python"
    assert build(captured(">>> 1 + 1\n2\n")).kind == "doctest"


def test_requirements_and_run_options_come_from_the_directives():
    b = build(captured(directives=[Directive("requires", "rocm", 1), Directive("run", 'timeout=60 id=train', 2)]))
    assert [str(r) for r in b.requirements] == ["rocm"]
    assert (b.options, b.block_id, b.error) == ({"timeout": "60", "id": "train"}, "train", None)


def test_a_bad_directive_makes_the_block_invalid_naming_its_line():
    b = build(captured(directives=[Directive("run", "colour=red", 2)]))
    assert (b.kind, b.error) == ("invalid", "es/p.md:2: unknown run: option 'colour'; known: safe, skip, reason, timeout, id, env, isolate")


def test_shell_needs_safe_or_a_reason_and_a_language_nobody_knows_needs_a_reason():
    assert "neither marked safe" in build(captured("ls\n", "bash")).error
    assert build(captured("ls\n", "bash", directives=[Directive("run", "safe", 2)])).error is None
    assert "has no run policy" in build(captured("x\n", "cobol")).error
    skipped = build(captured("x\n", "cobol", directives=[Directive("run", 'skip reason="old"', 2)]))
    assert (skipped.error, skipped.not_run_reason) == (None, "old")


def test_a_sites_policy_applies_where_no_directive_decided():
    show = SimpleNamespace(action="show", reason=None)
    skip = SimpleNamespace(action="skip", reason="installs things")
    run = SimpleNamespace(action="run", reason=None)
    assert build(captured("x\n", "cobol"), policies={"cobol": show}).kind == "shown"
    assert build(captured("ls\n", "bash"), policies={"bash": skip}).not_run_reason == "installs things"
    assert build(captured("ls\n", "bash"), policies={"bash": run}).options == {"safe": True}


@pytest.mark.parametrize(("args", "message"), [
    ("skip", "run: skip needs a reason"), ("timeout=0", "positive number"), ("timeout=soon", "positive number"),
])
def test_run_options_are_checked(args, message):
    with pytest.raises(DirectiveError, match=message):
        blocks.run_options(Directive("run", args, 4))


def test_the_signature_ignores_reasons_and_shown_code_but_not_run_code():
    a, b = build(captured()), build(captured())
    assert blocks.page_signature([a]) == blocks.page_signature([b])
    b.code = "print(2)\n"
    assert blocks.page_signature([a]) != blocks.page_signature([b])
    out1, out2 = build(captured("salida\n", "text")), build(captured("output\n", "text"))
    assert out1.shown_only and blocks.page_signature([out1]) == blocks.page_signature([out2])
    assert a.sha256 == hashlib.sha256(b"print(1)\n").hexdigest()


def test_pytest_examples_fence_attributes_are_read(tmp_path):
    from ruota_docs.blocks import renderer

    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.highlight\n"
                                         "  - pymdownx.superfences\n", encoding="utf-8")
    (tmp_path / "docs" / "p.md").write_text(
        '# P\n\n```python {test="skip" lint="skip"}\nprint(1)\n```\n\n```python {requires="3.12"}\nprint(2)\n```\n\n'
        '```python {lint="skip"}\nprint(3)\n```\n\n```python {requires="x.y"}\nprint(4)\n```\n', encoding="utf-8")
    blocks = renderer.render(tmp_path, tmp_path / "docs" / "p.md").blocks
    assert [b.not_run_reason for b in blocks] == ['marked test="skip" on its fence', None, None, None]
    assert [tuple(str(r) for r in b.requirements) for b in blocks][:3] == [(), ("python>=3.12",), ()]
    assert blocks[3].error.startswith("p.md:15: requires='x.y' on the fence: malformed version")


def test_evidence_is_read_after_every_requirement_and_a_bad_one_makes_the_block_invalid():
    b = build(captured(directives=[Directive("evidence", "checked", 1), Directive("requires", "gpu", 2)]))
    assert (b.evidence.tier, b.error) == ("checked", None)
    b = build(captured(directives=[Directive("evidence", "checked", 1)]))
    assert b.kind == "invalid" and b.error.startswith("es/p.md:1: evidence: checked is reached only on a card")


def test_a_declared_tier_changes_the_signature_and_no_declaration_leaves_it_as_it_was():
    plain = build(captured(directives=[Directive("requires", "import=triton", 1)]))
    compiled = build(captured(directives=[Directive("requires", "import=triton", 1),
                                          Directive("evidence", "compiled arch=gfx1102", 2)]))
    assert plain.identity() == ("python", "python", "print(1)\n", ("import=triton",), (), False)
    assert compiled.identity() == (*plain.identity(), "compiled", ("gfx1102",))


def test_a_block_knows_the_included_file_and_line_its_fence_is_written_at():
    assert build(captured()).written_in is None
    written = blocks.build(captured(), "es/p.md", "es", line=3, end_line=None, source="snippets/part.md:12",
                           code_origins=(), includes=(), extended=None)
    assert (written.written_in, written.where) == (("snippets/part.md", 12), "snippets/part.md:12")


def test_the_code_hash_follows_the_code():
    block = blocks.Block(page="es/p.md", lang="es", line=1, fence_language="python", kind="python", code="a = 1")
    first = block.sha256
    assert first == hashlib.sha256(b"a = 1").hexdigest() and block.sha256 == first
    block.code = "a = 2"
    assert block.sha256 == hashlib.sha256(b"a = 2").hexdigest()
