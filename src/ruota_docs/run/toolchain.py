"""ROCm software on this machine, with or without a GPU: the HIP compiler and ROCm's command-line tools.

The `ruota_docs.run.device.probe` function says what PyTorch computes on, and it never starts
a ROCm program. Only the ``ruota-docs toolchain`` command and the blocks that need ROCm's userland
(``requires: hipcc``, ``hipcc arch=gfx906``, ``tool=roc-obj-ls``) use this module. It provides:

- `find_program`, which finds a program on ``PATH``, or else in ``bin`` or ``llvm/bin`` of
  ``$ROCM_PATH`` or ``/opt/rocm``, where ROCm installs its programs without adding them to ``PATH``.
- `compiler`, which finds ``hipcc`` and the HIP version that ``hipcc --version`` reports.
- `builds`, which finds the gfx targets ``hipcc`` can build for by compiling a tiny kernel for
  each of them, in parallel. Clang may know a processor's name even when the device libraries
  for it are not installed: Debian's clang 15 knows gfx1100, but Debian's ROCm 5.2 device
  libraries do not include it.
- `describe`, which says what this machine has, in the words that skip reasons use.
- `rocminfo`, which runs ``rocminfo`` and returns its agents, or why there are none.

The ``hipcc`` compiler always runs with ``HIP_PLATFORM=amd``. Otherwise, on a machine that also has ``nvcc``,
it would pick NVIDIA's platform.

Results are cached in ``$XDG_CACHE_HOME/ruota-docs/toolchain.json`` (``~/.cache`` by
default). Their key is made of what can change them: ``hipcc``'s resolved path,
size and modification time, the environment variables it reads, and the probe kernel. The
HIP version and the clang binary that ``hipcc`` drives are stored with the key, and that clang
binary is checked again on every use. Each target is tried once per key. A timeout is never
cached, because the machine may just have been busy. Run ``ruota-docs toolchain --refresh``
to probe again.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ruota_docs.blocks import user_cache

#: gfx targets `describe` reports on: the cards the guides are about and the targets
#: ROCm libraries commonly carry, oldest first.
KNOWN_TARGETS = ("gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
                 "gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1200", "gfx1201")
#: Environment variables ``hipcc`` reads to find its compiler, device libraries and flags.
HIPCC_VARIABLES = ("HIP_PLATFORM", "HIP_PATH", "ROCM_PATH", "HIP_CLANG_PATH", "HIP_DEVICE_LIB_PATH",
                   "HIPCC_COMPILE_FLAGS_APPEND", "HIPCC_LINK_FLAGS_APPEND", "HIP_ROCCLR_HOME")
VERSION_TIMEOUT = 30.0
BUILD_TIMEOUT = 120.0
CACHE_SCHEMA = 1
#: The kernel each target is tried with: small, but it needs the device libraries (a math call).
PROBE_SOURCE = """#include <hip/hip_runtime.h>
__global__ void probe(float* x) { x[threadIdx.x] = sqrtf(x[threadIdx.x]) * 2.0f; }
"""


def rocm_roots() -> tuple[Path, ...]:
    """Where ROCm is installed: ``$ROCM_PATH``, then ``/opt/rocm``."""
    roots = [Path(os.environ["ROCM_PATH"])] if os.environ.get("ROCM_PATH") else []
    return tuple(dict.fromkeys([*roots, Path("/opt/rocm")]))


def rocm_dirs() -> tuple[Path, ...]:
    """Where ROCm installs its programs when they are not on ``PATH``: ``bin``, and ``llvm/bin``, which
    holds the programs of ROCm's LLVM (among them ``llvm-readobj``, which replaces the deprecated ``roc-obj-ls``)."""
    return tuple(root / sub for root in rocm_roots() for sub in ("bin", "llvm/bin"))


def searched() -> str:
    """The places `find_program` searches, as skip reasons list them."""
    return "PATH or in " + " or ".join(str(d) for d in rocm_dirs())


