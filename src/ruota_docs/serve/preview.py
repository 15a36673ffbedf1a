"""Serve a built site the way GitHub Pages serves it, to look at it before it is published.

    python -m ruota_docs.serve.preview [SITE_DIR] [--base /ruota-docs/] [--port 0]

What GitHub Pages does, and so this server: the site lives under its base path (a project
page: ``/<repository>/``), a folder is served by its ``index.html`` and an address of a
folder without its final slash is redirected to it, ``/x`` finds ``x.html``, nothing is
listed, and an address that matches no file gets the site's root ``404.html`` with
status 404 — the root one only, whatever the language of the address.

The base path defaults to the one the site was built for (the path of its ``site_url``,
read from its sitemap), so ``SITE_URL=https://<owner>.github.io/ruota-docs/ make site``
followed by ``make preview`` shows exactly what will be published.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import os
import posixpath
import sys
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


class PreviewError(Exception):
    """A site directory or a base path this server cannot serve."""


def normalise_base(base: str) -> str:
    """``ruota-docs`` / ``/ruota-docs`` / ``/ruota-docs/`` → ``/ruota-docs/``; ``""`` → ``/``."""
    parts = [p for p in base.split("/") if p]
    if any(p in (".", "..") for p in parts):
        raise PreviewError(f"base path {base!r}: '.' and '..' are not allowed")
    return "/" + "".join(f"{p}/" for p in parts)


def built_base(site_dir: Path) -> str:
    """The path of the ``site_url`` the site in ``site_dir`` was built for (from its sitemap)."""
    sitemap = site_dir / "sitemap.xml"
    try:
        root = ET.parse(sitemap).getroot()
    except FileNotFoundError:
        raise PreviewError(f"{sitemap} is missing: build the site first (make site), or pass --base") from None
    except ET.ParseError as error:
        raise PreviewError(f"{sitemap}: not a sitemap ({error}); pass --base") from None
    locations = [loc.text.strip() for loc in root.iter(f"{SITEMAP_NS}loc") if loc.text]
    if not locations:
        raise PreviewError(f"{sitemap} lists no page; pass --base")
    return normalise_base(min((urlsplit(u).path for u in locations), key=len))


class PagesHandler(http.server.SimpleHTTPRequestHandler):
    """GitHub Pages' rules for a static site under ``base`` (see the module's docstring)."""

    def __init__(self, *args, base: str = "/", quiet: bool = False, **kwargs) -> None:
        self.base, self.quiet = base, quiet
        super().__init__(*args, **kwargs)

    def send_head(self):
        raw = unquote(urlsplit(self.path).path)
        path = posixpath.normpath(raw) + ("/" if raw.endswith("/") and raw != "/" else "")
        if path + "/" == self.base:
            return self._redirect(self.base)
        if not path.startswith(self.base):
            return self._not_found()
        target = Path(self.translate_path(quote(path)))
        if target.is_dir():
            if not path.endswith("/"):
                return self._redirect(path + "/")
            target = target / "index.html"
        elif not target.exists() and not path.endswith("/") and target.with_name(target.name + ".html").is_file():
            target = target.with_name(target.name + ".html")
        if not target.is_file():
            return self._not_found()
        return self._send_file(target, 200)

    def translate_path(self, path: str) -> str:
        # the base path is where the site directory is mounted, not a folder inside it
        raw = urlsplit(path).path
        return super().translate_path("/" + raw[len(self.base):] if raw.startswith(self.base) else raw)

    def list_directory(self, path):  # GitHub Pages lists nothing
        return self._not_found()

    def _send_file(self, target: Path, status: int):
        handle = open(target, "rb")  # noqa: SIM115 — the base class sends and closes it
        try:
            stat = os.fstat(handle.fileno())
            self.send_response(status)
            self.send_header("Content-Type", self.guess_type(str(target)))
            self.send_header("Content-Length", str(stat.st_size))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            return handle
        except Exception:
            handle.close()
            raise

    def _not_found(self):
        page = Path(self.directory) / "404.html"
        if page.is_file():
            return self._send_file(page, 404)
        self.send_error(404, "no such file, and the site has no 404.html")
        return None

    def _redirect(self, location: str):
        query = urlsplit(self.path).query
        self.send_response(301)
        self.send_header("Location", location + (f"?{query}" if query else ""))
        self.send_header("Content-Length", "0")
        self.end_headers()
        return None

    def log_message(self, format, *args):  # noqa: A002 — the signature of the base class
        if not self.quiet:
            super().log_message(format, *args)


class PagesServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a reader left before a file was sent
            super().handle_error(request, client_address)


def built_site(site_dir: Path) -> Path:
    """``site_dir``, if it holds a built site."""
    site_dir = Path(site_dir)
    if not (site_dir / "index.html").is_file():
        raise PreviewError(f"{site_dir} holds no built site (no index.html): build it first (make site)")
    return site_dir


def make_server(site_dir: Path, base: str = "/", host: str = "127.0.0.1", port: int = 0,
                quiet: bool = False) -> PagesServer:
    """A server of ``site_dir`` under ``base`` (port 0: a free one; see ``server_address``)."""
    site_dir = built_site(site_dir)
    handler = partial(PagesHandler, directory=str(site_dir), base=normalise_base(base), quiet=quiet)
    return PagesServer((host, port), handler)


@contextlib.contextmanager
def serving(site_dir: Path, base: str = "/") -> Iterator[str]:
    """Serve ``site_dir`` from a thread on a free port of 127.0.0.1; yields the site's URL
    (``http://127.0.0.1:PORT/ruota-docs/``)."""
    server = make_server(site_dir, base, quiet=True)
    thread = threading.Thread(target=server.serve_forever, name="site-preview", daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host}:{port}{normalise_base(base)}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ruota_docs.serve.preview",
        description="Serve a built site as GitHub Pages does: under its base path, "
        "with its 404.html for missing pages.",
    )
    parser.add_argument("site_dir", nargs="?", default="site", help="the built site (default: site)")
    parser.add_argument("--base",
                        help="path the site is served under (default: the path of the site_url it was built for)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port (default: 0, a free one)")
    args = parser.parse_args(argv)
    site_dir = Path(args.site_dir)
    try:
        built_site(site_dir)
        base = normalise_base(args.base) if args.base is not None else built_base(site_dir)
        server = make_server(site_dir, base, args.host, args.port)
    except (PreviewError, OSError) as error:
        print(f"preview: {error}", file=sys.stderr)
        return 2
    host, port = server.server_address[:2]
    print(f"preview: serving {site_dir}/ at http://{host}:{port}{base} (Ctrl+C stops)", flush=True)
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("\npreview: stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
