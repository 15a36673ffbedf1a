"""The API reference's docstrings: Google style in Markdown, cross-references that mkdocstrings renders as links."""

from __future__ import annotations

import ast
import contextlib
import doctest
import importlib
import io
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


def _modules_with_examples() -> list[str]:
    """Every module of the package with a ``>>>`` example in one of its docstrings."""
    found = []
    for path in sorted((ROOT / "src" / "ruota_docs").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = [ast.get_docstring(n, clean=False) or "" for n in [tree, *ast.walk(tree)]
                if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]
        if any(">>>" in doc for doc in docs):
            parts = path.relative_to(ROOT / "src").with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_docstring_examples_run_under_doctest():
    """The API reference shows the docstrings' examples; doctest runs every one of them, here."""
    modules = _modules_with_examples()
    # the reference renders examples of these: a module that loses its examples must be noticed
    assert {"ruota_docs.blocks.terms", "ruota_docs.translations.parity"} <= set(modules), modules
    failures, attempted = [], 0
    for name in modules:
        report = io.StringIO()
        with contextlib.redirect_stdout(report):
            result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        attempted += result.attempted
        if result.failed:
            failures.append(f"{name}: {result.failed} of {result.attempted} failed\n{report.getvalue()}")
    assert not failures, "\n".join(failures)
    assert attempted >= len(modules)  # each module ran at least one example
