"""The sandbox a page's processes run in: bubblewrap, or the unprivileged user where it cannot run.

Every page's process (and each shell block) starts under ``bwrap`` (bubblewrap, the sandbox
Flatpak uses, packaged by every major distribution) with:

- its own PID namespace, and ``--die-with-parent``: when the page ends, when its process is
  killed, or when the test run itself is killed, every process the page started dies with
  it, whatever its environment or session (``env -i``, ``setsid``, double forks);
- its own network namespace with loopback only, unless a block of the page ``requires:
  network`` and the run allows it (``--network``);
- the system (``/usr``, ``/etc``, ``/opt``, ``/sys``), the interpreter, the virtualenv, the
  package and the repository bound read-only, the page's folder writable, and a private
  ``/tmp``: a block cannot change a page, a snippet or a record, nor reach the record locks;
  home directories are not there at all;
- the GPU device nodes bound in (``/dev/kfd``, ``/dev/dri``, ``/dev/nvidia*``), where present;
- an environment built from an allow-list (`environment`), never the invoking user's as is;
- resource limits (`Limits`): memory, processes and file size, with defaults.

The block's wall-clock limit is enforced from outside, by the test run, which kills the
sandbox. Where bwrap is missing or cannot run (no user namespaces, some containers), pages
run as before, as the unprivileged user when the suite runs as root (`ruota_docs.run.unprivileged`),
the run says so once, and each result records which isolation it had (``isolation``:
:data:`SANDBOX`, :data:`USER` or :data:`NONE`).
"""

from __future__ import annotations

import contextlib
import functools
import glob
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

#: The isolation a result ran under, as its record says: bubblewrap; the unprivileged user
#: (the suite ran as root, bwrap could not run); or none (the invoking user, bwrap could not run).
SANDBOX, USER, NONE = "sandbox", "user", "none"
#: What ``--isolation`` / ``RUOTA_DOCS_ISOLATION`` accept: ``auto`` (the sandbox where it
#: runs, else the fallback), ``sandbox`` (refuse to run without it), ``user`` (the fallback).
CHOICES = ("auto", SANDBOX, USER)

#: Variables of the invoking environment a page's process gets, by name.
ALLOWED = ("PATH", "LANG", "LANGUAGE", "TZ", "TERM", "LD_LIBRARY_PATH", "PYTHONPATH", "VIRTUAL_ENV",
           "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "KERAS_BACKEND",
           "NO_MKDOCS_2_WARNING")
#: ... and by prefix: locale, the GPU stacks (ROCm, HIP, HSA, MIOpen, CUDA), PyTorch's own
#: switches, and the engine's (``RUOTA_DOCS_PROBED`` hands the device probe to the page).
ALLOWED_PREFIXES = ("LC_", "HIP_", "HSA_", "ROCR_", "ROCM_", "HCC_", "AMD_", "MIOPEN_", "GPU_", "CUDA_",
                    "NVIDIA_", "PYTORCH_", "RUOTA_DOCS_")
#: Device nodes of GPUs, bound into the sandbox where they exist.
GPU_DEVICES = ("/dev/kfd", "/dev/dri", "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
               "/dev/nvidia-modeset", "/dev/nvidia-caps")
#: Folders of the system bound read-only (``/opt`` holds ROCm).
SYSTEM = ("/usr", "/etc", "/opt", "/sys")
#: Top-level names that are links into ``/usr`` on merged systems, folders elsewhere.
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


