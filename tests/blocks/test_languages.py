"""blocks.languages: what a fence's language means to the engine, resolved as Pygments resolves it."""

from __future__ import annotations

import pytest

from ruota_docs.blocks import languages


@pytest.mark.parametrize(("language", "expected"), [
    ("python", ("python", None)), ("py3", ("python", None)), ("PYTHON", ("python", None)),
    ("pycon", ("doctest", None)), ("bash", ("shell", None)), ("console", ("shell", None)),
    ("powershell", ("windows", None)), ("cmd", ("windows", None)), ("bat", ("windows", None)),
    ("yaml", ("data", "yaml")), ("json", ("data", "json")), ("toml", ("data", "toml")),
    ("text", ("text", None)), ("txt", ("text", None)), ("mermaid", ("text", None)),
    ("sage", ("invalid", None)), ("no-such-language", ("invalid", None)), ("", ("invalid", None)), (None, ("invalid", None)),
])
def test_kinds(language, expected):
    assert languages.resolve(language) == expected


def test_the_sites_extended_languages_come_first():
    extended = {"pycon3": ["pycon", {}], "mine": ["yaml", {}]}
    assert languages.resolve("pycon3", extended) == ("doctest", None)
    assert languages.resolve("mine", extended) == ("data", "yaml")
    assert languages.resolve("pycon3") == ("invalid", None)  # Pygments alone does not know it
