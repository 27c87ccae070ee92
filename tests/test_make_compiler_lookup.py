"""A Makefile that finds nvcc on the PATH and passes nvcc's parallel-compilation option: after `hipmigrate run`
make runs hipcc, without -t/--threads (BLD101, BLD103), and a second migration changes nothing."""
import os
import subprocess
from pathlib import Path

import pytest

from migrate import api
from migrate.options import Options
from tests.conftest import need_tool
from tests.helpers import write_tree

OPTIONS = Options(hip_version="5.2")

MAKEFILE = """\
# vector_add, built with whichever nvcc is first on the PATH
NVCC := $(shell which nvcc)
NPROC ?= 4
NVCC_FLAGS = -O3 -t=0 --use_fast_math -std=c++17
DEBUG_FLAGS = --threads 0 -t 0 --threads=0 -G

all: vector_add

vector_add: vector_add.cu
	$(NVCC) $(NVCC_FLAGS) -t=$(NPROC) -o $@ $<

debug: vector_add.cu
	$(NVCC) $(NVCC_FLAGS) $(DEBUG_FLAGS) -o vector_add_debug $<

.PHONY: all debug
"""

MIGRATED = """\
# vector_add, built with whichever nvcc is first on the PATH
NVCC := $(shell which hipcc)
NPROC ?= 4
NVCC_FLAGS = -O3 -ffast-math -std=c++17
DEBUG_FLAGS = -g

all: vector_add

vector_add: vector_add.cu
	$(NVCC) $(NVCC_FLAGS) -o $@ -x hip $<

debug: vector_add.cu
	$(NVCC) $(NVCC_FLAGS) $(DEBUG_FLAGS) -o vector_add_debug -x hip $<

.PHONY: all debug
"""

VECTOR_ADD = """\
#include <cuda_runtime.h>
__global__ void add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
int main() {
    float *d = nullptr;
    cudaMalloc(&d, 3 * 256 * sizeof(float));
    add<<<1, 256>>>(d, d + 256, d + 512, 256);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
"""


def stub_compilers(folder: Path) -> Path:
    """A folder holding do-nothing `hipcc` and `nvcc`, so that `which` finds either by name."""
    folder.mkdir()
    for name in ("hipcc", "nvcc"):
        (folder / name).write_text("#!/bin/sh\nexit 0\n")
        (folder / name).chmod(0o755)
    return folder


LOOKUPS = [
    ("NVCC := $(shell which nvcc)", "NVCC := $(shell which hipcc)"),
    ("NVCC ?= $(shell command -v nvcc)", "NVCC ?= $(shell command -v hipcc)"),
    ("NVCC = $(shell which nvcc 2>/dev/null)", "NVCC = $(shell which hipcc 2>/dev/null)"),
]


@pytest.mark.parametrize(("lookup", "migrated"), LOOKUPS)
def test_migrated_makefile_runs_hipcc_without_nvcc_options(tmp_path, lookup, migrated):
    make = need_tool("make")
    original = MAKEFILE.replace(LOOKUPS[0][0], lookup)
    write_tree(tmp_path / "src", {"Makefile": original, "vector_add.cu": VECTOR_ADD})
    api.run(tmp_path / "src", tmp_path / "out", OPTIONS)
    assert (tmp_path / "out" / "Makefile").read_text() == MIGRATED.replace(LOOKUPS[0][1], migrated)
    stubs = stub_compilers(tmp_path / "bin")
    proc = subprocess.run([make, "-n", "all", "debug"], cwd=tmp_path / "out", capture_output=True, text=True,
                          env={"PATH": f"{stubs}{os.pathsep}/usr/bin{os.pathsep}/bin"}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"{stubs}/hipcc -O3 -ffast-math -std=c++17 -o vector_add -x hip vector_add.cu",
        f"{stubs}/hipcc -O3 -ffast-math -std=c++17 -g -o vector_add_debug -x hip vector_add.cu",
    ]


def test_migrating_the_migrated_makefile_again_changes_nothing(tmp_path):
    write_tree(tmp_path / "src", {"Makefile": MIGRATED, "vector_add.cu": VECTOR_ADD})
    _, result = api.analyse(tmp_path / "src", OPTIONS)
    (makefile,) = [r for r in result.files if r.path == "Makefile"]
    assert makefile.new is None or makefile.new.decode() == MIGRATED
    assert [f.code for f in makefile.findings if f.fix is not None] == []