class SandboxError(RuntimeError):
    """``--isolation sandbox`` where bwrap cannot run."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of a page's processes (``None``: none).

    ``memory`` caps each process's data (heap and private writable memory, ``RLIMIT_DATA``):
    by default 80 % of the machine's memory, so that a runaway allocation raises MemoryError in
    the block instead of drawing the kernel's OOM killer onto any process of the machine. Unlike
    an address-space cap it leaves alone the large reservations GPU runtimes make.
    ``address_space`` is ``RUOTA_DOCS_MEMORY_LIMIT`` (``RLIMIT_AS``), only where asked.
    ``processes`` (``RLIMIT_NPROC``: processes and threads) stops a fork bomb; it applies
    only where the count is the page's own (in the sandbox's user namespace, or as the
    unprivileged user). ``file_size`` (``RLIMIT_FSIZE``) stops a block filling the disk with one file.
    """

    memory: int | None
    processes: int | None
    file_size: int | None
    address_space: int | None = None

    def for_worker(self) -> dict[str, int | None]:
        return {"data": self.memory, "nproc": self.processes, "fsize": self.file_size, "as": self.address_space}

    def ulimit(self) -> str:
        """The same limits as bash's ``ulimit`` (soft and hard: a block cannot raise them), for shell blocks."""
        parts = []
        for flag, value in (("-d", self.memory), ("-v", self.address_space), ("-f", self.file_size)):
            if value:
                parts.append(f"ulimit {flag} {value // 1024}")  # KiB (bash's unit for -f too)
        if self.processes:
            parts.append(f"ulimit -u {self.processes}")
        # a hard limit already lower stays as it is (as in the page's process): never the block's failure
        return "".join(f"{part} 2>/dev/null || :\n" for part in parts)


#: Defaults: processes (threads count too: PyTorch starts one per core) and file size.
DEFAULT_PROCESSES = 4096
DEFAULT_FILE_SIZE = 16 * 2**30
DEFAULT_MEMORY_SHARE = 0.8


def physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def default_memory() -> int | None:
    total = physical_memory()
    return int(total * DEFAULT_MEMORY_SHARE) if total else None


#: Words of a variable's name (split at ``_``) that make it a secret: a page names it in vain
#: unless the user allows it (``--allow-env``), and no prefix of the allow-list lets it through.
SECRET_WORDS = frozenset({"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "PASS", "PWD", "KEY", "APIKEY",
                          "CREDENTIAL", "CREDENTIALS", "AUTH", "COOKIE", "PAT", "PRIVATE", "SIGNATURE"})


def secret(name: str) -> bool:
    """Whether a variable is named like a secret: ``GH_TOKEN``, ``AWS_SECRET_ACCESS_KEY``, ``NVIDIA_API_KEY``."""
    return name != "PWD" and not SECRET_WORDS.isdisjoint(name.upper().split("_"))


def environment(invoking: Mapping[str, str], names: Iterable[str] = (), allowed: Iterable[str] = ()) -> dict[str, str]:
    """The page's environment: the allow-listed variables of ``invoking`` and those the page's
    blocks name (``<!-- run: env=NAME -->``); nothing else, so no token or password of the
    invoking user reaches a block, or its output in a record. A name like a secret's (`secret`)
    comes only where the user ``allowed`` it: a page cannot ask for the user's tokens by name."""
    wanted, allowed = set(names), set(allowed)
    return {k: v for k, v in invoking.items()
            if (k in ALLOWED or k in wanted or k.startswith(ALLOWED_PREFIXES)) and (not secret(k) or k in allowed)}


def withheld(invoking: Mapping[str, str], names: Iterable[str], allowed: Iterable[str] = ()) -> list[str]:
    """The variables a page names that `environment` keeps from it: set, named like a secret, not allowed."""
    return sorted(n for n in set(names) - set(allowed) if n in invoking and secret(n))


def _start_or_home(path: str) -> bool:
    """Whether a folder of ``sys.path`` is the one the run started in (``python -m pytest`` puts it
    there; the page's process has its own) or holds the user's home: ``cd ~ && python -m pytest
    site/docs`` would bind the home, with its ``.ssh`` and ``.netrc``, into every page's sandbox."""
    if not path or not os.path.isabs(path):
        return False
    real, home = os.path.realpath(path), os.path.realpath(os.path.expanduser("~"))
    holds_home = home != "/" and (real == home or home.startswith(real.rstrip("/") + "/"))
    return holds_home or real == os.path.realpath(os.getcwd())


def bwrap() -> str | None:
    return shutil.which("bwrap")


