"""Blocks run as readers run them: as an unprivileged user when the suite runs as root.

The tests that switch users need root (what CI runs as); elsewhere they are skipped,
saying so. Their projects live in `reader_tmp` folders, which that user can reach.
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from _support import REPO, clean_env, read_ledger, run_pytest, write_tree
from ruota_docs.run import settings, unprivileged

ROOT = pytest.mark.root
RUNNER = unprivileged.DEFAULT_USER

PAGE = """\
    # Quién { #who }

    ```python
    import grp, os
    home = os.environ["HOME"]
    print("uid", os.geteuid(), "user", os.environ.get("USER"), os.environ.get("LOGNAME"))
    print("home", home, "owned by uid", os.stat(home).st_uid)
    print("groups", sorted(grp.getgrgid(g).gr_name for g in os.getgroups()))
    open(os.path.join(home, "written.txt"), "w").write("mine")
    ```

    <!-- run: safe -->
    ```bash
    echo "shell $(id -u) $HOME $(id -nG)"
    ```
    """


def switched_env(**extra) -> dict[str, str]:
    """The environment of a run that switches users: `clean_env` without its --run-as-root default."""
    return clean_env(RUOTA_DOCS_RUN_AS_ROOT=None, **extra)


@pytest.fixture
def who(reader_tmp) -> Path:
    return write_tree(reader_tmp / "project", {f"docs/{lang}/who.md": PAGE for lang in ("es", "en", "fr")})


def run(tree: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    result = run_pytest(tree, "--record", "verification/here.json", *args, env=switched_env())
    path = tree / "verification" / "here.json"
    return result, (read_ledger(path)["blocks"] if path.exists() else {})


# -- the switch ------------------------------------------------------------------------------------------------
@ROOT
def test_blocks_run_as_the_unprivileged_user(who):
    result, blocks = run(who)
    assert result.returncode == 0, result.stdout[-3000:]
    runner = pwd.getpwnam(RUNNER)
    python, shell = blocks["es/who.md#0"], blocks["es/who.md#1"]
    lines = python["output"].splitlines()
    assert lines[0] == f"uid {runner.pw_uid} user {RUNNER} {RUNNER}"
    # HOME is in the page's own temporary directory and belongs to the user; the record writes it "~"
    assert lines[1] == f"home ~ owned by uid {runner.pw_uid}"
    groups = eval(lines[2].removeprefix("groups "))  # noqa: S307 — a list the block printed
    assert {"render", "video"} <= set(groups), groups
    assert shell["output"].startswith(f"shell {runner.pw_uid} ~ ")
    assert {"render", "video"} <= set(shell["output"].split()[3:])
    assert python["as_root"] is False and shell["as_root"] is False
    # credited translations carry the run's as_root too
    assert blocks["en/who.md#0"]["reused_from"] == "es/who.md" and blocks["en/who.md#0"]["as_root"] is False
    assert "ran as root" not in result.stdout


@ROOT
def test_run_as_root_keeps_root(who):
    result, blocks = run(who, "--run-as-root")
    assert result.returncode == 0, result.stdout[-3000:]
    assert blocks["es/who.md#0"]["output"].startswith("uid 0 user ")
    assert blocks["es/who.md#1"]["output"].startswith("shell 0 ")
    assert all(e["as_root"] is True for e in blocks.values())
    assert "6 blocks recorded in verification/here.json: 6 passed; 4 credited from an identical translation run once; 6 ran as root" in result.stdout


@ROOT
def test_the_user_is_created_in_render_and_video():
    runner = unprivileged.ensure_user()
    entry = pwd.getpwnam(runner.name)
    assert entry.pw_shell in ("/usr/sbin/nologin", "/bin/false")
    assert {grp.getgrnam(g).gr_gid for g in ("render", "video")} <= set(runner.groups)
    assert runner.popen_kwargs() == {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": list(runner.groups)}


@ROOT
def test_a_private_repository_stops_the_run_before_any_page(reader_tmp):
    private = reader_tmp / "home-of-someone"
    tree = write_tree(private / "project", {f"docs/{lang}/who.md": PAGE for lang in ("es", "en", "fr")})
    private.chmod(0o700)
    result, blocks = run(tree)
    assert result.returncode == 4, result.stdout[-2000:]  # a usage error: nothing ran
    message = result.stderr
    assert message.startswith(f"ERROR: ruota-docs: the suite runs as root, so each page's code runs as the unprivileged user {RUNNER} (uid ")
    assert f"  {private} (drwx------ root:root): cannot search it; it holds the repository ({tree})" in message
    assert "`ruota-docs runner --grant`" in message and f"`chmod o+x {private}`" in message
    assert "--run-as-root" in message
    assert blocks == {} and "passed" not in result.stdout
    # the second way out
    result, blocks = run(tree, "--run-as-root")
    assert result.returncode == 0, result.stdout[-2000:]
    assert all(e["as_root"] for e in blocks.values())


@ROOT
def test_runner_command_checks_and_grants(reader_tmp):
    private = reader_tmp / "home-of-someone"
    tree = write_tree(private / "project", {"docs/es/who.md": PAGE})
    private.chmod(0o700)
    command = [str(Path(sys.executable).with_name("ruota-docs")), "--root", str(tree), "runner"]
    checked = subprocess.run(command, capture_output=True, text=True, env=switched_env(), timeout=120)
    assert checked.returncode == 1, checked
    assert f"{private} (drwx------ root:root): cannot search it" in checked.stderr
    granted = subprocess.run([*command, "--grant"], capture_output=True, text=True, env=switched_env(), timeout=120)
    assert granted.returncode == 0, granted
    tool = "setfacl -m u:ruota-docs-runner:x" if shutil.which("setfacl") else "chmod o+x"
    assert granted.stdout.splitlines()[0].endswith(f"{tool.split()[-1]} {private}")
    assert granted.stdout.splitlines()[-1].startswith(f"pages run as {RUNNER} (uid ")
    result, blocks = run(tree)
    assert result.returncode == 0, result.stdout[-2000:]
    assert blocks["es/who.md#0"]["as_root"] is False


def test_as_the_invoking_user_nothing_switches(monkeypatch):
    monkeypatch.setenv(settings.RUN_AS_ROOT_VARIABLE, "1")
    asked = settings.from_environment(REPO)
    assert asked.run_as_root is True
    assert unprivileged.switch_needed(asked.run_as_root) is False and unprivileged.page_user(asked) is None
    monkeypatch.delenv(settings.RUN_AS_ROOT_VARIABLE)
    assert unprivileged.switch_needed(settings.from_environment(REPO).run_as_root) is (os.geteuid() == 0)


# -- what the user sees -----------------------------------------------------------------------------------------
def test_environment_of_the_user():
    runner = unprivileged.Runner("ruota-docs-runner", 999, 995, (44, 108, 995))
    env = runner.environment({"HOME": "/root", "USER": "root", "XDG_CACHE_HOME": "/root/.cache", "TMPDIR": "/root/tmp",
                              "SUDO_USER": "alice", "PATH": "/usr/bin"}, Path("/tmp/ruota-page-x/home"), Path("/tmp/ruota-page-x/tmp"))
    assert env == {"HOME": "/tmp/ruota-page-x/home", "USER": "ruota-docs-runner", "LOGNAME": "ruota-docs-runner",
                   "TMPDIR": "/tmp/ruota-page-x/tmp", "PATH": "/usr/bin"}


def test_what_the_user_must_reach():
    paths = unprivileged.needed_paths(REPO)
    assert paths[sys.executable] == "the Python interpreter"
    assert paths[str(REPO)] == "the repository" and paths[str(REPO / "snippets")] == "the repository's snippets"
    assert paths[str(Path(unprivileged.__file__).resolve().parents[1])] == "the ruota_docs package the page's process imports"
    assert "Python's standard library" in paths.values()


def test_refusal_names_each_path_and_both_ways_out(tmp_path):
    runner = unprivileged.Runner("ruota-docs-runner", 999, 995, (995,))
    folder = tmp_path / "private"
    folder.mkdir(mode=0o700)
    denied = [unprivileged.Denied(str(folder), "search", "the Python interpreter", str(folder / "bin/python"))]
    message = unprivileged.refusal(runner, denied)
    owner = f"{pwd.getpwuid(os.getuid()).pw_name}:{grp.getgrgid(os.getgid()).gr_name}"
    assert f"  {folder} (drwx------ {owner}): cannot search it; it holds the Python interpreter ({folder}/bin/python)" in message
    assert f"else `chmod o+x {folder}`" in message and "--run-as-root" in message


# -- the diagnose block, as readers run it ------------------------------------------------------------------------
_FAKE_DEV = textwrap.dedent("""\
    set -e
    real=$(mktemp -d)
    mount --bind /dev "$real"
    mount -t tmpfs none /dev
    for n in null zero urandom random full; do touch /dev/$n; mount --bind "$real/$n" /dev/$n; done
    mkdir /dev/dri /dev/shm
    touch /dev/kfd /dev/dri/renderD128
    chgrp render /dev/kfd /dev/dri/renderD128
    chmod 660 /dev/kfd /dev/dri/renderD128
    exec "$@"
    """)


def _diagnose_as(groups: str) -> str:
    """100_diagnose.py as the unprivileged user, with an AMD GPU's device nodes (root:render, 0660)
    in a private mount namespace: the machine's own /dev is untouched."""
    snippet = REPO / "snippets" / "stable_diffusion" / "100_diagnose.py"
    command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", _FAKE_DEV, "fake-dev",
               "setpriv", f"--reuid={RUNNER}", f"--regid={RUNNER}", groups, sys.executable, str(snippet)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@ROOT
