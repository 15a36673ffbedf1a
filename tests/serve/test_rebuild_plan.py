"""The author's preview (ruota_docs.serve.server): what a change rebuilds, and that the rebuilt site is
byte for byte the site a full build makes of the same files."""

from __future__ import annotations

import filecmp
import json
import os
import time
from pathlib import Path

import pytest

from _support import run_mkdocs, write_tree
from ruota_docs.blocks import page_cache, renderer
from ruota_docs.serve import partial_build, rebuild_plan, server
from ruota_docs.site import fragments, search
from ruota_docs.site.site_languages import SiteLanguage

LANGUAGES = [SiteLanguage("es", ""), SiteLanguage("en", "en"), SiteLanguage("fr", "fr")]


# -- what changed ----------------------------------------------------------------------------------------------
def test_changes_between_snapshots(tmp_path):
    (tmp_path / "docs").mkdir()
    kept, edited, removed = (tmp_path / "docs" / name for name in ("kept.md", "edited.md", "removed.md"))
    for path in (kept, edited, removed):
        path.write_text("x\n", encoding="utf-8")
    before = server.snapshot([tmp_path / "docs"])
    edited.write_text("longer\n", encoding="utf-8")
    removed.unlink()
    added = tmp_path / "docs" / "added.md"
    added.write_text("y\n", encoding="utf-8")
    # what editors and Python write beside the files: never a change of the site
    for name in (".edited.md.swp", "edited.md~", "#edited.md#", ".hidden.md"):
        (tmp_path / "docs" / name).write_text("z\n", encoding="utf-8")
    (tmp_path / "docs" / "__pycache__").mkdir()
    (tmp_path / "docs" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"\0")
    found = server.changes(before, server.snapshot([tmp_path / "docs"]))
    assert found == {edited.resolve(): "modified", removed.resolve(): "removed", added.resolve(): "added"}


# -- what a change rebuilds ------------------------------------------------------------------------------------
PAGES = {
    "docs/es/guide.md": "# Guía { #guide }\n\nTexto.\n\n```python\n--8<-- \"g/code.py\"\n```\n",
    "docs/fr/guide.md": "# Guide { #guide }\n\nTexte.\n\n```python\n--8<-- \"g/code.py\"\n```\n",
    "docs/es/other.md": "# Otra { #other }\n\nTexto.\n",
    "snippets/g/code.py": "print(1)\n",
    "snippets/g/unused.py": "print(2)\n",
} | {f"docs/{lang}/status.md": "# Estado { #status }\n\n<!-- verification-status: -->\n" for lang in ("es", "en", "fr")}


@pytest.fixture
def rendered(tmp_path, monkeypatch):
    """A docs tree whose pages the cache has seen rendered, as the site build leaves it."""
    root = write_tree(tmp_path, PAGES, conftest=False)
    monkeypatch.chdir(root)
    page_cache.clear()
    for path in sorted((root / "docs").rglob("*.md")):
        key = path.relative_to(root / "docs").as_posix()
        found = renderer.render(root, path, docs_dir=root / "docs", fast=True)
        included = {root / "snippets" / src.split(":", 1)[0].removeprefix("snippets/") for b in found.blocks for src in b.includes}
        page_cache.remember(path, found.blocks, included, lists_pages=path.name == "status.md",
                            banner=fragments.translation_banner(root / "docs", key, key[:2], "es"))
    yield root
    page_cache.clear()


def plan(root: Path, **changed: str):
    return rebuild_plan.plan({root / path: change for path, change in changed.items()}, root, root / "docs", LANGUAGES,
                             "es", [root / "snippets"])


def test_prose_edited_in_a_source_page(rendered):
    edit(rendered / "docs/es/other.md", "Texto.", "Texto nuevo.")
    result = plan(rendered, **{"docs/es/other.md": "modified"})
    assert result.full is None
    # en and fr have no translation of it: they show the Spanish page; no block changed: no status page
    assert result.pages == {"es": {"other.md"}, "en": {"other.md"}, "fr": {"other.md"}}


def test_a_translation_whose_banner_stays_is_left_alone(rendered):
    edit(rendered / "docs/es/guide.md", "Texto.", "Texto nuevo.")
    # fr/guide.md records no translation_of: it was stale already, and its banner says the same;
    # en has no guide: it shows the Spanish one
    assert plan(rendered, **{"docs/es/guide.md": "modified"}).pages == {"es": {"guide.md"}, "en": {"guide.md"}}
    page_cache.remember(rendered / "docs/fr/guide.md", [], banner="")  # as if it had been in sync
    assert plan(rendered, **{"docs/es/guide.md": "modified"}).pages == {lang: {"guide.md"} for lang in ("es", "en", "fr")}


def test_other_blocks_rebuild_the_pages_that_list_them(rendered):
    edit(rendered / "docs/es/guide.md", "Texto.", "Texto.\n\n```python\nprint(3)\n```")
    assert plan(rendered, **{"docs/es/guide.md": "modified"}).pages == {"es": {"guide.md", "status.md"}, "en": {"guide.md"}}
    edit(rendered / "docs/fr/guide.md", "Texte.", "Texte,\nsur deux lignes.")  # the block moves down a line
    assert plan(rendered, **{"docs/fr/guide.md": "modified"}).pages == {"fr": {"guide.md", "status.md"}}