def _merged(paths: Iterable[str]) -> list[str]:
    """``paths`` (absolute, existing) less those inside another or inside (or equal to) a system
    folder, which the sandbox binds already: each folder is bound once."""
    kept: list[str] = []
    system = SYSTEM + SYSTEM_LINKS  # a link's content is bound as the link is: into /usr, or as itself
    covered = tuple(p.rstrip("/") + "/" for p in system)
    for path in sorted(set(paths)):
        if path in system or path.startswith(covered) or any(path == k or path.startswith(k.rstrip("/") + "/")
                                                             for k in kept):
            continue
        kept.append(path)
    return kept


@functools.lru_cache(maxsize=8)
def readable_paths(extra: tuple[str, ...] = ()) -> list[str]:
    """What a page's process reads besides the system: the interpreter, its library and the
    virtualenv (every folder on ``sys.path``), the package, and ``extra`` (the repository)."""
    package_root = Path(__file__).resolve().parents[2]
    found = [sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(sys.executable), str(package_root),
             *(p for p in sys.path if not _start_or_home(p)), *map(str, extra)]
    paths = []
    for path in found:
        if not path or not os.path.isabs(path) or not os.path.exists(path):
            continue
        paths.append(os.path.abspath(path))
        paths.append(os.path.realpath(path))
    return _merged(paths)


