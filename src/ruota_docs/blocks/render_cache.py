"""A page's blocks as its last rendering found them, kept on disk from one run to the next.

Collecting a site renders every page with Python-Markdown (`ruota_docs.blocks.renderer`): on
pydantic's 89 pages, most of what ``pytest --collect-only`` costs. Between two runs most pages
have not changed, so what the fast rendering of a page found (its blocks, problems and directives)
is kept in ``$XDG_CACHE_HOME/ruota-docs/rendered/``, under a key of everything it depends on:

- the page's path, text and site (its mkdocs.yml and each file it inherits, as
  `ruota_docs.blocks.setup_cache.key` keys the Markdown set-up: the files' bytes, the variables
  their ``!ENV`` tags name, the interpreter, the ``site-packages`` folders, this package's
  version), the docs directory and the current directory (extensions such as mdx_include read paths
  from it);
- the engine's own code that renders (every module of ``ruota_docs.blocks``, by modification
  time and size), and each Markdown extension's own module file (a site's extension in its
  repository changes without any install);
- the date (a ``fact:`` dated in the future is a problem until that day);

and, checked when it is read, every file the page included (``--8<--``), by modification time and
size. A page is not kept where its lines do not all come from files the capture knows: where
another extension brought lines in (from anywhere), mkdocstrings made blocks, an include found no
file (it may appear; whether ``check_paths`` reports it or not), or an include was not a file (a URL).

A speed trick (`ruota_docs.blocks.speedups`, ``render_cache``): ``RUOTA_DOCS_NO_SPEEDUPS=render_cache``
renders every page and keeps nothing.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import os
from pathlib import Path

from ruota_docs.blocks import setup_cache, speedups, user_cache

#: Bumped when what is kept changes shape.
FORMAT = 1
#: How many pages to keep (a few sites' worth, each in a few languages).
KEEP = 4000


#: The cache folder it keeps renderings in (`ruota_docs.blocks.user_cache`).
_FOLDER = "rendered"


@functools.lru_cache(maxsize=1)
def _code_stamp() -> str:
    """The modification times and sizes of the modules that render (this package's ``blocks``)."""
    here = Path(__file__).parent
    parts = []
    for path in sorted(here.rglob("*.py")):
        info = path.stat()
        parts.append(f"{path.relative_to(here)}:{info.st_mtime_ns}:{info.st_size}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _file_stamp(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size) if os.path.isfile(path) else None


def _extension_files(setup) -> tuple[str, ...]:
    """The module file of each of the set-up's extensions (named, or given as an object), stamped."""
    names = tuple(e if isinstance(e, str) else type(e).__module__ for e in setup.extensions)
    return tuple(f"{name}={found}:{_file_stamp(found) if found else None}"
                 for name, found in zip(names, _module_files(names), strict=True))


@functools.lru_cache(maxsize=8)
def _module_files(names: tuple[str, ...]) -> tuple[str | None, ...]:
    """Where each extension's module is (found, not imported: the first page renders with them all)."""
    import importlib.util  # noqa: PLC0415

    found = []
    for name in names:
        module = name.partition(":")[0]
        spec = None
        for candidate in (module, f"markdown.extensions.{module}"):  # Python-Markdown's own by their short names
            try:
                spec = importlib.util.find_spec(candidate)
            except (ImportError, ValueError):
                spec = None
            if spec is not None:
                break
        found.append(spec.origin if spec is not None else None)
    return tuple(found)


def key(root: Path, path: Path, docs_dir: Path, text: str, setup) -> str | None:
    """The key of a page's fast rendering with ``setup`` (None where its site's set-up is not kept either)."""
    if not speedups.on("render_cache"):
        return None
    raw = setup_cache.config_bytes(Path(setup.config_file))
    if raw is None or not setup_cache.cacheable(raw.decode("utf-8", "replace")):
        return None
    config = Path(setup.config_file)
    parts = [f"format {FORMAT}", setup_cache.key(config, raw, what="render"), _code_stamp(), str(root), str(path),
             str(docs_dir), os.getcwd(), dt.date.today().isoformat(), *_extension_files(setup)]
    digest = hashlib.sha256("\n".join(parts).encode())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:40]


def load(digest: str | None):
    """The rendering kept under ``digest`` (a `ruota_docs.blocks.renderer.PageRender`), where every file it
    included is as it was; None otherwise."""
    if digest is None:
        return None
    found = user_cache.load_pickle(_FOLDER, digest)
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        return None
    if any(_file_stamp(name) != tuple(stamp) for name, stamp in found["included"]):
        return None
    return found["render"]


def store(digest: str | None, render, state) -> None:
    """Keep ``render`` under ``digest`` with the stamps of the files its rendering (``state``, the capture)
    included; not where some of its lines came from elsewhere, or it cannot be written."""
    if digest is None or state.brought or state.made or state.include_errors or state.unfound:
        return
    included = []
    for name in sorted({origin[0] for origin in state.origins if origin} - {state.context.path}):
        stamp = _file_stamp(name)
        if stamp is None:
            return
        included.append((name, stamp))
    where = user_cache.keep_pickle(_FOLDER, digest, {"format": FORMAT, "render": render, "included": included})
    if where is not None and int.from_bytes(os.urandom(1), "big") < 8:  # trimmed about one page in 32
        user_cache.trim(where, KEEP)


