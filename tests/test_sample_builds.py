"""Every sample builds both ways: the original with nvcc (compile only: no GPU here), the migrated tree
with its own migrated Makefile or CMake build for gfx90a."""
import os
import subprocess
from pathlib import Path

import pytest

from migrate import api
from migrate.cpp.hipify_perl import TOOLCHAIN
from migrate.options import Options
from tests.conftest import need_tool

# The samples built with their own Makefile or CMakeLists.txt (pytorch_ddp is built by PyTorch's setup.py:
# tests/test_python_sample.py compiles its units).
SAMPLES = sorted(p.parent for p in (Path(__file__).resolve().parent.parent / "samples").glob("*/src")
                 if (p / "Makefile").exists() or (p / "CMakeLists.txt").exists())
CUDA_INCLUDE = TOOLCHAIN / "cuda" / "include"  # cuBLAS/cuRAND headers unpacked by scripts/install-toolchain
# On Debian 12 scripts/install-toolchain unpacks trixie's hipBLAS (with rocBLAS, rocSOLVER and the glibc and
# libstdc++ they need) here, since the suite packages none; on Debian 13 apt installs it and the folder is absent.
HIP_LIBDIR = TOOLCHAIN / "lib"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_original_compiles_with_nvcc(sample, tmp_path):
    nvcc = need_tool("nvcc")
    for source in sorted((sample / "src").glob("*.cu")):
        proc = subprocess.run([nvcc, "-arch=sm_90", "-std=c++17", "-c", str(source), "-o", str(tmp_path / "x.o"),
                               "-I", str(source.parent), "-I", str(CUDA_INCLUDE)], capture_output=True, text=True)
        assert proc.returncode == 0, f"{source}:\n{proc.stderr[-3000:]}"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_migrated_build_files_build_for_amd(sample, tmp_path, hipcc, monkeypatch):
    """The migrated Makefile or CMake build compiles and links the program for gfx90a: a complete link (ld checks
    the undefined symbols of every shared library in it), -lhipblas included."""
    need_tool("make")
    if HIP_LIBDIR.is_dir():
        # make reads CUDA_LIBDIR from the environment (`CUDA_LIBDIR ?=`): -L and an rpath for -lhipblas
        monkeypatch.setenv("CUDA_LIBDIR", str(HIP_LIBDIR))
    out = tmp_path / "hip"
    api.run(sample / "src", out, Options(hip_version="5.2", offload_arch=("gfx90a",)))
    result = api.build(out, ("gfx90a",), project_build=True, compile_units=False)
    project = result.project
    assert project is not None and project.findings == ()
    assert project.status == "ok", project.output_tail
    programs = [p for p in out.rglob(sample.name) if p.is_file() and os.access(p, os.X_OK)]
    assert programs, "the build produced no program"
    if sample.name == "cublas_sgemm":
        dynamic = subprocess.run([need_tool("readelf"), "-d", str(programs[0])], capture_output=True, text=True).stdout
        assert "Shared library: [libhipblas.so.0]" in dynamic, dynamic
