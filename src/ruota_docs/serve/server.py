"""The live preview for authors: saving a page rebuilds that page, not the whole site.

    python -m ruota_docs.serve [-a 127.0.0.1:8000] [-f mkdocs.yml] [--open] [--full] [--poll 0.2]

``make serve`` runs it. Like ``mkdocs serve``, it builds the site (every language) into a
temporary directory, serves it at the ``dev_addr`` of mkdocs.yml and reloads the browser after
each rebuild; it watches the docs directory, mkdocs.yml, mkdocs.yml's ``watch:`` list and the
folders pages include files from. Plain ``mkdocs serve`` gets the same :class:`Builder`
from the ``ruota_docs`` plugin's ``on_serve`` (:mod:`ruota_docs.serve.plugin`); this command
adds ``--full`` and ``--poll``.
A rebuild builds only what the change shows on (:mod:`ruota_docs.serve.rebuild_plan`):
an edited page, in the languages that show it, the pages that include an edited snippet,
and the pages drawn from those (the status page, the card matrix), rebuilt into the served
folder by :mod:`ruota_docs.serve.partial_build`. Any other change (a page added or removed, the
configuration, the theme, the records) rebuilds everything, as MkDocs' own rebuild does on
every save, and so does the rebuild after one that failed. ``--full`` rebuilds everything
every time.

``mkdocs build`` and ``make site`` are not affected: none of this runs there.
"""

from __future__ import annotations

import argparse
import fnmatch
import logging
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

log = logging.getLogger("mkdocs.ruota_docs.serve")

#: Files editors and tools write beside the ones they change: never the site's.
IGNORED = (".*", "*~", "*.swp", "*.swx", "*.tmp", "#*#", "__pycache__", "*.pyc")
Snapshot = dict[Path, tuple[int, int]]


def _ignored(name: str) -> bool:
    return any(fnmatch.fnmatch(name, pattern) for pattern in IGNORED)


def snapshot(paths) -> Snapshot:
    """``(st_mtime_ns, st_size)`` of every file under ``paths`` (files or folders)."""
    found: Snapshot = {}
    for root in paths:
        root = Path(root)
        if root.is_file():
            stat = root.stat()
            found[root.resolve()] = (stat.st_mtime_ns, stat.st_size)
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not _ignored(d)]
            for name in files:
                if _ignored(name):
                    continue
                path = Path(folder, name)
                try:
                    stat = path.stat()
                except OSError:  # removed while we looked
                    continue
                found[path.resolve()] = (stat.st_mtime_ns, stat.st_size)
    return found


def changes(before: Snapshot, after: Snapshot) -> dict[Path, str]:
    """``{path: "added" | "removed" | "modified"}`` from one snapshot to the next."""
    found = {path: "removed" for path in before.keys() - after.keys()}
    found |= {path: "added" for path in after.keys() - before.keys()}
    found |= {path: "modified" for path in before.keys() & after.keys() if before[path] != after[path]}
    return found


def include_dirs(config) -> list[Path]:
    """The folders pymdownx.snippets includes from (its ``base_path``), from the project directory."""
    options = (config.mdx_configs or {}).get("pymdownx.snippets") or {}
    paths = options.get("base_path", ["."])
    paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    base = Path(config.config_file_path or ".").resolve().parent
    return [Path(base, p).resolve() for p in paths]


class Builder:
    """What the server calls for the first build and after every change it sees."""

    def __init__(self, load_config, serve_url: str, always_full: bool = False) -> None:
        from ruota_docs.serve import caches  # noqa: PLC0415

        caches.keep_highlighted_code()
        self.load_config = load_config
        self.serve_url = serve_url
        self.always_full = always_full
        self.seen: Snapshot | None = None  #: the watched files as the last build found them
        self.healthy = False  #: whether the last build succeeded (else the next builds everything)

    def watched(self, config) -> list[Path]:
        """The docs directory, mkdocs.yml, its ``watch:`` list and the folders pages include from."""
        paths = [Path(config.docs_dir), *([Path(config.config_file_path)] if config.config_file_path else []),
                 *(Path(p) for p in config.watch), *(d for d in include_dirs(config) if d.exists())]
        return list(dict.fromkeys(p.resolve() for p in paths))

    def adopt(self, config) -> None:
        """Take the site a full build of ``config`` has just written (``mkdocs serve``'s first
        build) as this builder's first build: the next change rebuilds only what it shows on."""
        self.seen = snapshot(self.watched(config))
        self.healthy = True

    def __call__(self, config=None) -> None:
        from ruota_docs.serve import partial_build, rebuild_plan  # noqa: PLC0415 — MkDocs' modules, loaded once the server runs
        from ruota_docs.blocks import site_config  # noqa: PLC0415
        from ruota_docs.site.site_languages import site_languages  # noqa: PLC0415

        started = time.perf_counter()
        config = config or self.load_config()
        now = snapshot(self.watched(config))
        if self.seen is None or not self.healthy or self.always_full:
            plan = rebuild_plan.Plan(full="first build" if self.seen is None else
                                     "--full" if self.always_full else "the last build failed")
        else:
            ruota = config.plugins.get("ruota_docs")
            written = site_config.languages(Path(config.config_file_path).parent).default
            source = (ruota.config.source_language or written) if ruota is not None else ""
            plan = rebuild_plan.plan(changes(self.seen, now), Path(config.config_file_path).parent,
                                     Path(config.docs_dir), site_languages(config), source, include_dirs(config))
        self.seen = now
        if not plan.full and not plan.pages:
            log.info(f"Rebuilt nothing: no page shows what changed ({time.perf_counter() - started:.2f} s)")
            return
        self.healthy = False
        try:
            retitled = set() if plan.full else partial_build.build_pages(config, plan.pages, self.serve_url)
            if retitled:  # a title changed: it shows in the navigation of every page of its language
                every = {locale: {page for lang, page in partial_build.TITLES if lang == locale} for locale in retitled}
                log.info(f"A title changed in {', '.join(sorted(retitled))}: rebuilding every page there")
                partial_build.build_pages(self.load_config(), every, self.serve_url)
        except partial_build.TitleUnknown as unknown:
            plan = rebuild_plan.Plan(full=str(unknown))
            config = self.load_config()
        if plan.full:
            partial_build.record_titles(config)
            from mkdocs.commands.build import build  # noqa: PLC0415

            build(config, serve_url=self.serve_url)
        self.healthy = True
        log.info(f"Rebuilt {plan.describe()} in {time.perf_counter() - started:.2f} s")


