"""The real site built with ProperDocs (MkDocs 1.x's fork, which reads mkdocs.yml and runs MkDocs
plugins unchanged): strict, and file for file what ``mkdocs build`` makes, but for the generator
each page names in its ``<meta name="generator">``."""

from __future__ import annotations

import re

import pytest

from sitebuild import SITE_URL, build, shared_build

pytestmark = pytest.mark.slow

_GENERATOR = re.compile(rb'\s*<meta name="generator" content="[^"]*">')


def test_properdocs_builds_the_site_as_mkdocs_does(tmp_path_factory, tmp_path):
    try:
        import properdocs  # noqa: F401
    except ImportError:
        pytest.fail("ProperDocs is not installed: pip install -e '.[tests]' installs it", pytrace=False)
    mkdocs_site, built = shared_build(tmp_path_factory, SITE_URL)
    assert built.returncode == 0, built.stderr[-3000:]
    done = build(tmp_path / "site", SITE_URL, generator="properdocs")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "WARNING" not in done.stderr
    ours = {p.relative_to(mkdocs_site) for p in mkdocs_site.rglob("*") if p.is_file()}
    theirs = {p.relative_to(tmp_path / "site") for p in (tmp_path / "site").rglob("*") if p.is_file()}
    assert ours == theirs
    differ = []
    for name in sorted(ours):
        a, b = (mkdocs_site / name).read_bytes(), (tmp_path / "site" / name).read_bytes()
        if a != b and _GENERATOR.sub(b"", a) != _GENERATOR.sub(b"", b):
            differ.append(str(name))
    assert differ == []
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "ProperDocs" in page and "ruota-verify" in page
