"""The start-up check of the rendering stack's versions, and the ranges pyproject.toml declares."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from ruota_docs.blocks import compat

REPO = Path(__file__).resolve().parents[2]


def _fake_versions(monkeypatch, versions: dict[str, str | None]) -> None:
    """``importlib.metadata.version`` answers ``versions`` (None: not installed) for those packages."""
    real = metadata.version

    def version(name: str) -> str:
        for known, installed in versions.items():
            if canonicalize_name(known) == canonicalize_name(name):
                if installed is None:
                    raise metadata.PackageNotFoundError(name)
                return installed
        return real(name)

    monkeypatch.setattr(compat.metadata, "version", version)


def _declared() -> dict[str, Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {canonicalize_name(r.name): r for r in map(Requirement, project["dependencies"])}


def test_the_installed_stack_is_supported():
    compat.check()  # this run's own environment: the one CI installs


def test_pymdownx_outside_its_range_is_named_with_the_range(monkeypatch):
    _fake_versions(monkeypatch, {"pymdown-extensions": "13.2"})
    with pytest.raises(compat.UnsupportedDependency) as raised:
        compat.check()
    message = str(raised.value)
    assert "pymdown-extensions 13.2 is installed" in message
    assert "pymdown-extensions>=11.0.1,<13.2" in message
    assert "guide" not in message


def test_every_package_out_of_range_or_missing_is_named(monkeypatch):
    _fake_versions(monkeypatch, {"pymdown-extensions": "10.21", "markdown": "3.12.0", "mkdocs": None})
    found = compat.problems()
    assert [p.split()[0] for p in found] == ["pymdown-extensions", "Markdown", "mkdocs"]
    assert found[1].startswith("Markdown 3.12.0 is installed")
    assert found[2] == "mkdocs is not installed; ruota-docs needs mkdocs==1.6.1"


def test_the_ends_of_each_range_are_supported(monkeypatch):
    _fake_versions(monkeypatch, {"pymdown-extensions": "11.0.1", "markdown": "3.11.3", "mkdocs": "1.6.1"})
    assert compat.problems() == []
    _fake_versions(monkeypatch, {"pymdown-extensions": "13.1.2", "markdown": "3.8.1"})
    assert compat.problems() == []


def test_a_version_that_is_not_a_version_is_unsupported(monkeypatch):
    _fake_versions(monkeypatch, {"mkdocs": "custom-build"})
    assert compat.problems() == ["mkdocs custom-build is installed; ruota-docs' block capture supports "
                                 "mkdocs==1.6.1 (pip install 'mkdocs==1.6.1')"]


def test_the_mkdocs_plugin_stops_before_any_page(monkeypatch):
    from ruota_docs.site.plugin import RuotaDocsPlugin

    _fake_versions(monkeypatch, {"pymdown-extensions": "13.2.0rc1", "markdown": "4.0"})
    with pytest.raises(PluginError, match=r"^ruota_docs: pymdown-extensions 13\.2\.0rc1 is installed.*"
                                          r"Markdown 4\.0 is installed"):
        RuotaDocsPlugin().on_config(None)  # the check comes before the config is read


def test_the_pytest_plugin_stops_at_start_up(monkeypatch):
    from ruota_docs.run import pytest_plugin

    _fake_versions(monkeypatch, {"mkdocs": "1.6.0"})
    with pytest.raises(pytest.UsageError, match=r"^ruota-docs: mkdocs 1\.6\.0 is installed; .*mkdocs==1\.6\.1"):
        pytest_plugin.pytest_configure(None)


def test_pyproject_declares_the_ranges_the_check_enforces():
    declared = _declared()
    for name, spec in compat.SUPPORTED.items():
        assert declared[canonicalize_name(name)].specifier == SpecifierSet(spec), name


def test_the_lowest_constraints_pin_every_lower_bound():
    """constraints/lowest.txt installs each direct dependency at the lowest version pyproject.toml allows."""
    pins = {}
    for line in (REPO / "constraints" / "lowest.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            pins[canonicalize_name(requirement.name)] = str(requirement.specifier)
    lowest = {}
    for name, requirement in _declared().items():
        bound = [s.version for s in requirement.specifier if s.operator in (">=", "==")]
        assert len(bound) == 1, f"{name}: pyproject.toml gives no single lower bound ({requirement.specifier})"
        lowest[name] = f"=={bound[0]}"
    # one indirect dependency is pinned too: mkdocstrings-python 1.13 needs mkdocstrings before 1.0
    assert set(pins) - set(lowest) == {"mkdocstrings"}
    pins.pop("mkdocstrings")
    # "8" and "8.0.0" are the same version: compare them as versions
    assert {n: Version(p[2:]) for n, p in pins.items()} == {n: Version(p[2:]) for n, p in lowest.items()}


@pytest.mark.parametrize("installed", ["11.0", "11.0.1", "11.0.1.0", "12", "13.1", "13.1.9", "13.2", "13.2.0", "14",
                                       "13.2rc1", "13.2.dev0", "13.1.post1", "11.0.1a1", "not-a-version"])
@pytest.mark.parametrize("spec", [">=11.0.1,<13.2", "==13.2", "==1.6.1", ">= 11, < 13.2"])
def test_a_range_is_decided_as_packaging_decides_it(installed, spec):
    try:
        expected = Version(installed) in SpecifierSet(spec, prereleases=True)
    except InvalidVersion:
        expected = False
    assert compat.fits(installed, spec) == expected
