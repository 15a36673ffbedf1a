"""What the site says of who sent the records and of CI provenance (`ruota_docs.site.trust`): "CI run"
only for a verified attestation, "says it came from CI (not verified)" otherwise, an unknown commit flagged."""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

import pytest

from _support import record_of
from ruota_docs.records.schema import Machine, Record
from ruota_docs.site import matrix, trust

RUN = "https://github.com/ruota-docs/ruota-docs/actions/runs/13371337"


def words(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


@pytest.fixture
def repo(tmp_path) -> tuple[Path, list[tuple[Path, Record]]]:
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
        files.append((folder / name, Record(machine_id=None, machine=Machine.from_json(data["machine"]), provenance=data["provenance"],
                                            updated=data["updated"])))
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
    assert "says it came from CI (not verified)" in forged and not any("CI run" in f for f in forged)
    assert "its commit is not in the repository’s history" in forged  # f…f: no such commit
    assert "dice venir de la integración continua (sin verificar)" in [words(f) for f in matrix._machine_facts(claimed, "es")]
    assert "se dit issu de l'intégration continue (non vérifié)" in [words(f) for f in matrix._machine_facts(claimed, "fr")]


def test_without_a_list_no_ci_record_is_verified(repo):
    root, files = repo
    trust.use(root, files, {})
    assert all("says it came from CI (not verified)" in [words(f) for f in matrix._machine_facts(d, "en")] for _, d in files)
    assert trust.current().senders([d for _, d in files]) == 1  # one author added both


def _checked_site(tmp_path):
    """A three-language site whose build checks its records, in a new git repository: (root, git command)."""
    from _support import mkdocs_yml, write_tree

    page = "# Página { #page }\n\n```python\nprint('uno')\n```\n"
    root = write_tree(tmp_path / "site", {f"docs/{lang}/{name}": page for lang in ("es", "en", "fr")
                                          for name in ("index.md", "p.md")}, site=True, conftest=False)
    (root / "mkdocs.yml").write_text(mkdocs_yml(site=True, check_records=True), encoding="utf-8")
    (root / "verification").mkdir()
    git = ["git", "-C", str(root)]
    subprocess.run([*git, "init", "-q"], check=True)
    return root, git


def test_the_build_counts_senders_not_fingerprints(tmp_path):
    """Three records with made-up fingerprints, added by one author: the built page says
    "3 machines (gfx1102, 1 sender)", never "confirmed"; a second author's record makes two senders."""
    from _support import RX7600, article, run_mkdocs, synthetic_record

    root, git = _checked_site(tmp_path)

    def send(fingerprint: str, author: str) -> None:
        data = synthetic_record(root, RX7600)
        data["fingerprint"] = fingerprint
        (root / "verification" / f"rocm-gfx1102-{fingerprint[:8]}.json").write_text(
            record_of(data).to_json(), encoding="utf-8")
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "-c", f"user.name={author}", "-c", f"user.email={author}@example.org", "commit", "-qm",
                        f"record {fingerprint[:8]}"], check=True)

    for n in range(3):
        send(f"{n + 1:08x}" + "0" * 24, "one")
    built = run_mkdocs(root)
    assert built.returncode == 0, built.stderr[-2000:]
    shown = words(article(root / "site" / "en" / "p" / "index.html"))
    assert "Verified on 3 machines (gfx1102, 1 sender)" in shown and "confirmed" not in shown
    send("a" * 32, "two")
    built = run_mkdocs(root)
    assert built.returncode == 0, built.stderr[-2000:]
    assert "Verified on 4 machines (gfx1102, confirmed)" in words(article(root / "site" / "en" / "p" / "index.html"))


def test_one_machine_sent_twice_by_two_authors_is_refused_not_confirmed(tmp_path):
    """A pull request's shape: the same record (one fingerprint) added twice, under the old name and the new
    one, by commits of two made-up authors, to pass for two senders' machines. The check refuses the second
    record of one machine, so the build stops and never says "confirmed"."""
    from _support import RX7600, run_mkdocs, synthetic_record

    root, git = _checked_site(tmp_path)
    data = synthetic_record(root, RX7600)
    data["fingerprint"] = "c0ffee00" + "0" * 24
    for name, author in (("rocm-gfx1102.json", "alice"), ("rocm-gfx1102-c0ffee00.json", "bob")):
        (root / "verification" / name).write_text(record_of(data).to_json(), encoding="utf-8")
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "-c", f"user.name={author}", "-c", f"user.email={author}@example.org", "commit", "-qm",
                        f"record from {author}"], check=True)
    built = run_mkdocs(root)
    assert built.returncode != 0
    assert "machine 'rocm-gfx1102' (fingerprint c0ffee00…) already has a record" in built.stderr, built.stderr[-2000:]
    assert not (root / "site" / "en" / "p" / "index.html").exists() or \
        "confirmed" not in (root / "site" / "en" / "p" / "index.html").read_text(encoding="utf-8")