def find_program(name: str) -> str | None:
    """The path of program ``name``, on ``PATH`` or else in a ROCm directory, or ``None`` if it is not installed."""
    found = shutil.which(name)
    if found:
        return found
    for folder in rocm_dirs():
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


#: What ``requires: rocm_library`` looks for: ROCm code a block can inspect (the snippets' own choice).
ROCM_LIBRARIES = "libtorch_hip.so of torch, librocblas.so, or Debian's librocrand.so.1"


def rocm_library() -> Path | None:
    """The first ROCm library found on this machine, or ``None`` if there is none.

    The candidates, in order, are torch's libtorch_hip.so (a ROCm build), ROCm's librocblas.so,
    and the libraries Debian ships (librocblas, librocrand1). The tools that read libraries
    (``llvm-readobj``, ``roc-obj-ls``) come with ``hipcc`` but without any library, so a block that
    reads a library needs both terms: ``tool=`` with that tool, and ``rocm_library``."""
    import importlib.util  # noqa: PLC0415

    torch = importlib.util.find_spec("torch")
    candidates = [Path(torch.origin).parent / "lib" / "libtorch_hip.so"] if torch and torch.origin else []
    candidates += [root / "lib" / "librocblas.so" for root in rocm_roots()]
    candidates += sorted(Path("/usr/lib").glob("*/librocblas.so.*"))
    candidates += sorted(Path("/usr/lib").glob("*/librocrand.so.1"))
    return next((c for c in candidates if c.exists()), None)


@dataclass(frozen=True)
class Compiler:
    """The ``hipcc`` installed on this machine."""

    path: str | None  #: resolved path of ``hipcc``; ``None`` where there is none
    version: str | None = None  #: HIP version, ``5.2.21153``
    error: str | None = None  #: why it cannot be used; ``None`` when it answers
    transient: bool = False  #: the error was a timeout: not cached

    @property
    def works(self) -> bool:
        return self.path is not None and self.error is None

    def name(self) -> str:
        return f"hipcc (HIP {self.version})" if self.version else "hipcc"


@dataclass(frozen=True)
class Build:
    """Whether ``hipcc`` built the probe kernel for one target."""

    target: str
    ok: bool
    error: str | None = None  #: the compiler's first complaint
    transient: bool = False  #: timed out: not cached


def hipcc_env() -> dict[str, str]:
    """The environment ``hipcc`` runs in, which selects AMD's platform whatever else is installed."""
    return {**os.environ, "HIP_PLATFORM": "amd"}


# -- the cache ------------------------------------------------------------------------------------
def cache_path() -> Path:
    return user_cache.path("toolchain.json")


@contextmanager
def _cache(refresh: bool = False):
    """The cache's entries, locked while the caller uses them and written back afterwards;
    a cache that cannot be read or written makes every probe run again."""
    path = cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_name(path.name + ".lock"), "a+")  # noqa: SIM115 — held across the yield
    except OSError:
        yield {}
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = {} if refresh else _read(path)
        before = json.dumps(data, sort_keys=True)
        yield data
        if json.dumps(data, sort_keys=True) != before:
            _write(path, data)


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("schema") != CACHE_SCHEMA or not isinstance(data.get("compilers"), dict):
        return {}
    return data["compilers"]


def _write(path: Path, compilers: dict) -> None:
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".toolchain.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"schema": CACHE_SCHEMA, "compilers": compilers}, handle, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        if tmp:
            Path(tmp).unlink(missing_ok=True)


def _stat(path: str | None) -> list | None:
    if not path:
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [str(Path(path).resolve()), info.st_size, info.st_mtime_ns]


def _key(hipcc: str) -> str:
    env = {name: os.environ.get(name) for name in HIPCC_VARIABLES if name != "HIP_PLATFORM"}
    return hashlib.sha256(json.dumps([_stat(hipcc), env, PROBE_SOURCE], sort_keys=True).encode()).hexdigest()[:32]


