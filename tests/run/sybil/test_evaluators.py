"""run.sybil.evaluators: what every block kind shares — requirements, the author's reasons, page problems —
and credit for a translation's identical block."""

from __future__ import annotations

from _support import evaluate_page, write_tree
from ruota_docs.run.run_state import RunState
from ruota_docs.run.settings import from_environment

PAGE = """\
# P

<!-- run: skip reason="instala paquetes" -->
```bash
apt-get install x
```

<!-- requires: rocm -->
```python
print("rocm")
```

```python
print("any")
```

```text
salida
```
"""


def test_a_block_is_skipped_with_the_authors_reason_or_the_requirement_this_machine_lacks(reader_tmp, monkeypatch):
    monkeypatch.setenv("RUOTA_DOCS_FAKE_DEVICE", "cpu")
    root = write_tree(reader_tmp, {"docs/es/p.md": PAGE}, conftest=False)
    (author, skipped), (rocm, unmet), (run, passed), (text, shown) = evaluate_page(root, "es/p.md")
    assert skipped == "SkipTest: not run: instala paquetes"
    assert unmet.startswith("SkipTest: requires ROCm; this machine: ")
    assert passed is None and run.outcome.output == "any\n"
    assert text.shown_only and shown == "SkipTest: not run: output or prose, not code"  # collected, never run


def test_a_page_problem_is_a_failing_example(reader_tmp):
    root = write_tree(reader_tmp, {"docs/es/p.md": "# P\n\n<!-- requires: rocm -->\nText.\n"}, conftest=False)
    ((problem, raised),) = evaluate_page(root, "es/p.md")
    assert raised.startswith("SybilFailure") and "is not directly followed by a code block" in raised


def test_an_identical_translation_is_credited_not_run_again(reader_tmp):
    page = "# P\n\n```python\nimport os\nprint(os.getpid())\n```\n"
    root = write_tree(reader_tmp, {"docs/es/p.md": page, "docs/en/p.md": page}, conftest=False)
    run = RunState(from_environment(root))
    ((es, _),) = evaluate_page(root, "es/p.md", run)
    ((en, _),) = evaluate_page(root, "en/p.md", run)
    assert en.outcome.status == "passed" and en.outcome.output == es.outcome.output
    assert en.outcome.reused_from == "es/p.md"
    ((alone, _),) = evaluate_page(root, "en/p.md")  # another run: nothing of the first is credited
    assert alone.outcome.reused_from is None
