"""What the site says of who sent the records and of CI provenance (`ruota_docs.site.trust`): "CI run"
only for a verified attestation, "CI claimed, not verified" otherwise, an unknown commit flagged."""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

import pytest

from ruota_docs.site import matrix, trust

RUN = "https://github.com/ruota-docs/ruota-docs/actions/runs/13371337"


def words(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


@pytest.fixture
def repo(tmp_path) -> tuple[Path, list[tuple[Path, dict]]]:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    commit = ["git", "-C", str(tmp_path), "-c", "user.name=o", "-c", "user.email=owner@example.org", "commit", "-q"]
    subprocess.run([*commit, "--allow-empty", "-m", "start"], check=True)
    head = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    folder = tmp_path / "verification"
    folder.mkdir()
    files = []
    for name, commit_of in (("rocm-gfx1102-0000aaaa.json", head), ("rocm-gfx1102-0000bbbb.json", "f" * 40)):
        data = {"machine": {"gpu_name": "AMD Radeon RX 7600", "arch": "gfx1102", "os": "linux"},
                "provenance": {"kind": "ci", "run_url": RUN, "commit": commit_of}, "updated": "2026-12-01T10:00:00Z"}
        (folder / name).write_text(json.dumps(data))
        files.append((folder / name, data))
    subprocess.run(["git", "-C", str(tmp_path), "add", "verification"], check=True)
    subprocess.run([*commit, "-m", "records"], check=True)
    yield tmp_path, files
    trust._CURRENT[0] = trust.Trust()


def test_only_a_verified_ci_record_links_to_its_run(repo):
    root, files = repo
    known = trust.use(root, files, {"rocm-gfx1102-0000aaaa.json": "card-owner"})
    (_, verified), (_, claimed) = files
    assert known.sender_of(verified) == "ci:card-owner" and known.sender_of(claimed) == "git:owner@example.org"
    shown = matrix._machine_facts(verified, "en")
    assert f'<a href="{RUN}">CI run</a>' in shown
    forged = [words(f) for f in matrix._machine_facts(claimed, "en")]
    assert "CI claimed, not verified" in forged and not any("CI run" in f for f in forged)
    assert "its commit is not in the repository’s history" in forged  # f…f: no such commit
    assert "CI declarado, no verificado" in [words(f) for f in matrix._machine_facts(claimed, "es")]
    assert "CI annoncée, non vérifiée" in [words(f) for f in matrix._machine_facts(claimed, "fr")]


def test_without_a_list_no_ci_record_is_verified(repo):
    root, files = repo
    trust.use(root, files, {})
    assert all("CI claimed, not verified" in [words(f) for f in matrix._machine_facts(d, "en")] for _, d in files)
    assert trust.current().senders([d for _, d in files]) == 1  # one author added both
