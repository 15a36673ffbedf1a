"""blocks.capture.fences: every fence SuperFences forms, with its code, options and lines, nested ones too."""

from __future__ import annotations

import markdown
from pymdownx.superfences import fence_code_format

from ruota_docs.blocks.capture import BlockCapture, Context


def captured(text: str, **configs):
    md = markdown.Markdown(extensions=["pymdownx.superfences", "admonition", BlockCapture(Context("/p.md"))],
                           extension_configs=configs)
    md.convert(text)
    return md.ruota.captured


def test_the_code_options_and_lines_of_a_fence():
    (c,) = captured('Text.\n\n```python title="x.py" hl_lines="1"\n\n\nprint(1)\n```\n')
    assert (c.fence_language, c.code, c.options.get("title"), c.info) == ("python", "print(1)", "x.py",
                                                                     '```python title="x.py" hl_lines="1"')
    assert (c.start, c.end, c.hidden) == (2, 7, 2)  # the fence's lines; the blank lines the highlighter drops


def test_fences_inside_containers_and_in_order():
    text = '!!! note\n\n    ```bash\n    ls\n    ```\n\n```{.yaml .extra #id}\na: 1\n```\n'
    first, second = captured(text)
    assert (first.fence_language, first.code, first.number) == ("bash", "ls", 0)
    assert (second.fence_language, second.id, second.number) == ("yaml", "id", 1)


def test_a_custom_fence_is_captured_with_its_formatter():
    custom = {"pymdownx.superfences": {"custom_fences": [
        {"name": "mermaid", "class": "mermaid", "format": fence_code_format}]}}
    (c,) = captured("```mermaid\ngraph TD\n```\n", **custom)
    assert (c.fence_language, c.formatter) == ("mermaid", "mermaid")
