"""``--8<--`` includes: the engine runs exactly the code pymdownx.snippets publishes."""

from __future__ import annotations

import html
import re

import markdown
import pytest
from pymdownx.snippets import SnippetMissingError

from _support import write_tree
from ruota_docs.includes import Expander, IncludeError, expander_for, load_mkdocs_config, snippet_options
from ruota_docs.sybil.lexers import scan

SNIPPETS = {
    "snippets/g/a.py": """\
        import os
        # --8<-- [start:greet]
        def greet():
            print("hello", os.getpid() > 0)
        # --8<-- [end:greet]
        x = 41
        # --8<-- [start:tail]
        y = x + 1
        # --8<-- [end:tail]
        """,
    "snippets/g/outer.txt": """\
        outer before
        --8<-- "g/inner.txt"
        outer after
        """,
    "snippets/g/inner.txt": """\
        inner line
        """,
    "snippets/g/loop_a.txt": """\
        a
        --8<-- "g/loop_b.txt"
        """,
    "snippets/g/loop_b.txt": """\
        b
        --8<-- "g/loop_a.txt"
        """,
    "snippets/g/self.txt": """\
        me
        --8<-- "g/self.txt"
        """,
    "secret.txt": "outside the base path\n",
}


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return write_tree(tmp_path_factory.mktemp("includes"), SNIPPETS, conftest=False)


def published(root, page: str) -> list[str]:
    """The code of every block as pymdownx renders the page, with the site's snippet options."""
    options = snippet_options(load_mkdocs_config(root))
    options["base_path"] = [str(root / b) for b in options["base_path"]]
    md = markdown.Markdown(extensions=["pymdownx.snippets", "pymdownx.superfences", "admonition", "attr_list"],
                           extension_configs={"pymdownx.snippets": options})
    out = md.convert(page)
    return [html.unescape(re.sub(r"<[^>]+>", "", code)) for code in re.findall(r"<code[^>]*>(.*?)</code>", out, re.S)]


def executed(root, page: str) -> list[str]:
    expander = Expander(root)
    return [expander.expand(f.body) for f in scan(page).fences]


PAGES = {
    "whole file": '```python title="a.py"\n--8<-- "g/a.py"\n```\n',
    "section": '```python\n--8<-- "g/a.py:greet"\ngreet()\n```\n',
    "line range": '```python\n--8<-- "g/a.py:3:4"\n```\n',
    "one line": '```python\n--8<-- "g/a.py:6:6"\n```\n',
    "several ranges": '```python\n--8<-- "g/a.py:1:1,6:6"\n```\n',
    "several includes": '```python\n--8<-- "g/a.py:1:1"\n--8<-- "g/a.py:greet"\nz = 0\n--8<-- "g/a.py:tail"\n```\n',
    "nested": '```text\n--8<-- "g/outer.txt"\n```\n',
    "in an admonition": '!!! note\n\n    ```python\n    --8<-- "g/a.py:greet"\n    greet()\n    ```\n',
    "escaped": '```text\n;--8<-- "g/a.py"\n```\n',
    "same file twice": '```text\n--8<-- "g/inner.txt"\n--8<-- "g/inner.txt"\n```\n',
}


@pytest.mark.parametrize("case", PAGES)
def test_expansion_is_what_pymdownx_publishes(root, case):
    page = PAGES[case]
    # the highlighter drops blank lines at both ends of a block (a whole file brings its final one)
    assert [code.strip("\n") for code in executed(root, page)] == [code.strip("\n") for code in published(root, page)]


def test_exact_expansions(root):
    run = lambda case: executed(root, PAGES[case])[0]  # noqa: E731
    # a whole file keeps everything but its section markers
    assert run("whole file").rstrip("\n") == 'import os\ndef greet():\n    print("hello", os.getpid() > 0)\nx = 41\ny = x + 1'
    assert run("section") == 'def greet():\n    print("hello", os.getpid() > 0)\ngreet()\n'
    assert run("line range") == 'def greet():\n    print("hello", os.getpid() > 0)\n'
    assert run("several ranges") == "import os\nx = 41\n"
    assert run("several includes") == 'import os\ndef greet():\n    print("hello", os.getpid() > 0)\nz = 0\ny = x + 1\n'
    assert run("nested").rstrip("\n") == "outer before\ninner line\n\nouter after"
    assert run("escaped") == '--8<-- "g/a.py"\n'


def test_body_without_includes_is_untouched(root):
    body = "x = 1\n# 8 < 9\n"
    assert Expander(root).expand(body) == body


def test_sources_lists_targets_in_order(root):
    body = scan(PAGES["several includes"]).fences[0].body
    assert Expander(root).sources(body) == ["g/a.py:1:1", "g/a.py:greet", "g/a.py:tail"]
    assert Expander(root).sources(";--8<-- \"g/a.py\"\n") == []


def test_options_come_from_mkdocs_yml(root):
    assert snippet_options(load_mkdocs_config(root)) == {"base_path": ["snippets"], "check_paths": True}
    assert expander_for(str(root)) is expander_for(str(root))
    assert expander_for(str(root)).expand('--8<-- "g/inner.txt"') == "inner line\n"


@pytest.mark.parametrize(("body", "message"), [
    ('--8<-- "g/nope.py"\n', "Snippet at path 'g/nope.py' could not be found"),
    ('--8<-- "g/a.py:nope"\n', "Snippet section 'nope' could not be located"),
    ('--8<-- "../secret.txt"\n', "Snippet at path '../secret.txt' could not be found"),
])
def test_missing_file_or_section(root, body, message):
    with pytest.raises(IncludeError) as caught:
        Expander(root).expand(body)
    assert str(caught.value) == message
    # pymdownx fails the published page the same way
    with pytest.raises(SnippetMissingError, match=re.escape(message)):
        published(root, f"```python\n{body}```\n")


@pytest.mark.parametrize(("body", "message"), [
    ('--8<-- "g/loop_a.txt"\n', "circular include of loop_a.txt"),
    ('--8<-- "g/self.txt"\n', "circular include of self.txt"),
])
def test_circular_include_is_an_error(root, body, message):
    with pytest.raises(IncludeError) as caught:
        Expander(root).expand(body)
    assert str(caught.value) == message


def test_expander_is_reusable_after_an_error(root):
    expander = Expander(root)
    with pytest.raises(IncludeError):
        expander.expand('--8<-- "g/loop_a.txt"\n')
    assert expander.expand('--8<-- "g/outer.txt"\n').rstrip("\n") == "outer before\ninner line\n\nouter after"
