"""The guides' ROCm tool (snippets/rocm_toolchain/rocm_tools.py) on the cases CI's libraries never show:
compressed code objects, ROCm 7's llvm-readobj, rocBLAS's kernel files beside the library.

Binaries are built from /bin/true with objcopy, the listing tools are fakes printing what
ROCm's own tools print (roc-obj-ls: ``count  bundle-id  uri``; llvm-readobj --offloading:
``bundle-id<TAB>uri``), so every branch runs on any Linux machine.
"""

from __future__ import annotations

import runpy
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "snippets" / "rocm_toolchain" / "rocm_tools.py"
OBJCOPY = shutil.which("objcopy")  # found before the tests empty PATH
pytestmark = pytest.mark.skipif(OBJCOPY is None, reason="requires objcopy (binutils) to build test binaries")


@pytest.fixture
def rocm(tmp_path, monkeypatch):
    """The tool loaded with an empty PATH and a private ROCm directory."""
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("ROCM_PATH", str(tmp_path / "rocm"))
    (tmp_path / "bin").mkdir()
    return tmp_path, runpy.run_path(str(TOOL))


def binary(folder: Path, name: str, fatbin: bytes | None) -> Path:
    """A real ELF file (a copy of /bin/true), with a .hip_fatbin section holding ``fatbin``."""
    path = folder / name
    shutil.copy("/bin/true", path)
    if fatbin is not None:
        (folder / "fatbin.bin").write_bytes(fatbin)
        subprocess.run([OBJCOPY, "--add-section", f".hip_fatbin={folder / 'fatbin.bin'}", str(path)],
                       check=True, capture_output=True)
    return path


def script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


UNCOMPRESSED = b"__CLANG_OFFLOAD_BUNDLE__" + bytes(64)
COMPRESSED = b"CCOB" + bytes(60)


def test_fatbin_formats(rocm, tmp_path):
    _, tool = rocm
    assert tool["fatbin_format"](binary(tmp_path, "plain", None)) is None
    assert tool["fatbin_format"](binary(tmp_path, "old", UNCOMPRESSED)) == "uncompressed"
    assert tool["fatbin_format"](binary(tmp_path, "new", COMPRESSED)) == "compressed"
    (tmp_path / "text.hip").write_text("__global__ void k() {}\n")
    with pytest.raises(ValueError, match="is not a 64-bit ELF file"):
        tool["fatbin_format"](tmp_path / "text.hip")


def test_no_fatbin_means_no_device_code_without_asking_a_tool(rocm, tmp_path):
    _, tool = rocm  # no listing tool is installed: it must not be needed
    assert tool["code_objects"](binary(tmp_path, "plain", None)) == []


def test_roc_obj_ls_listing(rocm, tmp_path):
    root, tool = rocm
    lib = binary(tmp_path, "librocrand.so.1", UNCOMPRESSED)
    script(root / "bin" / "roc-obj-ls", f"""#!/bin/sh
echo "1       host-x86_64-unknown-linux                   file://{lib}#offset=8192&size=0"
echo "1       hipv4-amdgcn-amd-amdhsa--gfx1030            file://{lib}#offset=8192&size=3120"
echo "1       hipv4-amdgcn-amd-amdhsa--gfx906:xnack-      file://{lib}#offset=12288&size=2912"
echo "1       hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+      file://{lib}#offset=16384&size=2000"
""")
    assert tool["code_objects"](lib) == [("gfx1030", 3120, 8192), ("gfx906:xnack-", 2912, 12288), ("gfx90a:xnack+", 2000, 16384)]
    assert tool["gfx_targets"](lib) == ["gfx906", "gfx90a", "gfx1030"]


def test_compressed_objects_with_only_roc_obj_ls_is_an_error_not_an_empty_answer(rocm, tmp_path):
    root, tool = rocm
    script(root / "bin" / "roc-obj-ls", "#!/bin/sh\nexit 0\n")  # what it does with compressed bundles: lists nothing
    with pytest.raises(RuntimeError, match="holds compressed code objects, which roc-obj-ls cannot read"):
        tool["code_objects"](binary(tmp_path, "libtorch_hip.so", COMPRESSED))


def test_llvm_readobj_from_rocm_7_is_preferred(rocm, tmp_path):
    root, tool = rocm
    lib = binary(tmp_path, "libtorch_hip.so", COMPRESSED)
    script(root / "bin" / "roc-obj-ls", "#!/bin/sh\necho 'roc-obj-ls must not be used' >&2\nexit 1\n")
    script(root / "rocm" / "llvm" / "bin" / "llvm-readobj", f"""#!/bin/sh
if [ "$1" = --help ]; then echo "  --offloading   Display list of HIP offload bundles"; exit 0; fi
printf 'host-x86_64-unknown-linux--\\tfile://{lib}#offset=0&size=0\\n'
printf 'hipv4-amdgcn-amd-amdhsa--gfx1100\\tfile://{lib}#offset=4096&size=50000\\n'
printf 'hipv4-amdgcn-amd-amdhsa--gfx1102\\tfile://{lib}#offset=54096&size=51000\\n'
""")
    assert tool["code_objects"](lib) == [("gfx1100", 50000, None), ("gfx1102", 51000, None)]


