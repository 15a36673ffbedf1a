"""What MkDocs adds to a page's Markdown instance, added to the engine's too.

``mkdocs build`` renders each page with the site's extensions plus processors of its own
(``mkdocs.structure.pages.Page.render``): the raw-HTML anchor reader, the anchor
extractor, the ``relpath`` treeprocessor that knows the page's ``File`` and the site's
``Files``, and the title extractor. Extensions look them up — Material's
``material.extensions.preview`` raises ``ValueError: No item named "relpath" exists``
without it — so the engine registers the same ones, with the page's file and the docs
folder's files, and any extension that builds a page also collects it.

They change nothing a page renders to: they only read it (anchors, the title), and the
engine's ``relpath`` leaves links as written (rewriting them decides no block, and would
warn about links a build reports anyway). Only code that runs while a page converts can
look them up (MkDocs registers them after the extensions are built, as the engine does),
so where all of it is Python-Markdown's own, pymdownx's or the engine's, none of which
looks them up, they are left out (`needed`): MkDocs' page machinery and a listing of the
docs directory are most of what rendering one page costs a run that renders only that page.
"""

from __future__ import annotations

import functools
from pathlib import Path

#: Packages whose processors and fence formatters never look up MkDocs' page processors.
_WITHOUT_MKDOCS = ("markdown.", "pymdownx.", "ruota_docs.")


def needed(md) -> bool:
    """Whether code that runs while ``md`` converts a page may look up MkDocs' page processors:
    a processor, or a SuperFences formatter or validator, of a package not in `_WITHOUT_MKDOCS`."""
    registries = (md.preprocessors, md.parser.blockprocessors, md.treeprocessors, md.inlinePatterns,
                  md.postprocessors)
    found: list = [type(item) for registry in registries for item in registry]
    fences = md.preprocessors["fenced_code_block"] if "fenced_code_block" in md.preprocessors else None
    for fence in getattr(getattr(fences, "extension", None), "superfences", ()):
        found += [fence.get(name) for name in ("test", "formatter", "validator", "reset")]
    while found:
        code = found.pop()
        if isinstance(code, functools.partial):  # SuperFences wraps a fence's own functions in its own
            found += [code.func, *(v for v in code.keywords.values() if callable(v))]
        elif code is not None and not (getattr(code, "__module__", None) or "").startswith(_WITHOUT_MKDOCS):
            return True
    return False


def register(md, config, docs_dir: Path, path: Path) -> None:
    """Register MkDocs' own page processors on ``md`` for the page file ``path``."""
    from mkdocs.structure import pages as mkdocs_pages  # noqa: PLC0415 — see the module's docstring
    from mkdocs.structure.files import File  # noqa: PLC0415

    docs_dir = Path(docs_dir).resolve()
    site_dir = str(Path(str(config.get("site_dir") or docs_dir.parent / "site")).resolve())
    use_directory_urls = config.get("use_directory_urls")
    use_directory_urls = True if use_directory_urls is None else bool(use_directory_urls)
    try:
        src = Path(path).resolve().relative_to(docs_dir).as_posix()
    except ValueError:
        src = Path(path).name
    file = File(src, str(docs_dir), site_dir, use_directory_urls)
    files = files_of(str(docs_dir), site_dir, use_directory_urls)
    mkdocs_pages._RawHTMLPreprocessor()._register(md)
    mkdocs_pages._ExtractAnchorsTreeprocessor(file, files, config)._register(md)
    _links_processor()(file, files, config)._register(md)
    mkdocs_pages._ExtractTitleTreeprocessor()._register(md)


@functools.cache
def _links_processor() -> type:
    """MkDocs' ``relpath`` processor, holding the page and the site's files, rewriting nothing."""
    from mkdocs.structure import pages as mkdocs_pages  # noqa: PLC0415

    class Links(mkdocs_pages._RelativePathTreeprocessor):
        def run(self, root):
            return root

    return Links


@functools.lru_cache(maxsize=4)
def files_of(docs_dir: str, site_dir: str, use_directory_urls: bool):
    """Every file of the docs directory, as MkDocs lists them (hidden files and folders left out)."""
    from mkdocs.structure.files import File, Files  # noqa: PLC0415

    found = []
    root = Path(docs_dir)
    for item in sorted(root.rglob("*")):
        relative = item.relative_to(root)
        if item.is_file() and not any(part.startswith(".") for part in relative.parts):
            found.append(File(relative.as_posix(), docs_dir, site_dir, use_directory_urls))
    return Files(found)
