"""Running pages as readers run them: an unprivileged user when the suite runs as root.

Readers run the guides' code as an ordinary user, in the ``render`` and ``video``
groups; code that checks permissions (device nodes, groups, home directories) behaves
differently as root. So when the suite runs as root, each page's process (and its
shell blocks) runs as the system user ``ruota-docs-runner`` — created when missing,
with no login shell, in ``render`` and ``video`` (groups created when the system
lacks them) — with ``HOME`` inside the page's temporary directory, which belongs to it.
``--run-as-root`` (``RUOTA_DOCS_RUN_AS_ROOT=1``) keeps root; the record says per block
which it was (``as_root``). Both come in through :class:`ruota_docs.run.settings.Settings`.

That user must be able to reach what a page's process reads: the interpreter and
its standard library, the virtualenv, the package, the repository (``snippets/``,
``src/``) and the temporary directory. A repository or interpreter under a home directory
with mode 0700 (``/root``) is out of its reach: `prepare` finds that once per run,
as that user, and raises `RunnerError` naming each path and the two ways out. It
never falls back to root on its own.
"""

from __future__ import annotations

import functools
import grp
import hashlib
import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ruota_docs.blocks import user_cache
from ruota_docs.run.settings import DEFAULT_USER, Settings

#: Groups ROCm's device nodes belong to (/dev/kfd, /dev/dri/renderD*): readers are in both.
GROUPS = ("render", "video")
#: Variables of the invoking user that point into its home or session, not the page's.
_PERSONAL = ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
             "MAIL", "SUDO_USER", "SUDO_UID", "SUDO_GID", "SUDO_COMMAND")


class RunnerError(RuntimeError):
    """The unprivileged user cannot be created or cannot reach what pages need."""


@dataclass(frozen=True)
class Runner:
    """The unprivileged user a page's processes run as."""

    name: str
    uid: int
    gid: int
    groups: tuple[int, ...]

    def popen_kwargs(self) -> dict:
        """``subprocess.Popen`` arguments that start a process as this user."""
        return {"user": self.uid, "group": self.gid, "extra_groups": list(self.groups)}

    def environment(self, env: dict[str, str], home: Path, tmpdir: Path | None = None) -> dict[str, str]:
        """``env`` as this user sees it: its own HOME (in the page's folder), USER, LOGNAME and TMPDIR."""
        env = {k: v for k, v in env.items() if k not in _PERSONAL and k != "TMPDIR"}
        env.update(HOME=str(home), USER=self.name, LOGNAME=self.name)
        if tmpdir is not None:
            env["TMPDIR"] = str(tmpdir)
        return env

    def own(self, *paths: Path) -> None:
        for path in paths:
            os.chown(path, self.uid, self.gid)

    def describe(self) -> str:
        names = ", ".join(_group_name(g) for g in self.groups if g != self.gid) or "none"
        return f"{self.name} (uid {self.uid}, groups {names})"


def _group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def switch_needed(run_as_root: bool = False) -> bool:
    """Whether pages must run as another user: this process is root and ``--run-as-root`` is not given."""
    return hasattr(os, "geteuid") and os.geteuid() == 0 and not run_as_root


def lookup(name: str) -> Runner | None:
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return None
    groups = tuple(sorted(set(os.getgrouplist(name, entry.pw_gid))))
    return Runner(name, entry.pw_uid, entry.pw_gid, groups)


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def _tool(name: str) -> str:
    found = shutil.which(name) or next((p for p in (f"/usr/sbin/{name}", f"/sbin/{name}") if os.path.exists(p)), None)
    if not found:
        raise RunnerError(f"cannot create the user {DEFAULT_USER!r} that pages run as: {name} is not installed; "
                          f"create a system user {DEFAULT_USER!r} in the groups {', '.join(GROUPS)} yourself, "
                          "or run the blocks as root with --run-as-root")
    return found