def test_rocms_llvm_readobj_comes_before_an_older_one_on_path(rocm, tmp_path):
    """A machine with a system LLVM on PATH and ROCm 7, which no longer ships roc-obj-ls."""
    root, tool = rocm
    lib = binary(tmp_path, "libtorch_hip.so", COMPRESSED)
    script(root / "bin" / "llvm-readobj", "#!/bin/sh\necho '  --sections'\n")  # LLVM 15: no --offloading
    script(root / "rocm" / "llvm" / "bin" / "llvm-readobj", f"""#!/bin/sh
if [ "$1" = --help ]; then echo "  --offloading   Display list of HIP offload bundles"; exit 0; fi
printf 'hipv4-amdgcn-amd-amdhsa--gfx1102\\tfile://{lib}#offset=4096&size=51000\\n'
""")
    assert tool["code_objects"](lib) == [("gfx1102", 51000, None)]


def test_an_old_llvm_readobj_is_not_used(rocm, tmp_path):
    root, tool = rocm
    lib = binary(tmp_path, "liba.so", UNCOMPRESSED)
    script(root / "bin" / "llvm-readobj", "#!/bin/sh\necho '  --sections'\n")  # LLVM 15: no --offloading
    script(root / "bin" / "roc-obj-ls", f"#!/bin/sh\necho '1  hipv4-amdgcn-amd-amdhsa--gfx906  file://{lib}#offset=1&size=2'\n")
    assert tool["gfx_targets"](lib) == ["gfx906"]


def test_no_tool_at_all(rocm, tmp_path):
    _, tool = rocm
    with pytest.raises(FileNotFoundError, match="roc-obj-ls is not installed: not on PATH, nor in "):
        tool["code_objects"](binary(tmp_path, "liba.so", UNCOMPRESSED))


def test_rocblas_kernel_files_beside_the_library(rocm, tmp_path, capsys):
    _, tool = rocm
    lib = tmp_path / "lib" / "librocblas.so"
    files = tmp_path / "lib" / "rocblas" / "library"
    files.mkdir(parents=True)
    lib.write_bytes(b"")
    for name in ("TensileLibrary_lazy_gfx1030.dat", "TensileLibrary_lazy_gfx90a.dat", "Kernels.so-000-gfx942.hsaco",
                 "TensileManifest.txt"):
        (files / name).write_text("")
    assert tool["tensile_targets"](lib) == ["gfx90a", "gfx942", "gfx1030"]
    (files / "Kernels.so-000-gfx942.hsaco").unlink()
    # rocBLAS 6.4 on a Radeon VII: device code for gfx906 in the library, no kernel files for it
    tool["carries"].__globals__["gfx_targets"] = lambda path: ["gfx906", "gfx90a", "gfx1030"]
    assert tool["carries"](lib, "gfx906") == ["gfx906", "gfx90a", "gfx1030"]
    assert tool["carries"](lib, "gfx1030") == ["gfx906", "gfx90a", "gfx1030"]
    assert tool["carries"](lib, "gfx1102") == ["gfx906", "gfx90a", "gfx1030"]
    found = "librocblas.so: code for gfx906, gfx90a, gfx1030; rocBLAS/hipBLASLt kernel files for gfx90a, gfx1030"
    assert capsys.readouterr().out.splitlines() == [
        found, "gfx906: no, it has gfx906 code but no rocBLAS/hipBLASLt kernel files for it",
        found, "gfx1030: yes",
        found, "gfx1102: no, this build carries no gfx1102 code",
    ]


def test_default_library_prefers_the_readers_torch(rocm, tmp_path, monkeypatch):
    root, _ = rocm
    fake_torch = tmp_path / "site" / "torch"
    (fake_torch / "lib").mkdir(parents=True)
    (fake_torch / "__init__.py").write_text("")
    (fake_torch / "lib" / "libtorch_hip.so").write_bytes(b"")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    tool = runpy.run_path(str(TOOL))
    assert tool["default_library"]() == fake_torch / "lib" / "libtorch_hip.so"


def test_command_line(tmp_path):
    plain = binary(tmp_path, "plain", None)
    run = subprocess.run([sys.executable, str(TOOL), str(plain), "gfx1102"], capture_output=True, text=True)
    assert (run.returncode, run.stdout) == (0, "plain: no GPU code\ngfx1102: no, this build carries no gfx1102 code\n")
    run = subprocess.run([sys.executable, str(TOOL), str(tmp_path / "missing.so")], capture_output=True, text=True)
    assert run.returncode == 1 and run.stderr.startswith("rocm_tools: [Errno 2] No such file or directory")
    run = subprocess.run([sys.executable, str(TOOL), "--help"], capture_output=True, text=True)
    assert run.returncode == 0 and "python rocm_tools.py PATH [TARGET]" in run.stdout
