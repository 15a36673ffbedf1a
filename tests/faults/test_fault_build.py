"""The site and the status report when the record does not match the pages: no verification/
folder yet, records of pages that were deleted, a page whose blocks were all skipped."""

from __future__ import annotations

import shutil

import pytest

from _support import reader_folder, record_of
from faulttree import DocTree, compose, fence, this_machine
from ruota_docs.records import verdicts

SKIPPED = compose(
    "Skipped",
    fence("print('needs a Radeon VII')", directives="<!-- requires: rocm arch=gfx906 -->"),
    fence("sudo apt-get install rocm", lang="bash", directives='<!-- run: skip reason="instala paquetes del sistema" -->'),
)


@pytest.fixture(scope="module")
def project(reader_tmp_root):
    """A project built and reported on before any run (no verification/ folder), then run once."""
    if this_machine() == "rocm-gfx906":
        pytest.skip("this machine is a Radeon VII: the 'all skipped' page would run")
    tree = DocTree(reader_folder(reader_tmp_root, "build") / "project")
    tree.page("keep.md", compose("Keep", fence("print('kept')"))[0])
    tree.page("gone.md", compose("Gone", fence("print('soon deleted')"), fence("print('also')"))[0])
    tree.page("skipped.md", SKIPPED[0])
    before = {"exists": tree.verification.exists(), "status": tree.status(), "build": tree.build()}
    before["html"] = tree.html("keep.md") if before["build"].returncode == 0 else ""
    run = tree.pytest()
    assert run.returncode == 0, run
    return tree, before


def test_missing_verification_folder(project):
    tree, before = project
    assert before["exists"] is False
    assert before["status"].returncode == 0, before["status"]
    assert before["status"].stdout.startswith("machines: none (no record in verification/)\n")
    assert before["build"].returncode == 0, before["build"]
    assert "Sin verificar: ninguna ejecución ha registrado este bloque" in before["html"]
    assert "Ningún bloque de código de esta página se ha verificado todavía." in before["html"]
    # the first run created the folder and this machine's record
    assert [e["outcome"] for e in tree.entries("es/keep.md")] == ["passed"]


def test_page_whose_blocks_all_skipped(project):
    tree, _ = project
    entries = tree.entries("es/skipped.md")
    assert [e["outcome"] for e in entries] == ["skipped", "skipped"]
    assert entries[0]["reason"].startswith("requires ROCm, arch gfx906; this machine: ")
    assert entries[1]["reason"] == "not run: instala paquetes del sistema"
    status = tree.status("--strict")
    assert status.returncode == 0, status
    assert f"es/skipped.md (2 blocks)\n  {verdicts.record_id(record_of(tree.ledger()))}: 0 passed, 0 failed, 2 skipped, 0 not run" in status.stdout
    build = tree.build()
    assert build.returncode == 0, build
    html = tree.html("skipped.md")
    assert "Omitido en" in html
    assert "Excluido deliberadamente de las pruebas: este bloque instala paquetes del sistema" in html
    assert html.count('class="ruota-verify ruota-state-skipped"') == 1
    assert html.count('class="ruota-verify ruota-state-notrun"') == 1


def test_records_of_deleted_pages(project):
    tree, _ = project
    assert len(tree.entries("es/gone.md")) == 2
    for lang in ("es", "en", "fr"):
        (tree.docs / lang / "gone.md").unlink()
    shutil.rmtree(tree.root / "site", ignore_errors=True)
    build = tree.build()
    assert build.returncode == 0, build
    assert not (tree.root / "site/gone").exists()
    assert "kept" in tree.html("keep.md")
    status = tree.status()
    assert status.returncode == 0, status
    assert "\n\nrecords of pages no longer in docs/ (ignored here and by the site):\n" in status.stdout
    assert f"  es/gone.md: 2 blocks recorded by {this_machine()}\n" in status.stdout
    assert "es/keep.md" not in status.stdout.split("no longer in docs/")[1]
    # the records themselves are kept: deleting a page is not a reason to rewrite other pages' history
    assert len(tree.entries("es/gone.md")) == 2
