"""serve.partial_build: a rebuild of the pages a change shows on gives the site a full build gives."""

from __future__ import annotations

import filecmp
import json
from pathlib import Path

import pytest

from _support import edit, run_mkdocs, stale_install, write_tree
from ruota_docs.blocks import page_cache
from ruota_docs.serve import partial_build, server

# -- rebuilding, against a full build ----------------------------------------------------------------------------
SITE = {
    "docs/es/index.md": "# Inicio { #home }\n\nTexto.\n\n```python\n--8<-- \"g/hello.py\"\n```\n",
    "docs/en/index.md": "# Home { #home }\n\nText.\n\n```python\n--8<-- \"g/hello.py\"\n```\n",
    "docs/fr/index.md": "# Accueil { #home }\n\nTexte : oui.\n\n```python\n--8<-- \"g/hello.py\"\n```\n",
    "docs/es/guide.md": "# Guía { #guide }\n\n## Sección { #section }\n\nUn párrafo.\n\n```python\nprint('guía')\n```\n",
    "docs/fr/guide.md": "# Guide { #guide }\n\n## Section { #section }\n\nUn paragraphe.\n\n```python\nprint('guía')\n```\n",
    "docs/es/verification-status.md": "# Estado { #status }\n\n<!-- verification-status: -->\n",
    "docs/en/verification-status.md": "# Status { #status }\n\n<!-- verification-status: -->\n",
    "docs/fr/verification-status.md": "# État { #status }\n\n<!-- verification-status: -->\n",
    "snippets/g/hello.py": "print('hola')\n",
    "snippets/g/unused.py": "print('nadie')\n",
}


def differences(left: Path, right: Path) -> list[str]:
    """Files that differ or exist on one side only, as paths relative to the sites."""
    found = []

    def walk(cmp: filecmp.dircmp, prefix: str) -> None:
        found.extend(prefix + name for name in cmp.left_only + cmp.right_only + cmp.funny_files)
        found.extend(prefix + name for name in cmp.common_files if not filecmp.cmp(left / prefix / name, right / prefix / name, shallow=False))
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(left, right), "")
    return sorted(found)


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = write_tree(tmp_path / "project", SITE, site=True, conftest=False)
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    (root / "mkdocs.yml").write_text(config.replace("  - i18n:\n", "  - ruota_docs_site\n  - i18n:\n", 1), encoding="utf-8")
    monkeypatch.chdir(root)  # pymdownx.snippets reads includes relative to the current directory, as in a build
    page_cache.clear()
    partial_build.TITLES.clear()
    yield root
    page_cache.clear()
    partial_build.TITLES.clear()


#: The address the sites are served at: the site_url of the sample projects, so that a full build makes the same pages.
SERVE_URL = "https://sample.example.org/"


class MkDocsServe:
    """What ``mkdocs serve`` does with a project, in this process, up to serving it
    (mkdocs.commands.serve): its configuration, its first build, then the plugins'
    ``on_serve`` event with its own server; each call after the first is a change the
    server saw, answered by the builder the server holds by then."""

    def __init__(self, root: Path, served: Path) -> None:
        from mkdocs.config import load_config
        from mkdocs.livereload import LiveReloadServer

        stale_install()

        self.load = lambda: load_config(config_file=str(root / "mkdocs.yml"), site_dir=str(served))
        self.config = self.load()
        self.config.plugins.on_startup(command="serve", dirty=False)
        self.config.site_url = SERVE_URL
        self.full_builds = 0
        self.server = LiveReloadServer(builder=self.mkdocs_rebuild, host="127.0.0.1", port=8000, root=str(served))

    def mkdocs_rebuild(self, config=None) -> None:
        """MkDocs' own builder: the whole site, every time."""
        from mkdocs.commands.build import build

        self.full_builds += 1
        config = config or self.load()
        config.site_url = SERVE_URL
        build(config, serve_url=SERVE_URL)

    def __call__(self) -> None:
        if self.full_builds == 0:
            self.mkdocs_rebuild(self.config)
            self.server = self.config.plugins.on_serve(self.server, config=self.config, builder=self.mkdocs_rebuild)
        else:
            self.server.builder()

    def close(self) -> None:
        self.config.plugins.on_shutdown()


@pytest.fixture
def mkdocs_serve(project):
    served = MkDocsServe(project, project.parent / "served")
    yield served
    served.close()


