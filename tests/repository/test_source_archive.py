"""The engine's source archive that the site serves (hooks/source_archive.py): reproducible, complete,
installable with pip offline, and linked from "Using the engine on your own MkDocs site" in every language."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from sitebuild import LANGUAGES, ROOT, html_path, shared_build

_spec = importlib.util.spec_from_file_location("source_archive", ROOT / "hooks" / "source_archive.py")
source_archive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(source_archive)


def _wheel_files(source: Path, out: Path) -> list[str]:
    """What pip puts in the wheel it builds from ``source``, offline, with this environment's setuptools."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                    "-w", str(out), str(source)], check=True, capture_output=True, timeout=300)
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as zipped:
        return sorted(zipped.namelist())


def test_the_archive_is_named_for_the_package_and_the_same_bytes_every_build():
    name, data = source_archive.archive()
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)[1]
    assert name == f"downloads/ruota-docs-{version}.tar.gz"
    assert source_archive.archive() == (name, data)


def test_the_archive_holds_the_package_under_one_directory_and_no_compiled_files(tmp_path):
    name, data = source_archive.archive()
    (tmp_path / "a.tar.gz").write_bytes(data)
    with tarfile.open(tmp_path / "a.tar.gz") as tar:
        members = tar.getnames()
    top = Path(name).name.removesuffix(".tar.gz")
    assert {m.split("/")[0] for m in members} == {top}
    assert {f"{top}/pyproject.toml", f"{top}/README.md"} <= set(members)
    assert not [m for m in members if "__pycache__" in m or m.endswith(".pyc")]
    sources = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "src" / "ruota_docs").rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    assert sorted(m.removeprefix(f"{top}/") for m in members if "/src/" in m) == sources


def test_pip_builds_from_the_archive_the_same_wheel_as_from_the_checkout(tmp_path):
    name, data = source_archive.archive()
    archive = tmp_path / Path(name).name
    archive.write_bytes(data)
    assert _wheel_files(archive, tmp_path / "from-archive") == _wheel_files(ROOT, tmp_path / "from-checkout")


@pytest.mark.slow
def test_the_built_site_serves_the_archive_that_the_own_site_page_links(tmp_path_factory):
    site, result = shared_build(tmp_path_factory)
    assert result.returncode == 0, result.stderr
    name, data = source_archive.archive()
    assert (site / name).read_bytes() == data
    for lang in LANGUAGES:
        page = html_path(site, "authoring/own-site.md", lang)
        links = re.findall(r'href="([^"]+\.tar\.gz)"', page.read_text(encoding="utf-8"))
        assert links, f"{lang}: the own-site page links no archive"
        assert {(page.parent / link).resolve() for link in links} == {(site / name).resolve()}
