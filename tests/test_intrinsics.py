"""CPP060's intrinsics against the installed HIP toolchains: HIP 6.4 and 7.2 declare none of them, and the block that
writes them compiles with both, every function called."""
from __future__ import annotations

import os
import re
import subprocess

import pytest

from migrate.cpp import intrinsics

pytestmark = [pytest.mark.hipcc, pytest.mark.xdist_group("intrinsics")]


def _calls(prefix: str) -> str:
    lines = []
    for i, name in enumerate(sorted(intrinsics.NAMES)):
        args = ("d" if name == "__double2half" else "a, b, c" if name.startswith("__dp") else "o, b"
                if name.startswith("atomic") else "a" if re.fullmatch(r"__v(abs|absss|neg|negss)[24]", name) else "a, b")
        lines.append(f"    sink(o, {i}, {prefix}{name}({args}));")
    return ("#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n{block}\n"
            "template <class T> __device__ void sink(T* o, int i, T v) { o[i] = v; }\n"
            "__device__ void sink(unsigned* o, int i, int v) { o[i] = (unsigned)v; }\n"
            "__device__ void sink(unsigned* o, int i, __half v) { o[i] = __half_as_ushort(v); }\n"
            "__global__ void k(unsigned* o, unsigned a, unsigned b, unsigned c, double d) {\n" + "\n".join(lines) + "\n}\n")


def _compile(hipcc: str, source: str, tmp_path) -> subprocess.CompletedProcess:
    (tmp_path / "x.hip").write_text(source)
    return subprocess.run([hipcc, "-x", "hip", "-std=c++17", "--offload-arch=gfx942", "--offload-arch=gfx1201",
                           "-ferror-limit=0", "-Wall", "-Wextra", "-c", "x.hip", "-o", "x.o"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=600, env={**os.environ, "HIP_PLATFORM": "amd"})


@pytest.mark.parametrize("release", ["6.4", "7.2"])
def test_hip_lacks_every_name_and_the_block_gives_them(release, hipcc64, hipcc72, tmp_path):
    hipcc = {"6.4": hipcc64, "7.2": hipcc72}[release]
    bare = _compile(hipcc, _calls("").replace("{block}", ""), tmp_path)
    undeclared = set(re.findall(r"use of undeclared identifier '(\w+)'", bare.stderr))
    assert undeclared == set(intrinsics.NAMES), sorted(set(intrinsics.NAMES) ^ undeclared)
    done = _compile(hipcc, _calls(f"{intrinsics.NAMESPACE}::").replace("{block}", intrinsics.block()), tmp_path)
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr[-3000:]
