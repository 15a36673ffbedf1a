"""The preview server answers as GitHub Pages does (ruota_docs.serve.preview)."""

from __future__ import annotations

import http.client
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from ruota_docs.serve import preview

SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://owner.github.io/ruota-docs/en/</loc></url>
  <url><loc>https://owner.github.io/ruota-docs/</loc></url>
</urlset>
"""


@pytest.fixture
def site(tmp_path) -> Path:
    files = {
        "index.html": "home", "en/index.html": "english home", "about.html": "about",
        "404.html": "not found page", "sitemap.xml": SITEMAP, "assets/style.css": "body {}",
        "empty/.keep": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def _get(url: str, path: str, method: str = "GET") -> tuple[int, dict, str]:
    where = urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=10)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        connection.close()


def test_serves_under_the_base_path_as_github_pages_does(site):
    with preview.serving(site, "/ruota-docs/") as url:
        assert url.endswith("/ruota-docs/")
        assert _get(url, "/ruota-docs/")[::2] == (200, "home")
        assert _get(url, "/ruota-docs/en/")[::2] == (200, "english home")
        assert _get(url, "/ruota-docs/assets/style.css")[0] == 200
        assert _get(url, "/ruota-docs/assets/style.css")[1]["Content-Type"] == "text/css"
        assert _get(url, "/ruota-docs/about")[::2] == (200, "about")  # x finds x.html
        status, headers, _ = _get(url, "/ruota-docs/en?q=1")
        assert (status, headers["Location"]) == (301, "/ruota-docs/en/?q=1")
        status, headers, _ = _get(url, "/ruota-docs")
        assert (status, headers["Location"]) == (301, "/ruota-docs/")
        assert _get(url, "/ruota-docs/en/", "HEAD")[0] == 200


@pytest.mark.parametrize("path", ["/ruota-docs/nope/", "/ruota-docs/en/nope/", "/ruota-docs/empty/",
                                  "/ruota-docs/about/", "/index.html", "/assets/style.css", "/ruota-docs/../index.html"])
def test_anything_else_gets_the_root_404_page(site, path):
    """Missing files, folders without an index (nothing is listed), and the site's files
    asked for outside its base path."""
    with preview.serving(site, "/ruota-docs/") as url:
        assert _get(url, path)[::2] == (404, "not found page")


def test_a_site_without_404_page_still_answers_404(site):
    (site / "404.html").unlink()
    with preview.serving(site, "/") as url:
        status, _, body = _get(url, "/nope")
        assert status == 404 and "404.html" in body


def test_base_path_defaults_to_the_one_the_site_was_built_for(site):
    assert preview.built_base(site) == "/ruota-docs/"
    (site / "sitemap.xml").write_text(SITEMAP.replace("/ruota-docs/", "/"), encoding="utf-8")
    assert preview.built_base(site) == "/"


@pytest.mark.parametrize(("given", "expected"), [("ruota-docs", "/ruota-docs/"), ("/ruota-docs", "/ruota-docs/"),
                                                 ("/a/b/", "/a/b/"), ("", "/"), ("/", "/")])
def test_base_path_spellings(given, expected):
    assert preview.normalise_base(given) == expected


def test_clear_errors_for_what_cannot_be_served(tmp_path, site):
    with pytest.raises(preview.PreviewError, match="no built site"):
        preview.make_server(tmp_path / "nothing")
    with pytest.raises(preview.PreviewError, match="'.' and '..'"):
        preview.normalise_base("/a/../b")
    (site / "sitemap.xml").write_text("not xml", encoding="utf-8")
    with pytest.raises(preview.PreviewError, match="not a sitemap.*--base"):
        preview.built_base(site)
    (site / "sitemap.xml").unlink()
    with pytest.raises(preview.PreviewError, match="sitemap.xml is missing: build the site first"):
        preview.built_base(site)


def test_command_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "ruota_docs.serve.preview", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("preview: ") and "no built site" in result.stderr
    result = subprocess.run([sys.executable, "-m", "ruota_docs.serve.preview", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "--base" in result.stdout and "404.html" in result.stdout
