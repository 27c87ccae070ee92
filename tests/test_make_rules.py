"""Makefile rules (BLD101-BLD108) together on whole files: exact output, no fix conflicts, a second pass
that changes nothing, and the migrated sample Makefiles run by make with hipcc for AMD."""
import os
import subprocess
from pathlib import Path

import pytest

from migrate import api
from migrate.cpp.hipify_perl import TOOLCHAIN
from migrate.model import Severity
from migrate.options import Options
from tests.conftest import need_tool
from tests.helpers import write_tree

ROOT = Path(__file__).resolve().parent.parent
OPTIONS = Options(hip_version="5.2")

PROJECT = """\
# A CUDA project Makefile in the style of NVIDIA's samples.
CUDA_PATH ?= /usr/local/cuda
CUDA_HOME ?= $(CUDA_PATH)
NVCC      := $(CUDA_PATH)/bin/nvcc
CXX       ?= g++

GENCODE_FLAGS := -gencode arch=compute_70,code=sm_70 \\
                 -gencode arch=compute_80,code=sm_80 \\
                 -gencode arch=compute_90,code=compute_90

NVCCFLAGS := -O3 -std=c++17 --use_fast_math -lineinfo --expt-relaxed-constexpr \\
             -Xcompiler -fPIC,-Wall -Xptxas -v -ccbin $(CXX)
INCLUDES  := -I$(CUDA_HOME)/include -I/usr/local/cuda/samples/common/inc -Iinclude
LDFLAGS   := -L$(CUDA_PATH)/lib64 -Wl,-rpath,/usr/local/cuda/lib64
LIBS      := -lcublas -lcurand -lcufft -lcudart -lcuda -lnccl

SRCS := $(wildcard src/*.cu)
OBJS := $(SRCS:.cu=.o) host.o

app: $(OBJS)
\t$(CXX) -o $@ $^ $(LDFLAGS) $(LIBS)

%.o: %.cu include/common.cuh
\t$(NVCC) $(NVCCFLAGS) $(GENCODE_FLAGS) $(INCLUDES) -c $< -o $@

host.o: host.cpp
\t$(CXX) -O2 $(INCLUDES) -c $< -o $@

tool: tool.cu helper.o
\t$(NVCC) -arch=sm_80 -rdc=true -o $@ $^ -lcudadevrt

ifdef CUDA_HOME
check:
\t@echo using $(CUDA_HOME)
endif

clean:
\trm -f app tool $(OBJS)
"""

PROJECT_MIGRATED = """\
# A CUDA project Makefile in the style of NVIDIA's samples.
ROCM_PATH ?= /opt/rocm
NVCC      := hipcc
CXX       ?= g++

GENCODE_FLAGS := --offload-arch=gfx90a --offload-arch=gfx940

NVCCFLAGS := -O3 -std=c++17 -ffast-math -gline-tables-only \\
             -fPIC -Wall
INCLUDES  := -I$(ROCM_PATH)/include -I/usr/local/cuda/samples/common/inc -Iinclude
LDFLAGS   := -L$(ROCM_PATH)/lib -Wl,-rpath,/opt/rocm/lib
LIBS      := -lhipblas -lhiprand -lhipfft -lamdhip64 -lrccl

SRCS := $(wildcard src/*.cu)
OBJS := $(SRCS:.cu=.o) host.o

app: $(OBJS)
\t$(CXX) -o $@ $^ $(LDFLAGS) $(LIBS)

%.o: %.cu include/common.cuh
\t$(NVCC) $(NVCCFLAGS) $(GENCODE_FLAGS) $(INCLUDES) -c -x hip $< -o $@

host.o: host.cpp
\t$(CXX) -O2 $(INCLUDES) -c $< -o $@

tool: tool.cu helper.o
\t$(NVCC) --offload-arch=gfx90a --offload-arch=gfx940 -fgpu-rdc -o $@ -x hip $(filter %.cu,$^) -x none \
$(filter-out %.cu,$^)

ifdef ROCM_PATH
check:
\t@echo using $(ROCM_PATH)
endif

clean:
\trm -f app tool $(OBJS)
"""