@functools.lru_cache(maxsize=4)
def _namespaces(user: tuple[int, int, tuple[int, ...]] | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """bwrap's namespace and capability options, and what starts ``argv`` inside.

    As an ordinary user, bwrap makes a user namespace too. Run by root, it needs none, and
    one would hide the groups the page's user is in (``render``, ``video``: code that checks
    them, as the guides' diagnostics do, would read ``nogroup``): so root's bwrap keeps the
    real ids, drops every capability but those `setpriv` needs to become ``user`` (uid,
    gid, groups), and setpriv drops those as it switches."""
    if not (hasattr(os, "geteuid") and os.geteuid() == 0):
        return ("--unshare-all",), ()
    spaces = ("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
              "--cap-drop", "ALL")
    if user is None:  # --run-as-root: root's ids, with no capability
        return spaces, ()
    uid, gid, groups = user
    switch = (shutil.which("setpriv") or "setpriv", "--reuid", str(uid), "--regid", str(gid),
              "--groups", ",".join(map(str, groups or (gid,))), "--inh-caps=-all", "--")
    # and the one that lets it enter the page's folder, which belongs to ``user`` (mode 0700)
    caps = ("CAP_SETUID", "CAP_SETGID", "CAP_DAC_READ_SEARCH")
    return spaces + tuple(a for cap in caps for a in ("--cap-add", cap)), switch


@functools.lru_cache(maxsize=1)
def _system() -> tuple[str, ...]:
    """The machine's part of every page's sandbox: its system folders read-only, ``/proc``,
    ``/dev`` and the GPUs' device nodes. The same for every page: found once per process."""
    args: list[str] = []
    for folder in SYSTEM:
        if os.path.isdir(folder):
            args += ["--ro-bind", folder, folder]
    for link in SYSTEM_LINKS:
        if os.path.islink(link):
            args += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            args += ["--ro-bind", link, link]
    # /dev/shm as on the machine, any user's to write: multiprocessing and PyTorch's DataLoader share memory there
    args += ["--proc", "/proc", "--dev", "/dev", "--perms", "01777", "--tmpfs", "/dev/shm"]
    for device in GPU_DEVICES + tuple(sorted(glob.glob("/dev/nvidia[0-9]*"))):
        if os.path.exists(device):
            args += ["--dev-bind", device, device]
    return tuple(args)


def _way_to(path: str, made: set[str]) -> list[str]:
    """The folders on the way to ``path`` not yet in ``made``, made by bwrap: searchable by the
    page's user, as on the machine (``made`` gains them)."""
    args: list[str] = []
    for parent in map(str, reversed(Path(path).parents)):
        if parent not in made and not parent.startswith(("/usr/", "/etc/", "/opt/", "/sys/")):
            args += ["--perms", "0755", "--dir", parent]
            made.add(parent)
    return args


@functools.lru_cache(maxsize=8)
def _readable(paths: tuple[str, ...]) -> tuple[tuple[str, ...], frozenset[str]]:
    """The read-only binds of ``paths``, and the folders made on the way: the same for every
    page of a run, found once."""
    made, args = {"/", "/tmp"}, []
    for path in paths:
        args += [*_way_to(path, made), "--ro-bind", path, path]
    return tuple(args), frozenset(made)


#: Folders no service puts its socket in, and too large to search each run.
_UNSEARCHED = frozenset({".venv", "venv", "node_modules", "objects", "__pycache__", "site"})


@functools.lru_cache(maxsize=8)
def sockets_in(folders: tuple[str, ...]) -> tuple[str, ...]:
    """The Unix socket files under ``folders`` (the repository), found once per run: a read-only bind
    does not stop ``connect()`` on them, so `command` binds ``/dev/null`` over each (git's fsmonitor
    keeps one in ``.git``; an editor's or a dev server's may lie anywhere). Virtual environments and
    `_UNSEARCHED` folders are not searched."""
    found = set()
    for top in folders:
        for folder, children, files in os.walk(top):
            children[:] = [c for c in children if c not in _UNSEARCHED
                           and not os.path.exists(os.path.join(folder, c, "pyvenv.cfg"))]
            for name in files:
                path = os.path.join(folder, name)
                with contextlib.suppress(OSError):
                    if stat.S_ISSOCK(os.lstat(path).st_mode):
                        found.add(path)
    return tuple(sorted(found))


def command(argv: list[str], workdir: Path, network: bool, readable: Iterable[str],
            user: tuple[int, int, tuple[int, ...]] | None = None, tmp: Path | None = None,
            masked: Iterable[str] = ()) -> list[str]:
    """``argv`` run in a sandbox whose only writable folder is ``workdir`` (see the module's doc),
    as ``user`` (uid, gid, groups) where the test run is root and the page runs as another user.
    ``tmp`` (a folder of the page's) is its ``/tmp``, shared by the page's blocks; else an empty one
    any user may write, as a real one. ``masked``: socket files (`sockets_in`) the page must not reach."""
    spaces, switch = _namespaces(user)
    private = ("--bind", str(tmp), "/tmp") if tmp is not None else ("--perms", "01777", "--tmpfs", "/tmp")
    bound, made = _readable(tuple(readable))
    page = str(workdir)
    return [bwrap() or "bwrap", *spaces, "--die-with-parent", "--new-session", *(("--share-net",) * network),
            *_system(), *private, *bound, *(a for sock in masked for a in ("--ro-bind", "/dev/null", sock)),
            *_way_to(page, set(made)), "--bind", page, page,
            "--chdir", page, "--", *switch, *argv]


@functools.lru_cache(maxsize=4)
def unusable(user: tuple[int, int, tuple[int, ...]] | None = None) -> str | None:
    """Why bwrap cannot run here (for pages run as ``user``, see `command`), or None where it
    can. Tried once per process."""
    if bwrap() is None:
        return "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    if user is not None and shutil.which("setpriv") is None:
        return "setpriv (util-linux) is not installed"
    probe = command(["true"], Path(tempfile.gettempdir()), False, [], user)
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30, cwd="/")
    except (OSError, subprocess.SubprocessError) as error:
        return f"bwrap cannot start: {error}"
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return f"bwrap cannot make a sandbox here: {said}"
    return None


User = tuple[int, int, tuple[int, ...]]


def choose(requested: str, user: User | None, as_other_user: bool) -> tuple[str, str | None]:
    """``(isolation, why not the sandbox)`` for ``requested`` (one of `CHOICES`) and pages run as
    ``user`` (uid, gid, groups; None: this process's user); raises `SandboxError` where the
    sandbox is required and cannot run."""
    fallback = USER if as_other_user else NONE
    if requested == USER:
        return fallback, None
    why = unusable(user)
    if why is None:
        return SANDBOX, None
    if requested == SANDBOX:
        raise SandboxError(f"--isolation sandbox: {why}")
    return fallback, why
