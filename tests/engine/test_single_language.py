"""A site in one language, with no i18n plugin and no conftest: first-class.

The project is what another project's authors have: a mkdocs.yml with the plain mkdocs theme
(whose language setting is ``locale``), pages in folders that are not languages, and the
``ruota_docs`` plugin. ``pytest`` collects it as it is; the record's keys and languages are
right and pass ``record check``; the translation commands say they do not apply; the built
site has no "not translated" banner, speaks the theme's language, and ships its stylesheet.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from _support import clean_env, read_ledger, run_mkdocs, run_pytest

MKDOCS_YML = """\
site_name: tiny
theme:
  name: mkdocs
  locale: fr
plugins:
  - ruota_docs
markdown_extensions:
  - pymdownx.superfences
"""

PAGES = {
    "docs/index.md": "# Accueil\n\n```python\nprint('home')\n```\n",
    "docs/advanced/auth.md": "# Auth\n\n```python\nimport sys\nprint(len(sys.argv))\n```\n\n```text\nan output\n```\n",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("single")
    (root / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    for rel, content in PAGES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(content, encoding="utf-8")
    result = run_pytest(root)  # no conftest.py, no pytest.ini, no path: the plugin finds the site
    assert result.returncode == 0, result.stdout[-3000:]
    return root


def cli(root, *args):
    return subprocess.run([sys.executable, "-m", "ruota_docs.cli", *args], cwd=root, env=clean_env(),
                          capture_output=True, text=True, timeout=120)


def test_pytest_collects_the_site_with_no_conftest(project):
    record = next((project / "verification").glob("*.json"))
    blocks = read_ledger(record)["blocks"]
    assert sorted(blocks) == ["advanced/auth.md#0", "advanced/auth.md#1", "index.md#0"]
    assert {entry["lang"] for entry in blocks.values()} == {"fr"}  # the theme's locale, not a folder's name
    assert blocks["advanced/auth.md#0"]["output"] == "1\n"
    assert not list((project / "verification").glob(".*.lock"))


def test_record_check_accepts_the_record_it_wrote(project):
    record = next((project / "verification").glob("*.json"))
    result = cli(project, "record", "check", str(record))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "accepted" in result.stdout


def test_translation_commands_say_they_do_not_apply(project):
    for action in ("check", "status"):
        result = cli(project, "i18n", action)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "does not apply: this site is written in one language (fr)" in result.stdout


def test_status_lists_every_page(project):
    result = cli(project, "status")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "advanced/auth.md (1 block)" in result.stdout and "index.md (1 block)" in result.stdout


def test_the_build_has_no_banner_speaks_the_locale_and_ships_the_stylesheet(project):
    result = run_mkdocs(project)
    assert result.returncode == 0, result.stderr[-3000:]
    page = (project / "site/advanced/auth/index.html").read_text(encoding="utf-8")
    assert "ruota-banner" not in page
    assert "<span>Vérifié sur " in page  # the plugin's words in the theme's locale (French)
    assert 'href="../../assets/stylesheets/ruota.css"' in page
    css = (project / "site/assets/stylesheets/ruota.css").read_text(encoding="utf-8")
    assert ".ruota-icon" in css and ".ruota-outputs > input" in css


def test_source_language_is_honoured(tmp_path):
    options = "  - ruota_docs:\n      source_language: en\n"
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML.replace("  - ruota_docs\n", options), encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/index.md").write_text(PAGES["docs/index.md"])
    assert run_pytest(tmp_path, "docs").returncode == 0
    blocks = read_ledger(next((tmp_path / "verification").glob("*.json")))["blocks"]
    assert blocks["index.md#0"]["lang"] == "en"


def test_verify_runs_the_sites_own_docs_dir(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML + "docs_dir: pages\n", encoding="utf-8")
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages/index.md").write_text(PAGES["docs/index.md"], encoding="utf-8")
    (tmp_path / "pages/sub").mkdir()
    result = cli(tmp_path / "pages/sub", "verify", "--no-record")  # from a folder inside the project
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "1 passed" in result.stdout
