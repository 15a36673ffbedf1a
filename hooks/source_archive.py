"""This site serves the engine it is built with: ``downloads/ruota-docs-<version>.tar.gz``.

ruota-docs is not on PyPI, and a reader who reaches "Use the engine on your own site" has no
address to clone; so every build packs the package's source from the checkout it builds from,
and that page links it. pip builds and installs the archive like any source distribution. The
archive is reproducible: its members are sorted, owned by root and dated 0, so two builds of the
same source give the same bytes.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import tomllib
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
#: What pip needs to build the package: its metadata, its readme and its source.
MEMBERS = ("pyproject.toml", "README.md", "src/ruota_docs")


def _sources(root: Path) -> list[Path]:
    found = []
    for member in MEMBERS:
        path = root / member
        found += sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return [p for p in found if "__pycache__" not in p.parts and p.suffix != ".pyc"]


def archive(root: Path = ROOT) -> tuple[str, bytes]:
    """The archive's path under the site and its bytes, for the package whose ``pyproject.toml`` is in ``root``."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    top = f"{project['name']}-{project['version']}"
    raw = io.BytesIO()
    with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as zipped, tarfile.open(fileobj=zipped, mode="w") as tar:
        for path in _sources(root):
            info = tarfile.TarInfo(f"{top}/{path.relative_to(root).as_posix()}")
            data = path.read_bytes()
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return f"downloads/{top}.tar.gz", raw.getvalue()


@event_priority(-200)  # after mkdocs-static-i18n (-100), which sorts files by language and expects them on disk
def on_files(files, config):
    name, data = archive()
    files.append(File.generated(config, name, content=data))
    return files