def migrate_makefile(tmp_path: Path, text: str, options: Options = OPTIONS, name: str = "Makefile"):
    write_tree(tmp_path / "src", {name: text})
    _, result = api.analyse(tmp_path / "src", options)
    (file,) = result.files
    return file.new.decode() if file.new is not None else text, file.findings


def test_whole_project_makefile(tmp_path):
    out, findings = migrate_makefile(tmp_path, PROJECT)
    assert out == PROJECT_MIGRATED
    codes = {f.code for f in findings}
    assert codes >= {"BLD101", "BLD102", "BLD103", "BLD104", "BLD105", "BLD106", "BLD107", "BLD108"}
    assert "INP007" not in codes, [f.message for f in findings if f.code == "INP007"]
    warnings = sorted((f.span.line, f.code) for f in findings if f.severity is Severity.WARNING)
    # -Xptxas (no counterpart), the samples' helper headers (no counterpart), -lcudadevrt (dynamic parallelism)
    assert warnings == [(12, "BLD103"), (13, "BLD106"), (30, "BLD104")]
    again, findings = migrate_makefile(tmp_path / "again", out)
    assert again == out
    assert [f for f in findings if f.fix is not None] == []


def test_neighbouring_removals_from_different_rules_do_not_conflict(tmp_path):
    text = ("FLAGS = -ccbin g++ -Xptxas -v -arch=sm_80 -gencode arch=compute_90,code=sm_90 -lcudart -lcudadevrt\n"
            "app: app.cu\n\t$(NVCC) $(FLAGS) -o $@ $<\n")
    out, findings = migrate_makefile(tmp_path, text)
    assert out == ("FLAGS = --offload-arch=gfx90a --offload-arch=gfx940\n"
                   "app: app.cu\n\t$(NVCC) $(FLAGS) -o $@ -x hip $<\n")
    assert "INP007" not in {f.code for f in findings}


def test_crlf_makefile_keeps_its_line_ends(tmp_path):
    text = "CUDA_HOME ?= /usr/local/cuda\r\nNVCCFLAGS = -O2 \\\r\n  -arch=sm_80 \\\r\n  -lineinfo\r\n"
    out, _ = migrate_makefile(tmp_path, text)
    assert out == ("ROCM_PATH ?= /opt/rocm\r\nNVCCFLAGS = -O2 \\\r\n"
                   "  --offload-arch=gfx90a --offload-arch=gfx940 \\\r\n  -gline-tables-only\r\n")


def test_offload_arch_option_is_used(tmp_path):
    out, _ = migrate_makefile(tmp_path, "NVCCFLAGS = -gencode arch=compute_90,code=sm_90\n",
                              Options(hip_version="5.2", offload_arch=("gfx942", "gfx1100")))
    assert out == "NVCCFLAGS = --offload-arch=gfx942 --offload-arch=gfx1100\n"


def test_make_fragment_is_migrated(tmp_path):
    out, _ = migrate_makefile(tmp_path, "LIBS += -lcusparse -lcusolver\n", name="cuda.mk")
    assert out == "LIBS += -lhipsparse -lhipsolver\n"


RDC_PROJECT = {
    "Makefile": """\
CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
ARCH      ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90
NVCCFLAGS ?= -O2 -std=c++17 $(ARCH) -rdc=true -Xcompiler -Wall --expt-relaxed-constexpr
LDFLAGS   := -L$(CUDA_HOME)/lib64
LIBS      := -lcudart
OBJS      := main.o scale.o

app: $(OBJS)
\t$(NVCC) $(ARCH) -o $@ $^ $(LDFLAGS) $(LIBS)

%.o: %.cu scale.cuh
\t$(NVCC) $(NVCCFLAGS) -c $< -o $@
""",
    "scale.cuh": "#pragma once\n__device__ float scale(float x);\n",
    "scale.cu": ('#include "scale.cuh"\n__device__ float factor = 2.0f;\n'
                 "__device__ float scale(float x) { return x * factor; }\n"),
    "main.cu": """\
#include <cstdio>
#include <cuda_runtime.h>
#include "scale.cuh"
__global__ void apply(float *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = scale(v[i]);
}
int main() {
    float *d = nullptr;
    if (cudaMalloc(&d, 256 * sizeof(float)) != cudaSuccess) return 1;
    apply<<<1, 256>>>(d, 256);
    std::printf("%s\\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return cudaFree(d) == cudaSuccess ? 0 : 1;
}
""",
}