# -- hipcc ----------------------------------------------------------------------------------------
def _run(command: list[str], timeout: float, **options) -> subprocess.CompletedProcess:
    """``subprocess.run`` whose timeout ends the whole process group: hipcc is a script that
    starts clang, and a hung clang must not outlive the probe."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                          text=True, start_new_session=True, **options) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def _first_error(output: str) -> str:
    """The line of a compiler's output that says what went wrong (or its last line)."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    picked = next((ln for ln in lines if "error" in ln.lower()), lines[-1] if lines else "no output")
    picked = re.sub(r"^((clang(\+\+)?(-\d+)?|hipcc): )?(error: )?", "", picked)
    return picked.split("; ")[0][:200]


def _probe_version(hipcc: str) -> tuple[Compiler, list | None]:
    """Run ``hipcc --version``: the compiler, and the stat of the clang binary it drives."""
    try:
        run = _run([hipcc, "--version"], VERSION_TIMEOUT, env=hipcc_env())
    except subprocess.TimeoutExpired:
        return Compiler(hipcc, error=f"`hipcc --version` timed out after {VERSION_TIMEOUT:g} s", transient=True), None
    except OSError as error:
        return Compiler(hipcc, error=f"`hipcc --version` could not start: {error.strerror}"), None
    output = run.stdout + run.stderr
    if run.returncode != 0:
        message = f"`hipcc --version` exited with status {run.returncode}: {_first_error(output)}"
        return Compiler(hipcc, error=message), None
    match = re.search(r"HIP version:\s*([\d.]+)", output)
    if not match:
        return Compiler(hipcc, error="`hipcc --version` printed no HIP version"), None
    return Compiler(hipcc, version=match[1].rstrip(".")), _stat(_driver(output))


def _driver(version_output: str) -> str | None:
    """The clang binary hipcc drives, from the ``InstalledDir:`` line clang prints."""
    folder = re.search(r"InstalledDir:\s*(\S+)", version_output)
    major = re.search(r"clang version (\d+)", version_output)
    if not folder:
        return None
    names = ["clang"] + ([f"clang-{major[1]}"] if major else [])
    return next((str(Path(folder[1]) / n) for n in names if (Path(folder[1]) / n).exists()), None)


def _entry(cache: dict, hipcc: str) -> dict:
    """This hipcc's cache entry, probed again where it is missing or its clang changed."""
    key = _key(hipcc)
    entry = cache.get(key)
    if entry is not None and entry.get("driver") == _stat((entry.get("driver") or [None])[0]):
        return entry
    found, driver = _probe_version(hipcc)
    entry = {"hipcc": hipcc, "version": found.version, "error": found.error, "driver": driver, "targets": {}}
    if not found.transient:
        cache[key] = entry
    else:
        entry["transient"] = True
    return entry


def compiler(refresh: bool = False) -> Compiler:
    """The ``hipcc`` on this machine, found where `find_program` searches, with the version it reports."""
    path = find_program("hipcc")
    if path is None:
        return Compiler(None, error=f"no hipcc on {searched()}")
    path = str(Path(path).resolve())
    with _cache(refresh) as cache:
        entry = _entry(cache, path)
    return Compiler(path, entry["version"], entry["error"], bool(entry.get("transient")))


def _try_build(hipcc: str, target: str, folder: Path) -> Build:
    source = folder / "probe.hip"
    command = [hipcc, f"--offload-arch={target}", "--cuda-device-only",
               "-c", str(source), "-o", str(folder / f"{target}.o")]
    try:
        run = _run(command, BUILD_TIMEOUT, env=hipcc_env(), cwd=folder)
    except subprocess.TimeoutExpired:
        return Build(target, False, f"timed out after {BUILD_TIMEOUT:g} s", transient=True)
    except OSError as error:
        return Build(target, False, f"could not start hipcc: {error.strerror}")
    if run.returncode != 0:
        return Build(target, False, _first_error(run.stdout + run.stderr))
    return Build(target, True)