def _admin(args: list[str]) -> None:
    done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise RunnerError(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")


#: What this process created on the machine, said once (`created_notice`): the user, its groups.
CREATED: list[str] = []


def created_notice() -> str | None:
    """What this process added to the machine's users and groups, and how to remove it; said once."""
    if not CREATED:
        return None
    user = [c for c in CREATED if not c.startswith("group ")]
    groups = [c.split(" ", 1)[1] for c in CREATED if c.startswith("group ")]
    what = ", ".join([f"the system user {u}" for u in user] + [f"the group {g}" for g in groups])
    undo = "; ".join([f"userdel {u}" for u in user] + [f"groupdel {g}" for g in groups])
    CREATED.clear()
    return (f"ruota-docs created {what}, to run the pages' code without root's privileges (`ruota-docs runner` "
            f"says more); remove it with: {undo} (or run as root with --run-as-root)")


def ensure_user(name: str = DEFAULT_USER) -> Runner:
    """The user ``name``, created (a system user without login shell, in `GROUPS`) when missing;
    what was created is listed in `CREATED`, for `created_notice`.

    Safe when two runs do it at once: useradd locks the user database, and a user that
    appeared meanwhile is simply used.
    """
    for group in GROUPS:
        if _group_exists(group):
            continue
        try:
            _admin([_tool("groupadd"), "--system", group])
            CREATED.append(f"group {group}")
        except RunnerError:
            if not _group_exists(group):  # else a concurrent run created it
                raise
    runner = lookup(name)
    if runner is None:
        shell = "/usr/sbin/nologin" if os.path.exists("/usr/sbin/nologin") else "/bin/false"
        try:
            _admin([_tool("useradd"), "--system", "--no-create-home", "--home-dir", "/nonexistent",
                    "--shell", shell, "--groups", ",".join(GROUPS), name])
            CREATED.insert(0, name)
        except RunnerError:
            if lookup(name) is None:
                raise
        runner = lookup(name)
    missing = [g for g in GROUPS if grp.getgrnam(g).gr_gid not in runner.groups]
    if missing:
        _admin([_tool("usermod"), "--append", "--groups", ",".join(missing), name])
        runner = lookup(name)
    return runner


# -- what the user must reach ----------------------------------------------------------
def needed_paths(root: Path | None) -> dict[str, str]:
    """Path → what it holds, for everything a page's process reads."""
    package = Path(__file__).resolve().parents[1]
    paths = {
        sys.executable: "the Python interpreter",
        os.path.realpath(sys.executable): "the Python interpreter",
        sysconfig.get_paths()["stdlib"]: "Python's standard library",
        sysconfig.get_paths()["purelib"]: "the virtualenv's packages",
        sysconfig.get_paths()["platlib"]: "the virtualenv's packages",
        str(package): "the ruota_docs package the page's process imports",
        tempfile.gettempdir(): "the folder of the pages' temporary directories",
    }
    if root is not None:
        for sub, what in (("", "the repository"), ("snippets", "the repository's snippets"),
                          ("src", "the repository's src/")):
            if (Path(root) / sub).exists():
                paths[str((Path(root) / sub).resolve())] = what
    return paths


@dataclass(frozen=True)
class Denied:
    path: str  #: the first path on the way that the user cannot pass
    needs: str  #: "search" (x on a folder), "read" (r), "list" (r and x on a folder)
    holds: str  #: what the page needed behind it
    target: str  #: the path the page needed

    def __str__(self) -> str:
        try:
            info = os.stat(self.path)
            owner = f"{pwd.getpwuid(info.st_uid).pw_name}:{_group_name(info.st_gid)}"
            mode = f"{stat.filemode(info.st_mode)} {owner}"
        except (OSError, KeyError):
            mode = "unknown mode"
        behind = f" ({self.target})" if self.target != self.path else ""
        return f"{self.path} ({mode}): cannot {self.needs} it; it holds {self.holds}{behind}"


_NEEDS = {"x": "search", "r": "read", "rx": "list"}


def _chain(target: str) -> list[tuple[str, str]]:
    """``(path, test)`` from ``/`` to ``target``: every folder on the way needs x; the target
    itself r (and x for a folder). A symlink's own folders are on the way, then its target's."""
    chain = [(str(p), "x") for p in reversed(Path(target).parents)]
    real = os.path.realpath(target)
    chain += [(str(p), "x") for p in reversed(Path(real).parents)]
    chain.append((real, "rx" if os.path.isdir(real) else "r"))
    return list(dict.fromkeys(chain))


# For each "path test" pair, as the user: print the paths that fail (access(2): modes and ACLs).
_PROBE = 'while [ "$#" -gt 0 ]; do p=$1; t=$2; shift 2; ok=1; case $t in *r*) [ -r "$p" ] || ok=0;; esac; ' \
         'case $t in *x*) [ -x "$p" ] || ok=0;; esac; [ $ok = 1 ] || printf "%s %s\\n" "$t" "$p"; done'


def unreachable(runner: Runner, paths: dict[str, str]) -> list[Denied]:
    """What ``runner`` cannot reach among ``paths``: for each, the first path on its way that
    stops the user (each blocking path named once)."""
    holds = {os.path.abspath(t): what for t, what in paths.items() if os.path.exists(t)}
    chains = {t: _chain(t) for t in holds}
    pairs = list(dict.fromkeys(pair for chain in chains.values() for pair in chain))
    args = [a for path, test in pairs for a in (path, test)]
    done = subprocess.run(["/bin/sh", "-c", _PROBE, "probe", *args], capture_output=True, text=True, timeout=60,
                          cwd="/", **runner.popen_kwargs())
    failed = {tuple(line.split(" ", 1)[::-1]) for line in done.stdout.splitlines() if " " in line}
    denied: dict[str, Denied] = {}
    for target, chain in chains.items():
        first = next(((path, test) for path, test in chain if (path, test) in failed), None)
        if first and first[0] not in denied:
            denied[first[0]] = Denied(first[0], _NEEDS[first[1]], holds[target], target)
    return list(denied.values())


def smoke_test(runner: Runner) -> str | None:
    """Start the interpreter as the user and import the page worker; the error, or None."""
    env = runner.environment(dict(os.environ), Path("/nonexistent"))
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    done = subprocess.run([sys.executable, "-c", "import ruota_docs.run.process.worker"],
                          capture_output=True, text=True, timeout=120, cwd="/", env=env, **runner.popen_kwargs())
    if done.returncode == 0:
        return None
    return (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]


def refusal(runner: Runner, denied: list[Denied], smoke: str | None = None) -> str:
    """The message that stops a run the user cannot serve."""
    lines = [f"the suite runs as root, so each page's code runs as the unprivileged user {runner.describe()}, "
             "as readers run it; but that user cannot reach what the pages need:"]
    lines += [f"  {d}" for d in denied]
    if smoke:
        lines.append(f"  starting Python as {runner.name} fails: {smoke}")
    by_hand = "; ".join(" ".join(c) for c in grant_commands(runner, denied, acl=False)) or "fix the permissions above"
    lines.append(f"Either let it in — `ruota-docs runner --grant` does it (an ACL entry for {runner.name} where "
                 f"setfacl exists, else `{by_hand}`) — or run the blocks as root with --run-as-root "
                 "(the record then says as_root: true for every block).")
    return "\n".join(lines)


def prepare(settings: Settings) -> Runner | None:
    """Once per run (per process): the user pages run as, None where no switch is needed.
    Raises `RunnerError`, the same one again on every later call."""
    if not switch_needed(settings.run_as_root):
        return None
    found = _prepared(str(settings.root), settings.run_as_user)
    if isinstance(found, RunnerError):
        raise found
    return found


@functools.lru_cache(maxsize=4)
def _prepared(root: str | None, user: str) -> Runner | RunnerError:
    try:
        runner = ensure_user(user)
        paths = needed_paths(Path(root) if root else None)
        key = _access_key(runner, paths)
        if key not in _passed_checks():
            denied = unreachable(runner, paths)
            smoke = None if denied else smoke_test(runner)
            if denied or smoke:
                return RunnerError(refusal(runner, denied, smoke))
            _remember_passed(key)
    except RunnerError as error:
        return error
    return runner


# -- checks that passed, kept for the next run -----------------------------------------
def _access_key(runner: Runner, paths: dict[str, str]) -> str:
    """What the checks depend on: the user and its groups, the interpreter, and the owner,
    mode and ACL of every folder on the way. Not its change time: every file created in a
    folder changes that (a page's temporary directory in /tmp, a record), and the check would
    run again on every run."""
    parts = [str(runner.uid), ",".join(map(str, sorted(runner.groups))), sys.executable, sys.version]
    for path, _ in dict.fromkeys(pair for target in paths if os.path.exists(target) for pair in _chain(target)):
        try:
            info = os.stat(path)
            parts.append(f"{path}:{info.st_mode}:{info.st_uid}:{info.st_gid}:{_acl(path)}")
        except OSError:
            parts.append(f"{path}:-")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def _acl(path: str) -> str:
    """The folder's access ACL as stored (empty where it has none, or the system keeps none)."""
    try:
        return os.getxattr(path, "system.posix_acl_access").hex()
    except (OSError, AttributeError):
        return ""


def _checks_file() -> Path:
    return user_cache.path("runner-checks.json")


def _passed_checks() -> list[str]:
    try:
        found = json.loads(_checks_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return found if isinstance(found, list) else []


def _remember_passed(key: str) -> None:
    path = _checks_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(([k for k in _passed_checks() if k != key] + [key])[-8:]), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def page_user(settings: Settings) -> Runner | None:
    """The user a page's processes start as; checked by `prepare` once per process."""
    return prepare(settings)


# -- letting the user in ------------------------------------------------------------------
def grant_commands(runner: Runner, denied: list[Denied], acl: bool | None = None) -> list[list[str]]:
    """The smallest change that lets ``runner`` in: an ACL entry for it (where setfacl exists,
    or ``acl=True``), else the "others" bits — search only, on the folders that block the way."""
    use_acl = bool(shutil.which("setfacl")) if acl is None else acl
    commands = []
    for d in denied:
        bits = {"search": "x", "read": "r", "list": "rx"}[d.needs]
        if use_acl:
            commands.append(["setfacl", "-m", f"u:{runner.name}:{bits}", d.path])
        else:
            commands.append(["chmod", f"o+{bits}", d.path])
    return commands


def grant(runner: Runner, denied: list[Denied]) -> list[list[str]]:
    """Apply `grant_commands`; returns the commands run."""
    commands = grant_commands(runner, denied)
    for command in commands:
        _admin(command)
    return commands
