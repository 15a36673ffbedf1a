"""translations.staleness: when a translation was last synced with its source, and what changed since."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

import pytest

from _support import write_tree
from ruota_docs.translations import parity, staleness


def write(docs: Path, pages: dict[str, str]) -> Path:
    """Pages under ``docs``, in a project with the site's Markdown extensions and the snippets they include."""
    if not (docs.parent / "mkdocs.yml").exists():
        write_tree(docs.parent, {"snippets/g/010_probe.py": "print('probe')\n", "snippets/g/011_probe.py": "print('other')\n"},
                   conftest=False)
    for rel, text in pages.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text, encoding="utf-8")
    return docs


# -- staleness ---------------------------------------------------------------------------------------------
def git(repo: Path, *args: str, date: str = "2026-07-16T12:00:00+00:00") -> str:
    env = os.environ | {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org",
                        "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path):
    docs = write(tmp_path / "docs", {"es/p.md": "# P { #p }\n\nPrimera línea.\n\nSegunda línea.\n",
                                     "en/p.md": "---\ntitle: P\n---\n# P { #p }\n\nFirst line.\n\nSecond line.\n"})
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "first")
    return docs


def test_translation_state_and_mark_synced(repo):
    assert staleness.translation_state(repo, "es/p.md") is None
    assert staleness.translation_state(repo, "en/missing.md") is None
    state = staleness.translation_state(repo, "en/p.md")
    source = (repo / "es/p.md").read_text(encoding="utf-8")
    assert (state.recorded, state.current, state.stale) == (None, parity.source_hash(source), True)
    assert state.source_page == "es/p.md"
    assert state.source_changed == dt.datetime(2026, 7, 16, 12, tzinfo=dt.timezone.utc)

    digest = staleness.mark_synced(repo, "en/p.md")
    assert digest == parity.source_hash(source) and len(digest) == 12
    text = (repo / "en/p.md").read_text(encoding="utf-8")
    assert text == f"---\ntitle: P\ntranslation_of: {digest}\n---\n# P {{ #p }}\n\nFirst line.\n\nSecond line.\n"
    state = staleness.translation_state(repo, "en/p.md")
    assert (state.stale, state.recorded, state.source_changed) == (False, digest, None)


def test_mark_synced_without_front_matter_and_twice(repo):
    (repo / "en/p.md").write_text("# P { #p }\n\nFirst line.\n", encoding="utf-8")
    first = staleness.mark_synced(repo, "en/p.md")
    assert (repo / "en/p.md").read_text(encoding="utf-8") == f"---\ntranslation_of: {first}\n---\n\n# P {{ #p }}\n\nFirst line.\n"
    (repo / "es/p.md").write_text("# P { #p }\n\nOtra.\n", encoding="utf-8")
    second = staleness.mark_synced(repo, "en/p.md")
    assert second != first
    assert (repo / "en/p.md").read_text(encoding="utf-8").count("translation_of:") == 1
    assert f"translation_of: {second}\n" in (repo / "en/p.md").read_text(encoding="utf-8")


def test_source_diff_lists_the_change(repo):
    staleness.mark_synced(repo, "en/p.md")
    git(repo.parent, "commit", "-q", "-am", "synced")
    (repo / "es/p.md").write_text("# P { #p }\n\nPrimera línea.\n\nSegunda línea, corregida.\n", encoding="utf-8")
    git(repo.parent, "commit", "-q", "-am", "source changed", date="2026-08-01T09:30:00+00:00")
    state = staleness.translation_state(repo, "en/p.md")
    assert state.stale
    assert state.source_changed == dt.datetime(2026, 8, 1, 9, 30, tzinfo=dt.timezone.utc)
    diff = staleness.source_diff(repo, state)
    assert diff.startswith("--- es/p.md (translated)\n+++ es/p.md (now)\n")
    assert "\n-Segunda línea.\n+Segunda línea, corregida.\n" in diff
    assert "Primera línea." in diff and "+Primera" not in diff


def test_uncommitted_change_counts_by_modification_time(repo):
    staleness.mark_synced(repo, "en/p.md")
    (repo / "es/p.md").write_text("# P { #p }\n\nCambiado.\n", encoding="utf-8")
    os.utime(repo / "es/p.md", (1_800_000_000, 1_800_000_000))
    state = staleness.translation_state(repo, "en/p.md")
    assert state.stale
    assert state.source_changed == dt.datetime.fromtimestamp(1_800_000_000, dt.timezone.utc)
    # the translated version is the committed one: the diff still works
    assert "+Cambiado." in staleness.source_diff(repo, state)


def test_source_diff_without_history(repo):
    state = staleness.translation_state(repo, "en/p.md")
    state.recorded = "0123456789ab"
    assert staleness.source_diff(repo, state) == ("(the source version 0123456789ab is not in the git history; "
                                            "compare the pages by hand)\n")
