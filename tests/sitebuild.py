"""Building the real site once per test session (used by the site and browser tests)."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("es", "en", "fr")
SOURCE = "es"
SITE_URL = "https://ruota-docs.example.org/"  #: mkdocs.yml's default site_url
#: A project page's address (GitHub Pages), for the builds served under a sub-path.
SUBPATH_SITE_URL = "https://owner.github.io/ruota-docs/"


def build(site_dir: Path, site_url: str | None = None, root: Path = ROOT,
          generator: str = "mkdocs") -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of the docs at ``root`` into ``site_dir``, for ``site_url``
    (the SITE_URL of a deploy; None: mkdocs.yml's default, whatever this shell exports);
    ``generator``: ``properdocs`` builds it with ProperDocs, MkDocs 1.x's fork, instead."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("SITE_URL", None)
    if site_url:
        env["SITE_URL"] = site_url
    return subprocess.run(
        [sys.executable, "-m", generator, "build", "--strict", "--site-dir", str(site_dir)],
        cwd=root, env=env, capture_output=True, text=True, timeout=600,
    )


def shared_build(tmp_path_factory, site_url: str | None = None) -> tuple[Path, subprocess.CompletedProcess]:
    """The repository's docs built for ``site_url`` once per test run, for the tests that only
    read the built site: the first test process that asks builds it (``mkdocs build --strict``
    takes most of a minute on CI's machine), under a lock; the others, xdist's workers
    included, wait for it and get the same directory and the same result. Never write into it."""
    site_url = site_url or SITE_URL  # mkdocs.yml's default: the same pages
    base = tmp_path_factory.getbasetemp()
    run_folder = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # shared by this run's workers
    target = run_folder / f"real-site-{hashlib.sha256(site_url.encode()).hexdigest()[:12]}"
    said = target.with_name(target.name + ".result.json")
    with open(target.with_name(target.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not said.exists():
            result = build(target, site_url)
            said.write_text(json.dumps([result.returncode, result.stdout, result.stderr]), encoding="utf-8")
    returncode, stdout, stderr = json.loads(said.read_text(encoding="utf-8"))
    return target, subprocess.CompletedProcess(["mkdocs", "build", "--strict"], returncode, stdout, stderr)


def page_paths() -> list[str]:
    """Every source page, relative to its language folder (``guides/keras-rx7600.md``)."""
    return sorted(p.relative_to(ROOT / "docs" / SOURCE).as_posix() for p in (ROOT / "docs" / SOURCE).rglob("*.md"))


def html_path(site: Path, page: str, lang: str) -> Path:
    """Where a page lands: es at the root, other languages under /<lang>/."""
    stem = page[:-3]
    rel = "index.html" if stem == "index" else (f"{stem[:-6]}/index.html" if stem.endswith("/index") else f"{stem}/index.html")
    return site / rel if lang == SOURCE else site / lang / rel


def url_path(page: str, lang: str) -> str:
    rel = html_path(Path("/"), page, lang).as_posix()
    return rel[: -len("index.html")]
