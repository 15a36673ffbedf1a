"""ruota_docs: the public API is what `__all__` names, each name defined once, imported lazily."""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

import ruota_docs

PUBLIC = {"BlockRef", "LivePreviewPlugin", "Machine", "Record", "RecordError", "Result", "SitePlugin", "main"}


def test_the_public_names_are_the_declared_ones():
    assert set(ruota_docs.__all__) == PUBLIC
    assert ruota_docs.__all__ == sorted(ruota_docs.__all__)


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_each_public_name_is_the_object_of_its_home_module(name):
    found = getattr(ruota_docs, name)
    home = inspect.getmodule(found)
    assert home is not None and home.__name__ == ruota_docs._HOMES[name]
    assert found.__doc__, f"{name} is public: it says what it is"


def test_the_entry_points_name_public_objects():
    from importlib.metadata import entry_points

    plugins = {e.name: e.load() for e in entry_points(group="mkdocs.plugins") if e.value.startswith("ruota_docs")}
    assert plugins == {"ruota_docs": ruota_docs.LivePreviewPlugin, "ruota_docs_site": ruota_docs.SitePlugin}
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "ruota-docs"]
    assert script.load() is ruota_docs.main


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'ledger'"):
        ruota_docs.ledger


def test_importing_the_package_imports_nothing_else():
    code = "import sys, ruota_docs; print(sorted(m for m in sys.modules if m.startswith(('ruota_docs.', 'mkdocs'))))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