def builds(targets, refresh: bool = False) -> dict[str, Build]:
    """Whether ``hipcc`` can build for each target in ``targets``. Where ``hipcc`` does not work, every target fails."""
    targets = list(dict.fromkeys(targets))
    path = find_program("hipcc")
    if path is None:
        return {t: Build(t, False, f"no hipcc on {searched()}") for t in targets}
    path = str(Path(path).resolve())
    with _cache(refresh) as cache:
        entry = _entry(cache, path)
        if entry["error"]:
            return {t: Build(t, False, entry["error"], bool(entry.get("transient"))) for t in targets}
        known = entry["targets"]
        todo = [t for t in targets if t not in known]
        if todo:
            with tempfile.TemporaryDirectory(prefix="ruota-hipcc-") as tmp:
                (Path(tmp) / "probe.hip").write_text(PROBE_SOURCE, encoding="utf-8")
                with ThreadPoolExecutor(max_workers=max(1, min(len(todo), os.cpu_count() or 1, 8))) as pool:
                    tried = list(pool.map(lambda t: _try_build(path, t, Path(tmp)), todo))
            for build in tried:
                if not build.transient:
                    known[build.target] = {"ok": build.ok, "error": build.error}
            fresh = {b.target: b for b in tried}
        else:
            fresh = {}
    return {t: fresh.get(t) or Build(t, known[t]["ok"], known[t].get("error")) for t in targets}


def works(refresh: bool = False) -> bool:
    """Whether a HIP compiler is installed, responds and builds for at least one known target."""
    return compiler(refresh).works and any(b.ok for b in builds(KNOWN_TARGETS, refresh).values())


def describe(needed=(), refresh: bool = False) -> str:
    """What this machine's toolchain is, in the words of a skip reason.

    For example: ``hipcc (HIP 5.2.21153) builds gfx906 and gfx1030, but not gfx1102 (cannot find
    ROCm device library for gfx1102)``."""
    found = compiler(refresh)
    if found.path is None:
        return found.error or "no hipcc"
    if found.error:
        return f"hipcc at {found.path} does not work: {found.error}"
    results = builds(list(KNOWN_TARGETS) + [t for t in needed if t not in KNOWN_TARGETS], refresh)
    ok = [t for t, b in results.items() if b.ok]
    if ok:
        text = f"{found.name()} builds {_listed(ok, 'and')}"
    else:
        text = f"{found.name()} at {found.path} builds none of {', '.join(results)}"
    failed = [results[t] for t in needed if not results[t].ok]
    if failed:
        text += ", but not " + _listed([f"{b.target} ({b.error})" for b in failed], "or")
    elif not ok:
        text += f" ({next(iter(results.values())).error})"
    return text


def _listed(items: list[str], word: str) -> str:
    """``a``, ``a and b``, ``a, b and c`` (``or`` for alternatives), as skip reasons write lists."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


# -- rocminfo ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Answer:
    """What a program printed and how it exited (colours removed)."""

    program: str | None
    returncode: int | None
    text: str

    @property
    def first_line(self) -> str:
        return next((ln.strip() for ln in self.text.splitlines() if ln.strip()), "")


_COLOURS = re.compile(r"\x1b\[[0-9;]*m")


def rocminfo() -> Answer:
    """What rocminfo reports: its agents if a GPU and its driver are present, otherwise why not."""
    path = find_program("rocminfo")
    if path is None:
        return Answer(None, None, f"no rocminfo on {searched()}")
    try:
        run = _run([path], VERSION_TIMEOUT)
    except subprocess.TimeoutExpired:
        return Answer(path, None, f"rocminfo timed out after {VERSION_TIMEOUT:g} s")
    except OSError as error:
        return Answer(path, None, f"rocminfo could not start: {error.strerror}")
    return Answer(path, run.returncode, _COLOURS.sub("", run.stdout + run.stderr))
