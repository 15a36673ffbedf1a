"""blocks.capture.generated: the blocks mkdocstrings renders from a docstring are told apart and
said to come from that object, at the page line of its ``:::``."""

from __future__ import annotations

import pytest

from _support import write_tree
from ruota_docs.blocks import generated, renderer

pytest.importorskip("mkdocstrings_handlers.python")

MKDOCS_YML = """\
site_name: t
theme:
  name: material
plugins:
  - mkdocstrings:
      handlers:
        python:
          paths: [.]
markdown_extensions:
  - pymdownx.superfences
"""

DEMO = '"""A module.\n\n```python\nprint(answer())\n```\n"""\n\n\ndef answer():\n    return 42\n'


def test_a_docstrings_block_is_made_by_mkdocstrings_from_its_object(tmp_path):
    root = write_tree(tmp_path, {"docs/index.md": "# Home\n\n```python\nprint('own')\n```\n\n::: demo_cap_mod\n",
                                 "demo_cap_mod.py": DEMO}, conftest=False)
    (root / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    own, made = renderer.render(root, root / "docs/index.md").blocks
    assert (own.kind, own.generated_by) == ("python", None)
    assert (made.kind, made.code, made.line) == (generated.KIND, "print(answer())", 7)
    assert (made.generated_by, made.generated_from) == ("mkdocstrings", "demo_cap_mod")
    assert made.not_run_reason == generated.english("mkdocstrings", "demo_cap_mod")
