"""A HIP kernel for the Radeon VII (gfx906), built and inspected with ROCm's own tools, GPU or not.

The kernel is the case of the guide: a first convolution layer with 3 input channels.
hipcc builds it for gfx906 on any Linux machine with a HIP compiler (Debian 12:
``apt install hipcc``); roc-obj-ls lists the code objects in the program; running it
shows the HIP runtime's answer, and on a gfx906 its output is compared with a float64
reference computed on the CPU.

    python 030_hip_first_layer.py            # builds and runs in the current directory
"""

import runpy
from pathlib import Path

globals().update(runpy.run_path(str(Path(__file__).resolve().parents[1] / "rocm_toolchain" / "rocm_tools.py")))

# --8<-- [start:build]
import os
import subprocess
from pathlib import Path

TARGET = "gfx906"
C, K, H, W, R = 3, 4, 12, 12, 3  # input channels, filters, image height and width, filter size

KERNEL = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>
#include <vector>

constexpr int C = 3, K = 4, H = 12, W = 12, R = 3, OH = H - R + 1, OW = W - R + 1;

// A HIP call that fails ends the program with the runtime's own name for the error.
#define CHECK(call)                                                                  \
    do {                                                                             \
        hipError_t status = (call);                                                  \
        if (status != hipSuccess) {                                                  \
            const char *name = hipGetErrorName(status), *text = hipGetErrorString(status); \
            if (std::strcmp(name, text) == 0) std::printf("%s: %s\n", #call, name);  \
            else std::printf("%s: %s (%s)\n", #call, name, text);                    \
            return 2;                                                                \
        }                                                                            \
    } while (0)

// One thread per output value: filter k, row i, column j.
__global__ void conv3x3(const float* x, const float* w, float* y) {
    int k = blockIdx.x, i = threadIdx.y, j = threadIdx.x;
    float sum = 0.0f;
    for (int c = 0; c < C; ++c)
        for (int u = 0; u < R; ++u)
            for (int v = 0; v < R; ++v)
                sum += x[(c * H + i + u) * W + j + v] * w[((k * C + c) * R + u) * R + v];
    y[(k * OH + i) * OW + j] = sum;
}

int main(int argc, char** argv) {
    if (argc != 3) { std::printf("usage: %s INPUT OUTPUT\n", argv[0]); return 1; }
    std::vector<float> input(C * H * W + K * C * R * R), output(K * OH * OW);
    FILE* in = std::fopen(argv[1], "rb");
    if (!in || std::fread(input.data(), sizeof(float), input.size(), in) != input.size()) {
        std::printf("cannot read %zu floats from %s\n", input.size(), argv[1]);
        return 1;
    }
    std::fclose(in);
    int devices = 0;
    CHECK(hipGetDeviceCount(&devices));
    hipDeviceProp_t props;
    CHECK(hipGetDeviceProperties(&props, 0));
    std::printf("device 0: %s (%s)\n", props.name, props.gcnArchName);
    float *x, *y;
    CHECK(hipMalloc(&x, input.size() * sizeof(float)));
    CHECK(hipMalloc(&y, output.size() * sizeof(float)));
    CHECK(hipMemcpy(x, input.data(), input.size() * sizeof(float), hipMemcpyHostToDevice));
    conv3x3<<<K, dim3(OW, OH)>>>(x, x + C * H * W, y);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(output.data(), y, output.size() * sizeof(float), hipMemcpyDeviceToHost));
    FILE* out = std::fopen(argv[2], "wb");
    std::fwrite(output.data(), sizeof(float), output.size(), out);
    std::fclose(out);
    std::printf("computed %zu outputs\n", output.size());
    return 0;
}
"""

Path("first_layer.hip").write_text(KERNEL)
# HIP_PLATFORM=amd is needed: hipvars.pm picks nvidia where it finds an nvcc and no plain clang++ (Debian: clang++-15).
build = subprocess.run([rocm_tool("hipcc"), f"--offload-arch={TARGET}", "-O2", "first_layer.hip", "-o", "first_layer"],
                       env={**os.environ, "HIP_PLATFORM": "amd"}, capture_output=True, text=True, timeout=600)
assert build.returncode == 0, f"hipcc failed:\n{build.stdout}{build.stderr}"
print(f"built first_layer for {TARGET}: {Path('first_layer').stat().st_size // 1024} KiB")
#> built first_layer for gfx906: ... KiB
# --8<-- [end:build]

# --8<-- [start:objects]
objects = code_objects("first_layer")
for target, size, offset in objects:
    version = "?"
    if offset is not None:  # an uncompressed bundle: the code object is an ELF file at that offset
        with open("first_layer", "rb") as program:
            program.seek(offset)
            header = program.read(16)
        assert header[:4] == b"\x7fELF" and header[7] == 64, f"{target}: not an AMDGPU code object"
        version = header[8] + 2  # EI_ABIVERSION: 2 means code object v4, 3 means v5
    print(f"{target}: code object v{version}, {size} bytes")
assert [t.split(":")[0] for t, _, _ in objects] == [TARGET], objects
#> gfx906: code object v..., ... bytes
# --8<-- [end:objects]

# --8<-- [start:run]
import array
import random

rng = random.Random(0)
inputs = array.array("f", [rng.uniform(-1, 1) for _ in range(C * H * W + K * C * R * R)])  # rounded to float32
with open("input.bin", "wb") as handle:
    inputs.tofile(handle)
run = subprocess.run(["./first_layer", "input.bin", "output.bin"], capture_output=True, text=True, timeout=120)
print(run.stdout.strip() or run.stderr.strip())
print(f"exit status {run.returncode}")
if not Path("/dev/kfd").exists():
    # No kernel driver, so no device: the program must end with the runtime's own error, not crash.
    assert run.returncode == 2 and "hipErrorNoDevice" in run.stdout, run.stdout + run.stderr
# --8<-- [end:run]

if run.returncode != 0:  # run alone on a machine where the kernel cannot run: nothing to compare
    raise SystemExit(0)

# --8<-- [start:compare]
assert run.returncode == 0, f"the kernel did not run here: {run.stdout}"
gpu = array.array("f", Path("output.bin").read_bytes())
x, w = inputs[:C * H * W], inputs[C * H * W:]
OH, OW = H - R + 1, W - R + 1
# The same sums in float64 on the CPU, from the same float32 inputs.
reference = [sum(x[(c * H + i + u) * W + j + v] * w[((k * C + c) * R + u) * R + v]
                 for c in range(C) for u in range(R) for v in range(R))
             for k in range(K) for i in range(OH) for j in range(OW)]
error = max(abs(a - b) for a, b in zip(gpu, reference)) / max(abs(b) for b in reference)
print(f"{len(gpu)} outputs, relative error {error:.1e} against float64 (float32 tolerance 1e-4)")
assert len(gpu) == len(reference) and error < 1e-4, "WRONG: the gfx906 result does not match the reference"
#> 400 outputs, relative error ... against float64 (float32 tolerance 1e-4)
# --8<-- [end:compare]
