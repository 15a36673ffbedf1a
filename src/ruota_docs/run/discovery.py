"""Which MkDocs site a pytest run is about, found from the paths it was given.

``pytest docs`` (or ``ruota-docs verify``) on a project needs no conftest: a Markdown file
is a page to run when the nearest ``mkdocs.yml`` above it has it under its ``docs_dir``,
and the run was pointed at that site — at its folder, its docs directory, or something inside
that. A site nested below a path the run was given (a test fixture under ``tests/``) is
not collected unless the run names it.
"""

from __future__ import annotations

import functools
from pathlib import Path

from ruota_docs.blocks import site_config


@functools.lru_cache(maxsize=256)
def _site_above(folder: Path) -> Path | None:
    """The folder of the nearest mkdocs.yml at or above ``folder`` (kept: a run asks for every page)."""
    return site_config.site_above(folder)


def docs_dir(root: Path) -> Path:
    """The docs directory of the site at ``root``, as its mkdocs.yml sets it."""
    return site_config.docs_folder(root, {"docs_dir": site_config.setting(root, "docs_dir")})


def site_of_page(path: Path) -> Path | None:
    """The site root a Markdown file is a page of (None where it is under no site's docs directory)."""
    path = Path(path).resolve()
    root = _site_above(path.parent)
    if root is None:
        return None
    docs = docs_dir(root)
    return root if docs in path.parents else None


def requested(arg: Path, root: Path) -> bool:
    """Whether a path given to pytest points at the site at ``root``: the site's folder, its
    docs directory or something inside it, or a folder between the two."""
    arg = Path(arg).resolve()
    docs = docs_dir(root)
    return arg == root or arg == docs or docs in arg.parents or (arg in docs.parents and root in arg.parents)


def sites_asked(invocation_dir: Path, args: list[str]) -> list[Path]:
    """The sites the run's paths point at, in the order given."""
    found: list[Path] = []
    for arg in args:
        path = (Path(invocation_dir) / arg.split("::", 1)[0]).resolve()
        root = _site_above(path if path.is_dir() else path.parent)
        if root is not None and root not in found and requested(path, root):
            found.append(root)
    return found
