"""What `ruota-docs contribute` checks before it runs (`ruota_docs.run.preflight`)."""

from __future__ import annotations

import subprocess
from types import SimpleNamespace

from ruota_docs.run import contribute, preflight

GPU = SimpleNamespace(torch="2.9.1+rocm6.4", backend="rocm", gpu_name="AMD Radeon RX 7600")


def git(root, *args) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def test_an_owner_set_up_as_the_page_says_passes_every_check(tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "none"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("EMAIL", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL"):
        monkeypatch.delenv(name, raising=False)
    git(tmp_path, "init", "-q")
    assert not preflight.identity(tmp_path).ok
    git(tmp_path, "config", "user.name", "Owner")
    git(tmp_path, "config", "user.email", "owner@example.org")
    git(tmp_path, "remote", "add", "upstream", "https://github.com/ruota-docs/ruota-docs.git")
    found = preflight.fork_remote(tmp_path, contribute._github_owner)
    assert not found.ok and "origin is not on GitHub (GitHub remotes: upstream)" in found.message
    git(tmp_path, "remote", "add", "origin", "git@github.com:owner/ruota-docs.git")
    found = preflight.run(tmp_path, GPU, lambda: True, contribute._github_owner, minimum=1)
    assert [(f.name, f.ok) for f in found] == [("git identity", True), ("fork to push to", True), ("gh", True),
                                                ("free disk", True), ("GPU build of torch", True)]
    assert str(found[0]) == "  [ok] git identity: Owner <owner@example.org>"
    assert preflight.blocking(found) == []


def test_missing_disk_stops_and_a_cpu_torch_is_only_a_note(tmp_path):
    assert preflight.disk(tmp_path, minimum=2**62).message.endswith("free some space first")
    assert preflight.blocking([preflight.disk(tmp_path, minimum=2**62)])
    cpu = preflight.gpu_torch(SimpleNamespace(torch="2.13.0+cpu", backend="cpu", gpu_name=None))
    assert not cpu.ok and not cpu.needed and str(cpu).startswith("  [note] GPU build of torch: torch 2.13.0+cpu sees no GPU")
