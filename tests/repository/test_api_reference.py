"""The API reference's docstrings: Google style in Markdown, cross-references that mkdocstrings renders as links."""

from __future__ import annotations

import ast
import re

from sitebuild import ROOT

#: reST roles (``:func:`x```), which mkdocstrings leaves on the page as they are written.
_REST_ROLE = re.compile(r":(?:class|func|mod|meth|attr|data|exc|obj|const|py:\w+):`")


def _documented_modules() -> list[str]:
    """The modules the API reference renders (``::: ruota_docs.x`` in the source page)."""
    page = (ROOT / "docs" / "es" / "reference" / "api.md").read_text(encoding="utf-8")
    return re.findall(r"^::: (ruota_docs(?:\.\w+)+)\s*$", page, re.M)


def _docstrings(module: str):
    path = ROOT / "src" / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = path.with_suffix("") / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in [tree, *ast.walk(tree)]:
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield path.relative_to(ROOT), getattr(node, "name", "<module>"), doc


def test_the_reference_renders_modules():
    assert len(_documented_modules()) >= 5


def test_documented_docstrings_use_markdown_cross_references():
    found = [f"{path}: {name}: {match.group()}…" for module in _documented_modules()
             for path, name, doc in _docstrings(module) for match in _REST_ROLE.finditer(doc)]
    assert not found, "write [`name`][dotted.path] (or `name` for what the reference does not render):\n" + \
        "\n".join(found)
