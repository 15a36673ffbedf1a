"""ROCm's userland: finding hipcc, the targets it builds for, the cache, and what skip reasons say.

Most tests drive a fake ``hipcc`` (a shell script) so that every case — missing, broken,
slow, partial target support — is reproducible; one test uses the real hipcc where
Debian's package is installed (``scripts/ensure-rocm-tools``).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from pathlib import Path

import pytest

from ruota_docs.run import toolchain
from ruota_docs.records.schema import Machine
from ruota_docs.blocks.terms import parse
from ruota_docs.run.conditions import unmet_reason

from _support import read_ledger, run_pytest, write_tree, clean_env

#: rocm_dirs itself, before the `machine` fixture replaces it
ROCM_DIRS = toolchain.rocm_dirs
CPU = Machine(backend="cpu", gpu_name=None, arch=None, vram_bytes=None, gpu_count=0,
             os="linux", machine="x86_64", python="3.11.7", torch=None)

#: A hipcc that answers like Debian's: a HIP version, a clang, and builds only for $FAKE_OK_TARGETS.
FAKE_HIPCC = """\
#!/bin/sh
echo "$HIP_PLATFORM $*" >> "{log}"
case "$1" in
  --version)
    [ -n "$FAKE_VERSION_SLEEP" ] && {{ {sleep} "$FAKE_VERSION_SLEEP" & echo $! > "{log}.sleeper"; wait; }}
    echo "HIP version: 9.9.12345-abc"
    echo "AMD clang version 99.0.0"
    echo "InstalledDir: {llvm}"
    exit 0 ;;
esac
for arg in "$@"; do
  case "$arg" in --offload-arch=*) target="${{arg#--offload-arch=}}" ;; esac
done
echo "start $target $({date} +%s.%N)" >> "{log}"
[ -n "$FAKE_BUILD_SLEEP" ] && {sleep} "$FAKE_BUILD_SLEEP"
echo "end $target $({date} +%s.%N)" >> "{log}"
for ok in $FAKE_OK_TARGETS; do
  [ "$ok" = "$target" ] && exit 0
