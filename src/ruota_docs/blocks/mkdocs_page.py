"""What MkDocs adds to a page's Markdown instance, added to the engine's too.

``mkdocs build`` renders each page with the site's extensions plus processors of its own
(``mkdocs.structure.pages.Page.render``): the raw-HTML anchor reader, the anchor
extractor, the ``relpath`` treeprocessor that knows the page's ``File`` and the site's
``Files``, and the title extractor. Extensions look them up — Material's
``material.extensions.preview`` raises ``ValueError: No item named "relpath" exists``
without it — so the engine registers the same ones, with the page's file and the docs
folder's files, and any extension that builds a page also collects it.

One difference, on purpose: ``relpath`` leaves links as written. Rewriting them decides no
block, and would warn about links a build reports anyway.
"""

from __future__ import annotations

import functools
from pathlib import Path

from mkdocs.structure import pages as mkdocs_pages
from mkdocs.structure.files import File, Files


class _Links(mkdocs_pages._RelativePathTreeprocessor):
    """MkDocs' ``relpath`` processor, holding the page and the site's files, rewriting nothing."""

    def run(self, root):
        return root


def register(md, config, docs_dir: Path, path: Path) -> None:
    """Register MkDocs' own page processors on ``md`` for the page file ``path``."""
    docs_dir = Path(docs_dir).resolve()
    site_dir = str(Path(str(config.get("site_dir") or docs_dir.parent / "site")).resolve())
    use_directory_urls = config.get("use_directory_urls")
    use_directory_urls = True if use_directory_urls is None else bool(use_directory_urls)
    try:
        src = Path(path).resolve().relative_to(docs_dir).as_posix()
    except ValueError:
        src = Path(path).name
    file = File(src, str(docs_dir), site_dir, use_directory_urls)
    files = _files(str(docs_dir), site_dir, use_directory_urls)
    mkdocs_pages._RawHTMLPreprocessor()._register(md)
    mkdocs_pages._ExtractAnchorsTreeprocessor(file, files, config)._register(md)
    _Links(file, files, config)._register(md)
    mkdocs_pages._ExtractTitleTreeprocessor()._register(md)


@functools.lru_cache(maxsize=4)
def _files(docs_dir: str, site_dir: str, use_directory_urls: bool) -> Files:
    """Every file of the docs folder, as MkDocs lists them (hidden files and folders left out)."""
    found = []
    root = Path(docs_dir)
    for item in sorted(root.rglob("*")):
        relative = item.relative_to(root)
        if item.is_file() and not any(part.startswith(".") for part in relative.parts):
            found.append(File(relative.as_posix(), docs_dir, site_dir, use_directory_urls))
    return Files(found)
