"""The site's Markdown set-up, kept on disk from one run to the next.

Resolving ``markdown_extensions`` with MkDocs' own option classes imports MkDocs' theme
machinery (Jinja, Babel) and builds every extension once: most of what a run of one page
costs before its first block. What that resolution yields is plain data (extension names,
their configs, a few folders), so it is kept in ``$XDG_CACHE_HOME/ruota-docs/markdown-setup/``
under a key of everything it depends on:

- the interpreter, and the modification times of its ``site-packages`` folders (installing,
  upgrading or removing a package changes them);
- the path and bytes of mkdocs.yml, and the value of every variable its ``!ENV`` tags name;
- this package's version and the code that resolves the set-up.

The file's mapping as the engine reads it without MkDocs (tags as ``None``:
`ruota_docs.blocks.site_config.load_mkdocs_config`) is kept beside it, under a key of the same
things: every run reads mkdocs.yml, and YAML is slow to import and to parse in pure Python. So are
the ``ruota_docs`` plugin's options as MkDocs' option classes validate them
(`ruota_docs.blocks.plugin_config`), under a key of the section as written.

Not kept (the set-up): a file that uses ``INHERIT`` (its parent's bytes would belong to the key) or
``!relative`` (its placeholders point into the live MkDocs config), and anything that does
not pickle. The file holds only what this user's own run wrote, in this user's cache folder.

A speed trick (`ruota_docs.blocks.speedups`, ``setup_cache``): ``RUOTA_DOCS_NO_SPEEDUPS=setup_cache``
resolves the set-up and reads mkdocs.yml afresh in every run, and keeps nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

from ruota_docs.blocks import speedups, user_cache

#: Bumped when what is kept changes shape.
FORMAT = 1
#: How many files to keep (three per site and environment in use: the set-up, the file as read, and the
#: plugin's options as validated).
KEEP = 48
#: The MkDocs settings the page machinery reads besides the extensions.
SETTINGS = ("site_dir", "use_directory_urls", "validation")

_ENV_TAG = re.compile(r"!ENV\s+(?:\[([^\]]*)\]|([A-Za-z_][A-Za-z0-9_]*))")


class SavedConfig(dict):
    """The MkDocs settings a page's render reads, with MkDocs' attribute access."""

    def __getattr__(self, name: str):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def cacheable(text: str) -> bool:
    """Whether a mkdocs.yml's set-up may be kept (``text``: the file's bytes and its parents',
    `config_bytes`): no live placeholders, whose value depends on the page."""
    return "!relative" not in text


_INHERIT = re.compile(rb"""^INHERIT\s*:\s*['"]?([^'"\n#]+?)['"]?\s*(?:#.*)?$""", re.MULTILINE)


def config_bytes(config: Path) -> bytes | None:
    """The bytes of a mkdocs.yml and of each file it inherits (``INHERIT``, as FastAPI's languages do),
    in order: what its set-up depends on, a parent's change being the site's; None where a parent is
    missing (b"" where the file itself is)."""
    parts: list[bytes] = []
    while len(parts) < 32:
        try:
            raw = config.read_bytes()
        except OSError:
            return None if parts else b""
        parts.append(raw)
        parent = _INHERIT.search(raw)
        if parent is None:
            break
        config = (config.parent / parent[1].decode("utf-8", "replace").strip()).resolve()
    return b"\n\x00\n".join(parts)


def key(path: Path, text: bytes, what: str = "setup") -> str:
    """What the resolved set-up of ``path`` depends on, as a hex digest (``what="mapping"``: the
    file as read without MkDocs, `ruota_docs.blocks.site_config.load_mkdocs_config`, which is kept too)."""
    from ruota_docs import __version__  # noqa: PLC0415

    parts = [f"format {FORMAT}", what, __version__, sys.executable, sys.version, str(path),
             _stamp(Path(__file__).parent)]
    parts += [f"{p}:{_stamp(Path(p))}" for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    for listed, single in _ENV_TAG.findall(text.decode("utf-8", "replace")):
        for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", listed) if listed else [single]:
            parts.append(f"${name}={os.environ.get(name)!r}")
    digest = hashlib.sha256("\n".join(parts).encode())
    digest.update(text)
    return digest.hexdigest()[:32]


def _stamp(path: Path) -> str:
    try:
        return str(path.stat().st_mtime_ns)
    except OSError:
        return "-"


#: The cache folder it keeps set-ups in (`ruota_docs.blocks.user_cache`).
_FOLDER = "markdown-setup"


def load(digest: str) -> dict | None:
    """The set-up kept under ``digest``: ``docs_dir``, ``extensions``, ``extension_configs``,
    ``settings``; None where there is none or it cannot be read (or the trick is off)."""
    if not speedups.on("setup_cache"):
        return None
    found = user_cache.load_pickle(_FOLDER, digest)
    return found if isinstance(found, dict) and found.get("format") == FORMAT else None


def store(digest: str, saved: dict) -> None:
    """Keep ``saved`` under ``digest`` (quietly not, where it does not pickle or cannot be written,
    or the trick is off)."""
    if not speedups.on("setup_cache"):
        return
    where = user_cache.keep_pickle(_FOLDER, digest, {**saved, "format": FORMAT})
    if where is not None:
        user_cache.trim(where, KEEP)