done
echo "clang: error: cannot find ROCm device library for $target; provide its path via '--rocm-path'" >&2
exit 1
"""


#: The shell tools the fake uses, by absolute path: the tests empty PATH.
TOOLS = {"sleep": shutil.which("sleep"), "date": shutil.which("date")}


def fake_hipcc_text(log: Path, llvm: Path) -> str:
    return FAKE_HIPCC.format(log=log, llvm=llvm, **TOOLS)


def _script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A machine with nothing of ROCm: an empty PATH, no ROCm directory, a private cache."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("ROCM_PATH", str(tmp_path / "rocm"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("FAKE_OK_TARGETS", "gfx906 gfx1030")
    for name in ("FAKE_VERSION_SLEEP", "FAKE_BUILD_SLEEP", "HIP_PLATFORM", "HIP_DEVICE_LIB_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(toolchain, "rocm_dirs", lambda: (tmp_path / "rocm" / "bin",))
    return tmp_path


@pytest.fixture
def fake_hipcc(machine):
    log = machine / "hipcc.log"
    llvm = machine / "llvm" / "bin"
    _script(llvm / "clang", "#!/bin/sh\nexit 0\n")
    return _script(machine / "bin" / "hipcc", fake_hipcc_text(log, llvm))


def calls(machine: Path) -> list[str]:
    log = machine / "hipcc.log"
    return [ln for ln in log.read_text().splitlines() if not ln.startswith(("start ", "end "))] if log.exists() else []


# -- no hipcc ---------------------------------------------------------------------------------------
def test_no_hipcc(machine):
    places = f"PATH or in {machine / 'rocm' / 'bin'}"
    assert toolchain.compiler() == toolchain.Compiler(None, error=f"no hipcc on {places}")
    assert toolchain.builds(["gfx906"])["gfx906"] == toolchain.Build("gfx906", False, f"no hipcc on {places}")
    assert not toolchain.works()
    assert toolchain.describe(["gfx906"]) == f"no hipcc on {places}"
    assert unmet_reason(parse("hipcc arch=gfx906"), CPU) == (
        f"requires hipcc able to build for gfx906; this machine: no hipcc on {places}")
    assert unmet_reason(parse("hipcc"), CPU) == f"requires a working hipcc; this machine: no hipcc on {places}"


def test_hipcc_in_a_rocm_folder_is_found(machine, fake_hipcc):
    moved = machine / "rocm" / "bin" / "hipcc"
    moved.parent.mkdir(parents=True)
    fake_hipcc.rename(moved)
    assert toolchain.find_program("hipcc") == str(moved)
    assert toolchain.compiler().path == str(moved)


def test_rocm_dirs_follow_rocm_path(monkeypatch, tmp_path):
    monkeypatch.setenv("ROCM_PATH", str(tmp_path))
    assert toolchain.rocm_dirs() == (tmp_path / "bin", tmp_path / "llvm/bin", Path("/opt/rocm/bin"), Path("/opt/rocm/llvm/bin"))
    monkeypatch.delenv("ROCM_PATH")
    assert toolchain.rocm_dirs() == (Path("/opt/rocm/bin"), Path("/opt/rocm/llvm/bin"))
    assert toolchain.searched() == "PATH or in /opt/rocm/bin or /opt/rocm/llvm/bin"


def test_rocm_llvm_programs_are_found(machine, monkeypatch):
    # ROCm puts its LLVM's llvm-readobj, which replaces roc-obj-ls, in llvm/bin, not on PATH
    monkeypatch.setattr(toolchain, "rocm_dirs", ROCM_DIRS)  # the real folders, under $ROCM_PATH
    readobj = machine / "rocm" / "llvm" / "bin" / "llvm-readobj"
    readobj.parent.mkdir(parents=True)
    readobj.write_text("#!/bin/sh\n")
    readobj.chmod(0o755)
    assert toolchain.find_program("llvm-readobj") == str(readobj)


def test_a_file_that_is_not_executable_is_not_a_program(machine):
    (machine / "bin" / "roc-obj-ls").write_text("#!/bin/sh\n")
    (machine / "rocm" / "bin").mkdir(parents=True)
    (machine / "rocm" / "bin" / "roc-obj-ls").write_text("#!/bin/sh\n")
    assert toolchain.find_program("roc-obj-ls") is None
    assert unmet_reason(parse("tool=roc-obj-ls"), CPU) == (
        f"requires roc-obj-ls; this machine: no roc-obj-ls on PATH or in {machine / 'rocm' / 'bin'}")


# -- a working hipcc --------------------------------------------------------------------------------
def test_version_and_targets(machine, fake_hipcc):
    found = toolchain.compiler()
    assert (found.path, found.version, found.error, found.works) == (str(fake_hipcc), "9.9.12345", None, True)
    results = toolchain.builds(["gfx906", "gfx1102"])
    assert results["gfx906"] == toolchain.Build("gfx906", True)
    assert results["gfx1102"] == toolchain.Build("gfx1102", False, "cannot find ROCm device library for gfx1102")
    assert toolchain.works()
    assert toolchain.describe(["gfx1102"]) == (
        "hipcc (HIP 9.9.12345) builds gfx906 and gfx1030, but not gfx1102 (cannot find ROCm device library for gfx1102)")


def test_reasons_name_what_the_compiler_builds(machine, fake_hipcc):
    assert unmet_reason(parse("hipcc arch=gfx906"), CPU) is None
    assert unmet_reason(parse("hipcc arch=gfx906,gfx1030"), CPU) is None
    assert unmet_reason(parse("hipcc"), CPU) is None
    assert unmet_reason(parse("hipcc arch=gfx906,gfx1102"), CPU) == (
        "requires hipcc able to build for gfx906 and gfx1102; this machine: hipcc (HIP 9.9.12345) builds "
        "gfx906 and gfx1030, but not gfx1102 (cannot find ROCm device library for gfx1102)")
    # the GPU's target and the compiler's are separate terms
    assert unmet_reason(parse("rocm arch=gfx906 hipcc arch=gfx906"), CPU) == (
        "requires ROCm, arch gfx906; this machine: CPU only, x86_64")


def test_a_compiler_that_builds_nothing(machine, fake_hipcc, monkeypatch):
    monkeypatch.setenv("FAKE_OK_TARGETS", "")
    assert not toolchain.works()
    described = toolchain.describe()
    assert described.startswith(f"hipcc (HIP 9.9.12345) at {fake_hipcc} builds none of gfx803, gfx900, gfx906")
    assert described.endswith(" (cannot find ROCm device library for gfx803)")


def test_hipcc_always_runs_for_amd(machine, fake_hipcc, monkeypatch):
    # the machine has nvcc too and the user's environment says nvidia: hipcc must still target AMD
    monkeypatch.setenv("HIP_PLATFORM", "nvidia")
    toolchain.builds(["gfx906"])
    assert calls(machine) and all(line.split()[0] == "amd" for line in calls(machine))
    assert os.environ["HIP_PLATFORM"] == "nvidia"


def test_targets_are_tried_in_parallel(machine, fake_hipcc, monkeypatch):
    monkeypatch.setenv("FAKE_BUILD_SLEEP", "0.4")
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    toolchain.builds(["gfx906", "gfx1030", "gfx1100", "gfx1102"])
    spans = {}
    for line in (machine / "hipcc.log").read_text().splitlines():
        if line.startswith(("start ", "end ")):
            what, target, at = line.split()
            spans.setdefault(target, {})[what] = float(at)
    assert len(spans) == 4
    starts, ends = [s["start"] for s in spans.values()], [s["end"] for s in spans.values()]
    assert max(starts) < min(ends), "the compiles ran one after another"


# -- the cache ----------------------------------------------------------------------------------------
def test_a_second_run_costs_no_compile(machine, fake_hipcc):
    first = toolchain.describe(["gfx906"])
    count = len(calls(machine))
    assert count == 1 + len(toolchain.KNOWN_TARGETS)  # --version once, each target once
    assert toolchain.describe(["gfx906"]) == first
    assert toolchain.builds(["gfx906", "gfx1102"])["gfx1102"].error == "cannot find ROCm device library for gfx1102"
    assert unmet_reason(parse("hipcc arch=gfx906"), CPU) is None
    assert len(calls(machine)) == count
    data = json.loads(toolchain.cache_path().read_text())
    (entry,) = data["compilers"].values()
    assert entry["hipcc"] == str(fake_hipcc) and entry["version"] == "9.9.12345"
    assert entry["targets"]["gfx906"] == {"ok": True, "error": None}


def test_only_new_targets_are_compiled(machine, fake_hipcc):
    toolchain.builds(["gfx906"])
    toolchain.builds(["gfx906", "gfx1030"])
    assert [c.split()[1] for c in calls(machine)] == ["--version", "--offload-arch=gfx906", "--offload-arch=gfx1030"]


def test_a_changed_hipcc_is_probed_again(machine, fake_hipcc, monkeypatch):
    toolchain.builds(["gfx906"])
    count = len(calls(machine))
    fake_hipcc.write_text(fake_hipcc.read_text() + "# upgraded\n")
    monkeypatch.setenv("FAKE_OK_TARGETS", "gfx1030")
    assert not toolchain.builds(["gfx906"])["gfx906"].ok
    assert len(calls(machine)) == count + 2


def test_a_changed_clang_is_probed_again(machine, fake_hipcc):
    toolchain.builds(["gfx906"])
    count = len(calls(machine))
    clang = machine / "llvm" / "bin" / "clang"
    clang.write_text("#!/bin/sh\n# a newer clang\nexit 0\n")
    toolchain.builds(["gfx906"])
    assert len(calls(machine)) == count + 2


def test_hipcc_environment_is_part_of_the_key(machine, fake_hipcc, monkeypatch):
    toolchain.builds(["gfx906"])
    count = len(calls(machine))
    monkeypatch.setenv("HIP_DEVICE_LIB_PATH", str(machine / "other-bitcode"))
    toolchain.builds(["gfx906"])
    assert len(calls(machine)) == count + 2


def test_refresh_probes_again(machine, fake_hipcc):
    toolchain.builds(["gfx906"])
    count = len(calls(machine))
    toolchain.builds(["gfx906"], refresh=True)
    assert len(calls(machine)) == count + 2


def test_a_damaged_cache_is_ignored_and_replaced(machine, fake_hipcc):
    path = toolchain.cache_path()
    path.parent.mkdir(parents=True)
    path.write_text("{ not json")
    assert toolchain.builds(["gfx906"])["gfx906"].ok
    assert json.loads(path.read_text())["schema"] == toolchain.CACHE_SCHEMA


def test_no_cache_folder_still_answers(machine, fake_hipcc, monkeypatch):
    blocker = machine / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert toolchain.builds(["gfx906"])["gfx906"].ok
    assert toolchain.builds(["gfx906"])["gfx906"].ok
    assert len(calls(machine)) == 4  # nothing cached: probed twice


# -- broken and slow compilers ---------------------------------------------------------------------
def test_a_broken_hipcc(machine):
    hipcc = _script(machine / "bin" / "hipcc", "#!/bin/sh\necho 'hipcc: perl: not found' >&2\nexit 3\n")
    assert toolchain.compiler().error == "`hipcc --version` exited with status 3: perl: not found"
    assert not toolchain.works()
    assert unmet_reason(parse("hipcc arch=gfx906"), CPU) == (
        f"requires hipcc able to build for gfx906; this machine: hipcc at {hipcc} does not work: "
        "`hipcc --version` exited with status 3: perl: not found")


def test_a_hipcc_without_a_version(machine):
    _script(machine / "bin" / "hipcc", "#!/bin/sh\necho 'nvcc: NVIDIA (R) Cuda compiler driver'\n")
    assert toolchain.compiler().error == "`hipcc --version` printed no HIP version"


def test_a_slow_version_is_a_timeout_not_cached(machine, fake_hipcc, monkeypatch):
    monkeypatch.setenv("FAKE_VERSION_SLEEP", "3")
    monkeypatch.setattr(toolchain, "VERSION_TIMEOUT", 0.3)
    started = time.monotonic()
    found = toolchain.compiler()
    assert time.monotonic() - started < 2.5
    assert (found.error, found.transient) == ("`hipcc --version` timed out after 0.3 s", True)
    # what hipcc started (clang, here a sleep) is ended with it
    sleeper = int((machine / "hipcc.log.sleeper").read_text())
    status = Path(f"/proc/{sleeper}/status")
    # SIGKILL is sent before compiler() returns; the kernel ends the process a moment later
    deadline = time.monotonic() + 5
    while _alive(status) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(status)
    assert unmet_reason(parse("hipcc"), CPU).endswith("does not work: `hipcc --version` timed out after 0.3 s")
    monkeypatch.delenv("FAKE_VERSION_SLEEP")
    assert toolchain.compiler().works  # the next run asks again


def _alive(status: Path) -> bool:
    try:
        return "State:\tZ" not in status.read_text()
    except OSError:  # gone
        return False


def test_a_slow_build_is_a_timeout_not_cached(machine, fake_hipcc, monkeypatch):
    monkeypatch.setenv("FAKE_BUILD_SLEEP", "3")
    monkeypatch.setattr(toolchain, "BUILD_TIMEOUT", 0.3)
    result = toolchain.builds(["gfx906"])["gfx906"]
    assert (result.ok, result.error, result.transient) == (False, "timed out after 0.3 s", True)
    monkeypatch.delenv("FAKE_BUILD_SLEEP")
    assert toolchain.builds(["gfx906"])["gfx906"].ok


# -- rocminfo ---------------------------------------------------------------------------------------
def test_rocminfo_answer_without_colours(machine):
    _script(machine / "bin" / "rocminfo",
            "#!/bin/sh\nprintf '\\033[31mROCk module is NOT loaded, possibly no GPU devices\\033[0m\\n'\nexit 1\n")
    answer = toolchain.rocminfo()
    assert (answer.returncode, answer.first_line) == (1, "ROCk module is NOT loaded, possibly no GPU devices")
    assert "\x1b" not in answer.text


def test_no_rocminfo(machine):
    assert toolchain.rocminfo() == toolchain.Answer(None, None, f"no rocminfo on PATH or in {machine / 'rocm' / 'bin'}")


# -- the real compiler, where it is installed ---------------------------------------------------------
@pytest.mark.skipif(shutil.which("hipcc") is None, reason="requires Debian's hipcc: scripts/ensure-rocm-tools installs it")
def test_debian_hipcc_builds_for_gfx906(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    found = toolchain.compiler()
    assert found.works and found.version and found.version[0].isdigit()
    assert toolchain.builds(["gfx906"])["gfx906"].ok
    assert "gfx906" in toolchain.describe(["gfx906"]).split("builds ", 1)[1]


# -- through the engine: a page's blocks skip with the reason, or run --------------------------------
PAGE = """\
    # Toolchain

    <!-- requires: hipcc arch=gfx906 -->
    ```python
    print("built for gfx906")
    ```

    <!-- requires: hipcc arch=gfx1102 -->
    ```python
    print("built for gfx1102")
    ```

    <!-- requires: tool=hipcc -->
    ```python
    print("hipcc is installed")
    ```
    """


def _run_page(root: Path, path_dir: Path, cache: Path):
    write_tree(root, {"docs/es/index.md": PAGE})
    env = clean_env(PATH=str(path_dir), ROCM_PATH=str(root / "no-rocm"), XDG_CACHE_HOME=str(cache),
                    FAKE_OK_TARGETS="gfx906 gfx1030")
    env.pop("HIP_PLATFORM", None)
    result = run_pytest(root, "-p", "no:xdist", "--record", str(root / "ledger.json"), env=env)
    return result, read_ledger(root / "ledger.json")["blocks"]


@pytest.mark.skipif(Path("/opt/rocm/bin/hipcc").exists(), reason="this machine has /opt/rocm/bin/hipcc: a stripped PATH cannot hide it")
def test_page_without_hipcc_skips_with_the_reason(tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    result, blocks = _run_page(tmp_path / "tree", empty, tmp_path / "cache")
    assert result.returncode == 0, result.stdout + result.stderr
    places = (f"PATH or in {tmp_path / 'tree' / 'no-rocm' / 'bin'} or {tmp_path / 'tree' / 'no-rocm' / 'llvm' / 'bin'} "
              "or /opt/rocm/bin or /opt/rocm/llvm/bin")
    assert [(b["outcome"], b["reason"]) for b in blocks.values()] == [
        ("skipped", f"requires hipcc able to build for gfx906; this machine: no hipcc on {places}"),
        ("skipped", f"requires hipcc able to build for gfx1102; this machine: no hipcc on {places}"),
        ("skipped", f"requires hipcc; this machine: no hipcc on {places}"),
    ]


@pytest.mark.skipif(Path("/opt/rocm/bin/hipcc").exists(), reason="this machine has /opt/rocm/bin/hipcc: it would answer instead of the fake")
def test_page_with_a_compiler_runs_what_it_can_build(tmp_path):
    bin_dir = tmp_path / "bin"
    llvm = tmp_path / "llvm" / "bin"
    _script(llvm / "clang", "#!/bin/sh\nexit 0\n")
    _script(bin_dir / "hipcc", fake_hipcc_text(tmp_path / "hipcc.log", llvm))
    result, blocks = _run_page(tmp_path / "tree", bin_dir, tmp_path / "cache")
    assert result.returncode == 0, result.stdout + result.stderr
    outcomes = [(b["outcome"], b["output"], b["reason"]) for b in blocks.values()]
    assert outcomes[0] == ("passed", "built for gfx906\n", None)
    assert outcomes[1] == ("skipped", "", "requires hipcc able to build for gfx1102; this machine: hipcc (HIP 9.9.12345) "
                           "builds gfx906 and gfx1030, but not gfx1102 (cannot find ROCm device library for gfx1102)")
    assert outcomes[2] == ("passed", "hipcc is installed\n", None)


# -- ruota-docs toolchain --------------------------------------------------------------------------
def test_cli_reports_the_toolchain(machine, fake_hipcc, capsys):
    from ruota_docs import cli

    assert cli.main(["toolchain", "--targets", "gfx906"]) == 0
    out = capsys.readouterr().out
    assert f"hipcc: {fake_hipcc} (HIP 9.9.12345)\nbuilds for: gfx906, gfx1030\n" in out
    assert "  not gfx1102: cannot find ROCm device library for gfx1102\n" in out
    assert f"roc-obj-ls: not found on PATH or in {machine / 'rocm' / 'bin'}\n" in out
    assert f"cache: {machine / 'cache' / 'ruota-docs' / 'toolchain.json'}" in out
    assert cli.main(["toolchain", "--targets", "gfx906,gfx1102"]) == 1
    assert capsys.readouterr().err == "cannot build for: gfx1102\n"


def test_cli_rejects_a_malformed_target(machine, capsys):
    from ruota_docs import cli

    assert cli.main(["toolchain", "--targets", "gfx"]) == 2
    assert "--targets: malformed gfx target 'gfx'" in capsys.readouterr().err


def test_cli_without_hipcc(machine, capsys):
    from ruota_docs import cli

    assert cli.main(["toolchain"]) == 0
    assert capsys.readouterr().out.startswith(f"hipcc: no hipcc on PATH or in {machine / 'rocm' / 'bin'}\n")