@pytest.mark.skipif(not shutil.which("unshare") or not shutil.which("setpriv"), reason="needs unshare and setpriv (util-linux)")
def test_diagnose_checks_the_device_nodes_a_normal_user_opens():
    unprivileged.prepare(settings.Settings(root=REPO))
    member = _diagnose_as("--init-groups").splitlines()[-3:]
    assert member == ["/dev/kfd: read-write for this user (group render)",
                      "/dev/dri/renderD128: read-write for this user (group render)",
                      "groups render and video: ok"]
    outsider = _diagnose_as("--clear-groups").splitlines()[-3:]
    assert outsider == ["/dev/kfd: NOT read-write for this user: it belongs to group render",
                        "/dev/dri/renderD128: NOT read-write for this user: it belongs to group render",
                        "groups render and video: missing ['render', 'video']"]


def test_passed_checks_are_kept_until_a_permission_changes(tmp_path):
    """A new file in a folder on the way (a page's folder in /tmp, a record) keeps the checks
    that passed; a chmod of that folder runs them again."""
    runner = unprivileged.Runner("nobody", 65534, 65534, (65534,))
    project = tmp_path / "project"
    project.mkdir()
    paths = {str(project): "read"}
    before = unprivileged._access_key(runner, paths)
    (project / "new-record.json").write_text("{}", encoding="utf-8")
    (tmp_path / "ruota-page-x").mkdir()
    assert unprivileged._access_key(runner, paths) == before
    project.chmod(0o700)
    assert unprivileged._access_key(runner, paths) != before


def test_a_user_it_creates_is_announced_once_with_how_to_remove_it(monkeypatch):
    groups, users = {"video"}, {}

    def admin(args):
        if "groupadd" in args[0]:
            groups.add(args[-1])
        elif "useradd" in args[0]:
            users[args[-1]] = unprivileged.Runner(args[-1], 999, 999, (44, 109))

    monkeypatch.setattr(unprivileged, "_group_exists", lambda group: group in groups)
    monkeypatch.setattr(unprivileged, "_admin", admin)
    monkeypatch.setattr(unprivileged, "lookup", lambda name: users.get(name))
    monkeypatch.setattr(unprivileged.grp, "getgrnam", lambda g: type("G", (), {"gr_gid": {"video": 44}.get(g, 109)}))
    unprivileged.CREATED.clear()
    unprivileged.ensure_user("ruota-docs-test")
    notice = unprivileged.created_notice()
    assert notice.startswith("ruota-docs created the system user ruota-docs-test, the group render,")
    assert "remove it with: userdel ruota-docs-test; groupdel render" in notice
    assert unprivileged.created_notice() is None  # said once
    unprivileged.ensure_user("ruota-docs-test")  # there now: nothing created, nothing said
    assert unprivileged.created_notice() is None