def test_a_snippet_rebuilds_the_pages_that_include_it(rendered):
    edit(rendered / "snippets/g/code.py", "print(1)", "print(10)")
    result = plan(rendered, **{"snippets/g/code.py": "modified"})
    # en has no guide of its own: it shows the Spanish one, which includes the snippet
    assert result.pages == {"es": {"guide.md", "status.md"}, "fr": {"guide.md", "status.md"}, "en": {"guide.md"}}
    nothing = plan(rendered, **{"snippets/g/unused.py": "modified"})
    assert nothing.full is None and nothing.pages == {}
    assert nothing.describe() == "nothing (no page shows what changed)"


@pytest.mark.parametrize(("changed", "why"), [
    ({"docs/es/new.md": "added"}, "es/new.md was added: the navigation changes"),
    ({"docs/es/other.md": "removed"}, "es/other.md was removed: the navigation changes"),
    ({"docs/es/image.png": "modified"}, "es/image.png changed"),
    ({"docs/de/page.md": "modified"}, "de/page.md changed"),
    ({"mkdocs.yml": "modified"}, "mkdocs.yml changed"),
    ({"verification/cpu-x86_64.json": "modified"}, "cpu-x86_64.json changed"),
])
def test_what_rebuilds_everything(rendered, changed, why):
    assert plan(rendered, **changed).full == why


def test_a_page_never_rendered_rebuilds_everything(rendered):
    (rendered / "docs/en/guide.md").write_text("# Guide\n", encoding="utf-8")
    assert plan(rendered, **{"docs/en/guide.md": "modified"}).full == "en/guide.md has not been built yet"


# -- search ----------------------------------------------------------------------------------------------------
def test_search_entries_of_rebuilt_pages_are_replaced_in_place():
    doc = lambda location, text="": {"location": location, "title": location, "text": text}  # noqa: E731
    index = {"config": {"lang": ["es"]}, "docs": [doc(""), doc("a/"), doc("a/#one"), doc("a/#two"), doc("b/")]}
    fresh = {"config": {"lang": ["es"]}, "docs": [doc("a/", "new"), doc("a/#three"), doc("c/")]}
    merged = search.replace_pages(index, fresh, {"a/", "c/"})
    assert [d["location"] for d in merged["docs"]] == ["", "a/", "a/#three", "b/", "c/"]
    assert merged["docs"][1]["text"] == "new"
    assert [d["location"] for d in search.replace_pages(index, {"docs": []}, {"b/"})["docs"]] == ["", "a/", "a/#one", "a/#two"]


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


def edit(path: Path, old: str, new: str) -> None:
    """Change a file as an editor saves it: new content, a later modification time."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    stamp = path.stat().st_mtime_ns
    path.write_text(text.replace(old, new), encoding="utf-8")
    if path.stat().st_mtime_ns <= stamp:  # a coarse clock: make the change visible
        os.utime(path, ns=(stamp + 1_000_000, stamp + 1_000_000))


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
    monkeypatch.chdir(root)  # pymdownx.snippets reads includes relative to the current folder, as in a build
    page_cache.clear()
    partial_build.TITLES.clear()
    yield root
    page_cache.clear()
    partial_build.TITLES.clear()


#: The address the sites are served at: the site_url of the sample projects, so that a full build makes the same pages.
SERVE_URL = "https://sample.example.org/"


def stale_install() -> None:
    """Fail, saying why, where the installed entry points predate the plugin with ``on_serve``."""
    from mkdocs.plugins import get_plugins

    named = get_plugins()["ruota_docs"].value
    if named != "ruota_docs.serve.plugin:LivePreviewPlugin":
        pytest.fail(f"mkdocs.yml's ruota_docs loads {named}: the installed entry points are stale "
                    "(reinstall the package: pip install -e .)", pytrace=False)


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


def test_the_command_line_refuses_a_bad_poll(capsys):
    with pytest.raises(SystemExit) as exited:
        server.main(["--poll", "0"])
    assert exited.value.code == 2 and "--poll must be a positive number of seconds" in capsys.readouterr().err


def test_ruota_docs_serve_is_the_same_command(capsys, tmp_path, monkeypatch):
    from ruota_docs.cli import main

    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert exited.value.code == 0 and out.startswith("usage: ruota-docs serve") and "--full" in out
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--poll", "-1"])
    assert exited.value.code == 2 and "ruota-docs serve: error: --poll must be a positive" in capsys.readouterr().err


def test_snapshot_of_a_single_file(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\n", encoding="utf-8")
    taken = server.snapshot([config])
    assert list(taken) == [config.resolve()]
    time.sleep(0.01)
    config.write_text("site_name: y\n", encoding="utf-8")
    assert server.changes(taken, server.snapshot([config])) == {config.resolve(): "modified"}


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


def test_mkdocs_yml_names_the_plugin_with_the_preview():
    """The plugin mkdocs.yml's ``ruota_docs`` loads is the one with ``on_serve``."""
    from mkdocs.plugins import get_plugins

    from ruota_docs.serve.plugin import LivePreviewPlugin

    stale_install()
    assert get_plugins()["ruota_docs"].load() is LivePreviewPlugin
