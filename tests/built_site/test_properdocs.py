"""The real site built with ProperDocs (MkDocs 1.x's fork, which reads mkdocs.yml and runs MkDocs
plugins unchanged): strict, and file for file what ``mkdocs build`` makes, but for the generator
each page names in its ``<meta name="generator">``."""

from __future__ import annotations

import gzip
import re

import pytest

from sitebuild import SITE_URL, build, shared_build

pytestmark = pytest.mark.slow

_GENERATOR = re.compile(rb'\s*<meta name="generator" content="[^"]*">')
#: The sitemap's dates are each build's own day: two builds either side of midnight differ there.
_LASTMOD = re.compile(rb"<lastmod>\d{4}-\d{2}-\d{2}</lastmod>")


def _comparable(name: str, data: bytes) -> bytes:
    """A built file as both generators should make it: without the generator's name, and for
    the sitemap without its build dates (and the gzip header's timestamp)."""
    if name.endswith(".gz"):
        data = gzip.decompress(data)
    if name.startswith("sitemap.xml"):
        assert _LASTMOD.search(data), f"{name}: no <lastmod> date"
        data = _LASTMOD.sub(b"<lastmod/>", data)
    return _GENERATOR.sub(b"", data)


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
        if a != b and _comparable(str(name), a) != _comparable(str(name), b):
            differ.append(str(name))
    assert differ == []
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "ProperDocs" in page and "ruota-verify" in page
