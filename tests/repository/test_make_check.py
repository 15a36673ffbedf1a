"""`make check` is what CI runs after the tests: its translation commands must fail the build on a
stale translation, whose banner would otherwise reach the published site unnoticed."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _support import clean_env, write_tree

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PAGE = "# Página { #page }\n\nTexto.\n"


def translation_commands() -> list[list[str]]:
    """The ``ruota-docs i18n`` command lines of ``make check``, as make would run them (dry run;
    the install step the target depends on is taken as done)."""
    if shutil.which("make") is None:
        pytest.fail("make is not installed: `make check` cannot be read")
    dry = subprocess.run(["make", "-n", "-s", "-o", ".venv/.tests-installed", "check", f"BIN={BIN}"],
                         cwd=ROOT, capture_output=True, text=True, env=clean_env(), timeout=60, check=True)
    lines = [shlex.split(line) for line in dry.stdout.splitlines() if " i18n " in line]
    assert lines, dry.stdout
    return lines


def run_all(commands: list[list[str]], root: Path) -> list[subprocess.CompletedProcess]:
    return [subprocess.run(command, cwd=root, capture_output=True, text=True, env=clean_env(), timeout=120)
            for command in commands]


def test_make_check_fails_on_a_stale_translation_and_passes_once_it_is_synced(tmp_path):
    commands = translation_commands()
    root = write_tree(tmp_path, {f"docs/{lang}/p.md": PAGE for lang in ("es", "en", "fr")}, conftest=False)
    subprocess.run([str(BIN / "ruota-docs"), "i18n", "mark-synced", "p.md"], cwd=root, check=True,
                   capture_output=True, env=clean_env(), timeout=120)
    assert [r.returncode for r in run_all(commands, root)] == [0] * len(commands)

    # the source changes, the translations do not: same structure, so only staleness can catch it
    (root / "docs/es/p.md").write_text(PAGE + "\nOtro texto.\n", encoding="utf-8")
    results = run_all(commands, root)
    failed = [r for r in results if r.returncode != 0]
    assert failed, [r.stdout for r in results]
    assert "STALE docs/en/p.md" in failed[0].stdout and "STALE docs/fr/p.md" in failed[0].stdout