@pytest.mark.slow
@pytest.mark.parametrize("command", ["ruota-docs serve", "mkdocs serve"])
def test_rebuilt_pages_make_the_site_a_full_build_makes(project, caplog, command, request):
    from mkdocs.config import load_config

    served = project.parent / "served"
    if command == "mkdocs serve":
        builder = request.getfixturevalue("mkdocs_serve")
    else:
        builder = server.Builder(lambda: load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(served)),
                                 SERVE_URL)
    rebuilt = []

    def rebuild(**expected_pages):
        caplog.clear()
        builder()
        said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Rebuilt ")]
        rebuilt.append(said[-1] if said else "Rebuilt everything (first build), by MkDocs")
        reference = project.parent / f"full-{len(rebuilt)}"
        result = run_mkdocs(project)
        assert result.returncode == 0, result.stderr[-3000:]
        (project / "site").rename(reference)
        assert differences(served, reference) == []
        return rebuilt[-1]

    with caplog.at_level("INFO", logger="mkdocs"):
        assert rebuild().startswith("Rebuilt everything (first build)")
        edit(project / "docs/es/guide.md", "Un párrafo.", "Un párrafo nuevo.")
        # the guide, and the English site's, which shows it (the French one is stale already: same banner)
        assert rebuild().startswith("Rebuilt 2 pages in en, es")
        edit(project / "docs/es/guide.md", "print('guía')", "print('otra guía')")
        assert rebuild().startswith("Rebuilt 3 pages in en, es")  # and the Spanish status page: other code
        edit(project / "snippets/g/hello.py", "hola", "hola de nuevo")
        assert rebuild().startswith("Rebuilt 6 pages in en, es, fr")  # each home page includes it, and each status page
        edit(project / "snippets/g/unused.py", "nadie", "nadie aún")
        assert rebuild().startswith("Rebuilt nothing")
        edit(project / "docs/fr/guide.md", "# Guide {", "# Le guide {")  # a title: every French page's navigation
        assert rebuild().startswith("Rebuilt 1 page in fr")
        assert "A title changed in fr: rebuilding every page there" in caplog.text
        (project / "docs/es/new.md").write_text("# Nueva { #new }\n", encoding="utf-8")
        assert rebuild().startswith("Rebuilt everything (es/new.md was added: the navigation changes)")
    if command == "mkdocs serve":
        assert builder.full_builds == 1  # MkDocs' own builder built the first site only
    # the search index of each language holds the rebuilt pages' new text, where the old one was
    index = json.loads((served / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert [d["location"] for d in index["docs"]].count("guide/#section") == 1
    assert any("párrafo nuevo" in d["text"] for d in index["docs"])


@pytest.mark.slow
def test_a_failed_rebuild_is_followed_by_a_full_one(project, caplog):
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    served = project.parent / "served"
    builder = server.Builder(lambda: load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(served)),
                             SERVE_URL)
    with caplog.at_level("INFO", logger="mkdocs"):
        builder()
        edit(project / "docs/es/guide.md", "```python\nprint", "<!-- requires: gpu colour=red -->\n```python\nprint")
        with pytest.raises(Abort):
            builder()
        assert "es/guide.md:7: unknown requirement 'colour'" in caplog.text
        edit(project / "docs/es/guide.md", "<!-- requires: gpu colour=red -->\n", "")
        caplog.clear()
        builder()
    assert "Rebuilt everything (the last build failed)" in caplog.text


@pytest.mark.slow
def test_mkdocs_serve_can_keep_its_own_full_rebuild(project, caplog):
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert "  - ruota_docs:\n" in text
    config.write_text(text.replace("  - ruota_docs:\n", "  - ruota_docs:\n      partial_rebuild: false\n", 1),
                      encoding="utf-8")
    served = MkDocsServe(project, project.parent / "served")
    try:
        with caplog.at_level("INFO", logger="mkdocs"):
            served()
            assert served.server.builder == served.mkdocs_rebuild
            edit(project / "docs/es/guide.md", "Un párrafo.", "Un párrafo nuevo.")
            served()
        assert served.full_builds == 2 and "Rebuilt " not in caplog.text
        assert "ruota_docs_titles" not in served.config.plugins  # nothing of the preview in its builds
    finally:
        served.close()
