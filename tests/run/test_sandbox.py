"""run.sandbox: the environment's allow-list, bubblewrap's command line, the limits, the choice of isolation."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ruota_docs.run import sandbox


def test_the_environment_is_an_allow_list():
    invoking = {"PATH": "/usr/bin", "LANG": "C.UTF-8", "LC_ALL": "C", "HIP_VISIBLE_DEVICES": "0",
                "HSA_OVERRIDE_GFX_VERSION": "11.0.0", "CUDA_VISIBLE_DEVICES": "1", "ROCR_VISIBLE_DEVICES": "0",
                "GH_TOKEN": "ghp_x", "AWS_SECRET_ACCESS_KEY": "y", "SSH_AUTH_SOCK": "/run/agent", "HF_TOKEN": "hf_z",
                "HOME": "/root", "RUOTA_DOCS_PROBED": "{}"}
    found = sandbox.environment(invoking)
    assert set(found) == {"PATH", "LANG", "LC_ALL", "HIP_VISIBLE_DEVICES", "HSA_OVERRIDE_GFX_VERSION",
                          "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "RUOTA_DOCS_PROBED"}
    # a variable the page names (<!-- run: env=NAME -->) reaches it; only that one
    assert set(sandbox.environment(invoking | {"DATA_DIR": "/d"}, ["DATA_DIR"])) - set(found) == {"DATA_DIR"}
    # but a secret's name only where the user allows it, and never through a prefix of the list
    assert set(sandbox.environment(invoking, ["HF_TOKEN", "GH_TOKEN"])) == set(found)
    assert sandbox.withheld(invoking, ["HF_TOKEN", "GH_TOKEN", "UNSET_TOKEN"]) == ["GH_TOKEN", "HF_TOKEN"]
    assert set(sandbox.environment(invoking, ["HF_TOKEN"], allowed=["HF_TOKEN"])) - set(found) == {"HF_TOKEN"}
    assert "NVIDIA_API_KEY" not in sandbox.environment(invoking | {"NVIDIA_API_KEY": "nvapi-x"})
    assert [n for n in ("GH_TOKEN", "AWS_ACCESS_KEY_ID", "DB_PASSWORD", "NPM_AUTH", "HF_TOKEN", "OPENAI_API_KEY")
            if not sandbox.secret(n)] == []
    assert [n for n in ("PATH", "KERAS_BACKEND", "HIP_VISIBLE_DEVICES", "XAUTHORITY", "PWD", "MONKEYS")
            if sandbox.secret(n)] == []


def test_the_command_binds_the_system_and_the_repository_read_only(tmp_path):
    work = tmp_path / "page"
    command = sandbox.command(["python", "-c", "pass"], work, False, ["/srv/repo"], tmp=work / "tmp")
    pairs = list(zip(command, command[1:], command[2:]))
    assert ("--ro-bind", "/usr", "/usr") in pairs and ("--ro-bind", "/srv/repo", "/srv/repo") in pairs
    assert ("--bind", str(work), str(work)) in pairs and ("--bind", str(work / "tmp"), "/tmp") in pairs
    assert "--die-with-parent" in command and "--share-net" not in command
    assert command[-4:] == ["--", "python", "-c", "pass"]
    assert "--share-net" in sandbox.command(["true"], work, True, [])
    # no home directory: neither bound nor made
    assert not any(a in ("/root", "/home") for a in command)


def test_gpu_device_nodes_are_bound_where_present(tmp_path):
    command = sandbox.command(["true"], tmp_path, False, [])
    for device in sandbox.GPU_DEVICES:
        assert (device in command) == os.path.exists(device)


@pytest.mark.root
def test_run_by_root_the_sandbox_switches_to_the_user_keeping_its_groups(tmp_path):
    command = sandbox.command(["true"], tmp_path, False, [], (999, 995, (44, 108, 995)))
    assert "--unshare-user" not in command and "--unshare-all" not in command
    assert command[command.index("--cap-drop") + 1] == "ALL"
    switch = command[command.index("--reuid"):]
    assert switch[:6] == ["--reuid", "999", "--regid", "995", "--groups", "44,108,995"]


def test_paths_inside_another_are_bound_once():
    assert sandbox._merged(["/srv/a", "/srv/a/b", "/usr/lib/python3", "/srv/ab"]) == ["/srv/a", "/srv/ab"]
    # the system's folders (an interpreter whose prefix is /usr) are bound with the system, once
    assert sandbox._merged(["/usr", "/etc", "/lib/python3", "/srv/a"]) == ["/srv/a"]
    command = sandbox.command(["true"], Path("/srv/page"), False, sandbox._merged(["/usr", "/srv/a"]))
    binds = [command[i + 1] for i, arg in enumerate(command) if arg in ("--ro-bind", "--bind")]
    assert sorted(binds) == sorted(set(binds)) and "/usr" in binds and "/srv/a" in binds


def test_shell_blocks_get_the_same_limits():
    limits = sandbox.Limits(memory=2**30, processes=64, file_size=2**20)
    assert limits.ulimit() == ("ulimit -d 1048576 2>/dev/null || :\nulimit -f 1024 2>/dev/null || :\n"
                               "ulimit -u 64 2>/dev/null || :\n")
    assert limits.for_worker() == {"data": 2**30, "nproc": 64, "fsize": 2**20, "as": None}
    assert sandbox.Limits(None, None, None).ulimit() == ""


def test_isolation_asked_and_found(monkeypatch):
    monkeypatch.setattr(sandbox, "unusable", lambda user=None: "bwrap is not installed")
    assert sandbox.choose("auto", None, True) == (sandbox.USER, "bwrap is not installed")
    assert sandbox.choose("auto", None, False) == (sandbox.NONE, "bwrap is not installed")
    assert sandbox.choose("user", None, False) == (sandbox.NONE, None)
    with pytest.raises(sandbox.SandboxError, match="--isolation sandbox: bwrap is not installed"):
        sandbox.choose("sandbox", None, False)
    monkeypatch.setattr(sandbox, "unusable", lambda user=None: None)
    assert sandbox.choose("auto", None, True) == (sandbox.SANDBOX, None)


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed here")
def test_bwrap_runs_here_or_says_why():
    sandbox.unusable.cache_clear()
    why = sandbox.unusable(None)
    assert why is None or why.startswith("bwrap cannot")


def test_readable_paths_hold_the_interpreter_and_the_package():
    paths = sandbox.readable_paths(("/nonexistent-repo",))
    package = str(Path(sandbox.__file__).resolve().parents[2])
    assert any(package == p or package.startswith(p + "/") for p in paths)
    assert "/nonexistent-repo" not in paths


def test_socket_files_of_the_repository_are_masked(tmp_path):
    import socket

    for folder in ("repo/.git", "repo/.venv/lib", "repo/docs"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "repo/.venv/pyvenv.cfg").write_text("home = /usr/bin\n")
    listeners = []
    for where in ("repo/.git/fsmonitor--daemon.ipc", "repo/docs/dev.sock", "repo/.venv/lib/skipped.sock"):
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(tmp_path / where))
        listeners.append(listener)
    try:
        found = sandbox.sockets_in((str(tmp_path / "repo"),))
    finally:
        for listener in listeners:
            listener.close()
    assert found == (str(tmp_path / "repo/.git/fsmonitor--daemon.ipc"), str(tmp_path / "repo/docs/dev.sock"))
    command = sandbox.command(["true"], tmp_path / "page", False, [str(tmp_path / "repo")], masked=found)
    pairs = list(zip(command, command[1:], command[2:]))
    assert ("--ro-bind", "/dev/null", found[0]) in pairs and ("--ro-bind", "/dev/null", found[1]) in pairs
    assert pairs.index(("--ro-bind", "/dev/null", found[0])) > pairs.index(
        ("--ro-bind", str(tmp_path / "repo"), str(tmp_path / "repo")))  # over the repository's bind
