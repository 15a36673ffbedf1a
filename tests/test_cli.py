"""The ``ruota-docs`` command: help, version, status of the records, translation checks."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from _support import clean_env, record_of, write_tree
from ruota_docs import __version__
from ruota_docs.cli import main

COMMAND = Path(sys.executable).parent / "ruota-docs"

PAGE = """\
    # Página { #page }

    ```python
    print("uno")
    ```

    ```python
    print("dos")
    ```

    <!-- requires: rocm -->
    ```python
    print("tres")
    ```

    <!-- run: skip reason="instala paquetes" -->
    ```bash
    apt install x
    ```
    """
CODES = ['print("uno")', 'print("dos")', 'print("tres")', "apt install x"]


def sha(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def ledger_file(path: Path, machine_id: str, outcomes: list[tuple[int, str, str]], pages=("es/p.md",)) -> None:
    """A hand-written ledger: ``(index, outcome, code)`` per block, the same for each page."""
    blocks = {f"{page}#{i}": {"page": page, "lang": page[:2], "index": i, "line": 3 + 4 * i, "language": "python",
                              "sha256": sha(code), "id": None, "outcome": outcome, "reason": None, "error": None,
                              "duration": 0.1, "output": "", "ran_at": "2026-11-20T10:00:00Z", "reused_from": None}
              for page in pages for i, outcome, code in outcomes}
    data = {"schema": 1, "kind": "ruota-docs/ledger", "machine_id": machine_id,
            "machine": {"backend": machine_id.split("-")[0], "machine": "x86_64", "machine_id": machine_id},
            "updated": "2026-11-20T10:00:00Z", "blocks": blocks}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record_of(data).to_json(), encoding="utf-8")


ALL = ("es/p.md", "en/p.md", "fr/p.md")


@pytest.fixture
def tree(tmp_path):
    return write_tree(tmp_path, {f"docs/{lang}/p.md": PAGE for lang in ("es", "en", "fr")}, conftest=False)


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- the installed command ----------------------------------------------------------------------------------
def test_help():
    result = subprocess.run([str(COMMAND), "--help"], capture_output=True, text=True, env=clean_env(), timeout=60)
    assert result.returncode == 0
    assert result.stdout.startswith("usage: ruota-docs")
    for word in ("status", "i18n", "verify", "--root", "--version"):
        assert word in result.stdout


def test_version():
    result = subprocess.run([str(COMMAND), "--version"], capture_output=True, text=True, env=clean_env(), timeout=60)
    assert (result.returncode, result.stdout) == (0, f"ruota-docs {__version__}\n")


def test_unknown_arguments(tree, capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--root", str(tree), "status", "--bogus"])
    assert caught.value.code == 2
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err


def test_verify_runs_the_pages_named_or_every_page(tree, capsys, monkeypatch):
    import ruota_docs.cli as cli_module

    calls = []
    monkeypatch.setattr(cli_module.subprocess, "call", lambda command, cwd: calls.append((command, cwd)) or 0)
    monkeypatch.chdir(tree / "docs")
    assert main(["verify", "es/p.md", "-n", "2", "--no-record"]) == 0
    assert main(["verify", "--no-record"]) == 0
    (named, cwd), (every, _) = calls
    assert cwd == tree and named[3:] == ["-p", "no:cacheprovider", str(tree / "docs/es/p.md"), "-n", "2", "--no-record"]
    assert every[3:] == ["docs", "-p", "no:cacheprovider", "--no-record"]


def test_no_project(tmp_path):
    with pytest.raises(SystemExit) as caught:
        main(["--root", str(tmp_path), "status"])
    assert "no mkdocs.yml" in str(caught.value.code)


def test_a_project_with_mkdocs_yaml_is_found_from_a_folder_inside_it(tree, capsys):
    (tree / "mkdocs.yml").rename(tree / "mkdocs.yaml")
    code, out, _ = cli(capsys, "--root", str(tree / "docs" / "es"), "status")
    assert code == 0 and "\nes/p.md (4 blocks)\n" in out


# -- status ---------------------------------------------------------------------------------------------------
def test_status_without_ledgers(tree, capsys):
    code, out, _ = cli(capsys, "--root", str(tree), "status")
    assert code == 0
    assert out.startswith("machines: none (no record in verification/)\n")
    assert "\nes/p.md (4 blocks)\n" in out
    assert "  not verified anywhere or failing: lines 3, 7, 12\n" in out
    code, _, err = cli(capsys, "--root", str(tree), "status", "--strict")
    assert code == 1
    assert "9 blocks have no passing record on any machine or failed last time" in err


def test_status_names_a_block_written_in_an_included_markdown_file_at_that_file(tmp_path, capsys):
    root = write_tree(tmp_path, {"docs/es/p.md": '# P\n\n```python\nx = 1\n```\n\n--8<-- "part.md"\n',
                                 "snippets/part.md": "Text.\n\n```python\ny = 2\n```\n"}, conftest=False)
    code, out, _ = cli(capsys, "--root", str(root), "status")
    assert code == 0 and "  not verified anywhere or failing: lines 3; snippets/part.md:3\n" in out


def test_status_with_ledgers(tree, capsys):
    ledger_file(tree / "verification" / "cpu-x86_64.json", "cpu-x86_64",
                [(0, "passed", CODES[0]), (1, "failed", CODES[1]), (2, "skipped", CODES[2]), (3, "skipped", CODES[3])], ALL)
    # a GPU machine ran only the Spanish page, with older code for block 1
    ledger_file(tree / "verification" / "rocm-gfx906.json", "rocm-gfx906",
                [(0, "passed", CODES[0]), (1, "passed", "old code"), (2, "passed", CODES[2])])

    code, out, _ = cli(capsys, "--root", str(tree), "status")
    assert code == 0
    assert out.startswith("machines: cpu-x86_64, rocm-gfx906\n")
    es = out.split("es/p.md (4 blocks)\n", 1)[1].split("\n\n", 1)[0]
    assert es.splitlines() == [
        "  cpu-x86_64: 1 passed, 1 failed, 2 skipped, 0 not run",
        "  rocm-gfx906: 2 passed, 0 failed, 0 skipped, 2 not run",
        "  not verified anywhere or failing: lines 7",
    ]
    en = out.split("en/p.md (4 blocks)\n", 1)[1].split("\n\n", 1)[0]
    assert en.splitlines() == [
        "  cpu-x86_64: 1 passed, 1 failed, 2 skipped, 0 not run",
        "  rocm-gfx906: 0 passed, 0 failed, 0 skipped, 4 not run",
        # block 3 was skipped here and never run on the machine that could run it
        "  not verified anywhere or failing: lines 7, 12",
    ]
    code, _, err = cli(capsys, "--root", str(tree), "status", "--strict")
    assert code == 1
    assert err.strip() == "5 blocks have no passing record on any machine or failed last time"


def test_status_strict_passes_when_every_block_passed_or_is_explained(tree, capsys):
    # a block whose requirement no machine meets is skipped, with its reason: not a failure of the docs
    ledger_file(tree / "verification" / "cpu-x86_64.json", "cpu-x86_64",
                [(0, "passed", CODES[0]), (1, "passed", CODES[1]), (2, "skipped", CODES[2]), (3, "skipped", CODES[3])], ALL)
    code, out, err = cli(capsys, "--root", str(tree), "status", "--strict")
    assert (code, err) == (0, "")
    assert "not verified anywhere" not in out
    assert out.count("cpu-x86_64: 2 passed, 0 failed, 2 skipped, 0 not run") == 3


def test_status_with_corrupt_ledger(tree, capsys):
    (tree / "verification").mkdir()
    (tree / "verification" / "cpu-x86_64.json").write_text("{oops")
    code, _, err = cli(capsys, "--root", str(tree), "status")
    assert code == 2
    assert f"{tree / 'verification' / 'cpu-x86_64.json'}: not valid JSON" in err


def test_status_reports_unreadable_pages(tree, capsys):
    (tree / "docs/es/bad.md").write_text("# Bad\n\n<!-- requires: rocm -->\nText.\n\n```python\npass\n```\n")
    code, out, _ = cli(capsys, "--root", str(tree), "status", "--strict")
    assert code == 1
    assert "es/bad.md:3: cannot read: requires: directive at line 3 is not directly followed by a code block" in out


def test_status_finds_the_project_from_a_subfolder(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree / "docs" / "es")
    code, out, _ = cli(capsys, "status")
    assert code == 0 and "es/p.md (4 blocks)" in out


# -- i18n ----------------------------------------------------------------------------------------------------------
def test_i18n_check_exit_codes(tree, capsys):
    code, out, _ = cli(capsys, "--root", str(tree), "i18n", "check")
    assert (code, out) == (0, "translations match (es, en, fr)\n")
    page = (tree / "docs/fr/p.md").read_text().replace('print("dos")', 'print("deux")')
    (tree / "docs/fr/p.md").write_text(page)
    code, out, _ = cli(capsys, "--root", str(tree), "i18n", "check")
    assert code == 1
    assert out == ("docs/fr/p.md:7: code block 2 differs from es/p.md:7 (language, code, requirements, run options or evidence)\n"
                   "1 problem (3 languages checked: es, en, fr)\n")


def test_i18n_mark_synced_and_status(tree, capsys):
    code, out, _ = cli(capsys, "--root", str(tree), "i18n", "status", "--no-diff")
    assert code == 1
    assert "STALE docs/en/p.md: es/p.md changed on " in out and "STALE docs/fr/p.md" in out
    assert out.endswith("2 stale translations\n")

    code, out, _ = cli(capsys, "--root", str(tree), "i18n", "mark-synced", "p.md")
    digest = hashlib.sha256((tree / "docs/es/p.md").read_bytes()).hexdigest()[:12]
    assert code == 0
    assert out == f"docs/en/p.md: translation_of {digest}\ndocs/fr/p.md: translation_of {digest}\n"
    assert (tree / "docs/en/p.md").read_text().startswith(f"---\ntranslation_of: {digest}\n---\n")
    code, out, _ = cli(capsys, "--root", str(tree), "i18n", "status")
    assert (code, out) == (0, "every translation is in sync with its source\n")
    # marking adds front matter, not a translation difference
    assert cli(capsys, "--root", str(tree), "i18n", "check")[0] == 0


def test_i18n_mark_synced_one_page(tree, capsys):
    code, out, _ = cli(capsys, "--root", str(tree), "i18n", "mark-synced", "docs/fr/p.md")
    assert code == 0 and out.startswith("docs/fr/p.md: translation_of ")
    assert "translation_of" not in (tree / "docs/en/p.md").read_text()


def test_i18n_mark_synced_errors(tree, capsys):
    code, _, err = cli(capsys, "--root", str(tree), "i18n", "mark-synced")
    assert code == 2 and "name one or more pages" in err
    code, _, err = cli(capsys, "--root", str(tree), "i18n", "mark-synced", "fr/nope.md")
    assert code == 2 and "docs/fr/nope.md does not exist" in err
    code, _, err = cli(capsys, "--root", str(tree), "i18n", "mark-synced", "de/p.md")
    assert code == 2 and "'de' is not a language of this site (es, en, fr)" in err
    code, _, err = cli(capsys, "--root", str(tree), "i18n", "mark-synced", "es/p.md")
    assert code == 2 and "docs/es/p.md is the source page: name a translation (en/p.md, fr/p.md), or p.md for all of them" in err


def test_i18n_status_names_a_missing_translation(tree, capsys):
    cli(capsys, "--root", str(tree), "i18n", "mark-synced", "p.md")
    (tree / "docs/es/nueva.md").write_text("# Nueva { #nueva }\n", encoding="utf-8")
    code, out, _ = cli(capsys, "--root", str(tree), "i18n", "status")
    assert code == 1
    assert "MISSING docs/en/nueva.md: no translation of docs/es/nueva.md yet (the site shows the original)" in out
    assert out.endswith("2 missing translations\n")


# -- facts ----------------------------------------------------------------------------------------------------
FACT_PAGE = """\
    # Guía { #guide }

    ROCm 7.14 tiene un índice estable <!-- fact: checked=2026-11-20 source=https://example.org/index -->.
    TensorFlow para ROCm llegó a 2.20.0 <!-- fact: checked=2026-07-01 source=https://example.org/matrix -->.

    ```markdown
    <!-- fact: checked=1999-01-01 source=https://example.org/shown -->
    ```
    """


def _fact_site(tmp_path, extra: str = "") -> Path:
    root = write_tree(tmp_path, {"docs/es/guide.md": FACT_PAGE, "docs/en/guide.md": FACT_PAGE.replace("Guía", "Guide")},
                      conftest=False)
    if extra:
        config = (root / "mkdocs.yml").read_text(encoding="utf-8").replace("plugins:\n", "plugins:\n" + extra, 1)
        (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return root


def test_facts_lists_every_fact_oldest_first(tmp_path, capsys):
    root = _fact_site(tmp_path)
    assert main(["--root", str(root), "facts"]) == 0
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if "docs/" in ln and " d  " in ln]
    assert [ln.split()[3] for ln in lines] == ["docs/en/guide.md:4", "docs/es/guide.md:4",
                                                "docs/en/guide.md:3", "docs/es/guide.md:3"]
    assert "TensorFlow para ROCm llegó a 2.20.0" in out and "https://example.org/matrix" in out
    assert "shown" not in out  # a directive inside a code block is only shown
    assert "4 facts (2 distinct checks) in docs/" in out


def test_facts_as_of_fails_naming_each_expired_fact(tmp_path, capsys):
    root = _fact_site(tmp_path)
    assert main(["--root", str(root), "facts", "--as-of", "2026-11-28"]) == 1  # 150 days after 1 July
    out = capsys.readouterr().out
    assert ("docs/es/guide.md:4: expired: checked 2026-07-01, 150 days before 2026-11-28 (the site allows 120): "
            "https://example.org/matrix") in out
    assert "docs/en/guide.md:4: expired" in out and ":3: expired" not in out
    assert main(["--root", str(root), "facts", "--as-of", "2026-10-29"]) == 0  # 120 days: still current
    assert main(["--root", str(root), "facts", "--as-of", "2026-10-29", "--max-age", "30"]) == 1


def test_facts_max_age_comes_from_the_plugin_option(tmp_path, capsys):
    root = _fact_site(tmp_path, "  - ruota_docs:\n      fact_max_age: 200\n")
    assert main(["--root", str(root), "facts", "--as-of", "2026-11-28"]) == 0
    assert "0 older than 200 days" in capsys.readouterr().out
    bad = _fact_site(tmp_path / "bad", "  - ruota_docs:\n      fact_max_age: soon\n")
    assert main(["--root", str(bad), "facts"]) == 2
    assert "fact_max_age: must be a whole number of days" in capsys.readouterr().err


def test_facts_json_and_unreadable_directives(tmp_path, capsys):
    root = _fact_site(tmp_path)
    assert main(["--root", str(root), "facts", "--json", "--as-of", "2026-12-06"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["max_age_days"], len(data["facts"])) == (120, 4)
    assert [f["expired"] for f in data["facts"]] == [True, True, False, False]
    (root / "docs/en/guide.md").write_text("# G\n\nX <!-- fact: checked=2026-12-06 -->\n", encoding="utf-8")
    assert main(["--root", str(root), "facts"]) == 2
    assert "docs/en/guide.md:3: error: fact: needs source=" in capsys.readouterr().err