def serve(config_file: str | None = None, dev_addr: str | None = None, open_in_browser: bool = False,
          always_full: bool = False, poll: float = 0.2) -> None:
    """Build the site, serve it, and rebuild what each change shows on until interrupted."""
    from mkdocs.config import load_config  # noqa: PLC0415 — MkDocs' configuration module is slow to import
    from mkdocs.livereload import LiveReloadServer, _serve_url  # noqa: PLC0415

    site_dir = tempfile.mkdtemp(prefix="ruota_docs_serve_")
    options = {"site_dir": site_dir} | ({"dev_addr": dev_addr} if dev_addr else {})

    def load():
        config = load_config(config_file=config_file, **options)
        config.site_url = serve_url
        return config

    config = load_config(config_file=config_file, **options)
    config.plugins.on_startup(command="serve", dirty=False)
    host, port = config.dev_addr
    mount_path = urlsplit(config.site_url or "/").path
    serve_url = config.site_url = _serve_url(host, port, mount_path)
    builder = Builder(load, serve_url, always_full)
    server = LiveReloadServer(builder=builder, host=host, port=port, root=site_dir, mount_path=mount_path,
                              polling_interval=poll)

    def error_page(code: int) -> bytes | None:
        page = Path(site_dir, f"{code}.html")
        return page.read_bytes() if code in (404, 500) and page.is_file() else None

    server.error_handler = error_page
    signal.signal(signal.SIGTERM, _interrupt)  # a terminated server removes its folder too
    try:
        builder(config)
        for path in builder.watched(config):
            server.watch(str(path))
        try:
            server.serve(open_in_browser=open_in_browser)
        except KeyboardInterrupt:
            log.info("Shutting down...")
        finally:
            server.shutdown()
    finally:
        config.plugins.on_shutdown()
        shutil.rmtree(site_dir, ignore_errors=True)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _logging(verbose: bool) -> None:
    """MkDocs' own log lines (``INFO    -  …``) on stderr."""
    logger = logging.getLogger("mkdocs")
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.propagate = False
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-8s-  %(message)s"))
    logger.addHandler(handler)


def main(argv: list[str] | None = None, prog: str = "python -m ruota_docs.serve") -> int:
    parser = argparse.ArgumentParser(prog=prog,
                                     description="Serve the site for authors: saving a page rebuilds what it shows on.")
    parser.add_argument("-a", "--dev-addr", metavar="IP:PORT",
                        help="address to serve at (default: dev_addr of mkdocs.yml, 127.0.0.1:8000)")
    parser.add_argument("-f", "--config-file", metavar="FILE",
                        help="the MkDocs configuration (default: mkdocs.yml here)")
    parser.add_argument("-o", "--open", action="store_true", help="open the site in a browser once it is built")
    parser.add_argument("--full", action="store_true",
                        help="rebuild the whole site after every change, as mkdocs serve does")
    parser.add_argument("--poll", type=float, default=0.2, metavar="SECONDS",
                        help="how often to look for changed files (default: 0.2)")
    parser.add_argument("-v", "--verbose", action="store_true", help="MkDocs' debug messages too")
    args = parser.parse_args(argv)
    if args.poll <= 0:
        parser.error("--poll must be a positive number of seconds")
    _logging(args.verbose)
    from mkdocs.exceptions import Abort, ConfigurationError  # noqa: PLC0415

    try:
        serve(args.config_file, args.dev_addr, args.open, args.full, args.poll)
    except (Abort, ConfigurationError) as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