RDC_MAKEFILE_MIGRATED = """\
ROCM_PATH ?= /opt/rocm
NVCC      ?= hipcc
ARCH      ?= --offload-arch=gfx90a --offload-arch=gfx940
NVCCFLAGS ?= -O2 -std=c++17 $(ARCH) -fgpu-rdc -Wall
LDFLAGS   := -L$(ROCM_PATH)/lib
LIBS      :=
OBJS      := main.o scale.o

app: $(OBJS)
\t$(NVCC) -fgpu-rdc $(ARCH) -o $@ $^ $(LDFLAGS) $(LIBS)

%.o: %.cu scale.cuh
\t$(NVCC) $(NVCCFLAGS) -c -x hip $< -o $@
"""


@pytest.mark.hipcc
def test_relocatable_device_code_project_builds_with_make(tmp_path):
    """Separate compilation (-rdc=true): the migrated link line needs -fgpu-rdc, without which clang's link
    fails with `undefined reference to __hip_fatbin`."""
    write_tree(tmp_path / "src", RDC_PROJECT)
    _, result = api.analyse(tmp_path / "src", OPTIONS)
    out = tmp_path / "out"
    for r in result.files:
        write_tree(out, {r.path: r.new if r.new is not None else RDC_PROJECT[r.path].encode()})
    assert (out / "Makefile").read_text() == RDC_MAKEFILE_MIGRATED
    need_tool("hipcc")
    proc = subprocess.run([need_tool("make"), "-C", str(out)], capture_output=True, text=True,
                          env={**os.environ, "HIP_PLATFORM": "amd"}, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    assert (out / "app").is_file()


SAMPLES = ["saxpy_streams", "cublas_sgemm", "curand_pi", "multifile_constant"]


def migrated_sample(name: str, out: Path) -> Path:
    _, result = api.analyse(ROOT / "samples" / name / "src", OPTIONS)
    for r in result.files:
        path = out / r.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(r.new if r.new is not None else (ROOT / "samples" / name / "src" / r.path).read_bytes())
    return out


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_makefile_is_migrated(name, tmp_path):
    text = (migrated_sample(name, tmp_path) / "Makefile").read_text()
    assert "NVCC        ?= hipcc\n" in text
    assert "NVCCFLAGS   ?= -O2 -std=c++17 --offload-arch=gfx90a --offload-arch=gfx940\n" in text
    assert "-o $@ -x hip $<" in text
    code = "".join(line for line in text.splitlines(True) if not line.startswith("#"))
    assert "sm_90" not in code and "-lcu" not in code and "nvcc" not in code
    _, result = api.analyse(tmp_path, OPTIONS)
    assert [r.path for r in result.changed if r.path == "Makefile"] == []


@pytest.mark.hipcc
@pytest.mark.parametrize("name", SAMPLES)
def test_migrated_sample_builds_with_make(name, tmp_path):
    """make runs the migrated Makefile with hipcc for AMD, compiling and linking; extra headers come in through
    EXTRA_FLAGS. On Debian 12 the hipBLAS library is the one scripts/install-toolchain unpacks under lib/."""
    need_tool("hipcc")
    make = need_tool("make")
    out = migrated_sample(name, tmp_path)
    args = [make, "-C", str(out), f"EXTRA_FLAGS=-I{TOOLCHAIN / 'include'}"]
    if (TOOLCHAIN / "lib").is_dir():
        args.append(f"CUDA_LIBDIR={TOOLCHAIN / 'lib'}")
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    assert "--offload-arch=gfx90a" in proc.stdout and "-x hip" in proc.stdout
    assert (out / name).is_file()
