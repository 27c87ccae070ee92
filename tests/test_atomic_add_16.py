"""atomicAdd on 16-bit float values (CPP018's fix, migrate/cpp/atomic_add_16.py): the migrated file calls
hipmigrate_atomic_add, defined once before the first call, and compiles with HIP 6.4 and 7.2 for AMD targets."""
from __future__ import annotations

import pytest

from tests.compile import hipcc_compile
from tests.helpers import cli_json, read_tree, write_tree

KERNELS = """\
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void halves(__half* h, __half2* h2, float v) {
  atomicAdd(&h[threadIdx.x % 3], __float2half(v));
  atomicAdd(h2 + 1, __floats2half2_rn(v, v));
}
__device__ void add(__nv_bfloat16* addr, __nv_bfloat16 val) {
  __nv_bfloat162* pair = reinterpret_cast<__nv_bfloat162*>(reinterpret_cast<uintptr_t>(addr) & ~uintptr_t(3));
  atomicAdd(pair, __halves2bfloat162(val, val));
  atomicAdd(addr, val);
}
__global__ void bf(__nv_bfloat16* b, float v) { add(b + threadIdx.x, __float2bfloat16(v)); }
"""


def migrated(tmp_path, release: str) -> bytes:
    src = write_tree(tmp_path / "src", {"k.cu": KERNELS})
    code, doc = cli_json("run", str(src), "--out", str(tmp_path / "out"), "--hip-version", release)
    sites = [(f["line"], f["severity"]) for f in doc["findings"] if f["code"] == "CPP018"]
    assert sites == [(4, "warning"), (5, "warning"), (9, "warning"), (10, "warning")]
    return read_tree(tmp_path / "out")["k.cu"]


def test_each_call_is_replaced_and_the_block_written_once(tmp_path):
    out = migrated(tmp_path, "7.2").decode()
    assert out.count("#ifndef HIPMIGRATE_ATOMIC_ADD_16") == 1
    assert out.index("#ifndef HIPMIGRATE_ATOMIC_ADD_16") > out.index("#include <hip/hip_bf16.h>")
    assert out.index("#endif\n__global__ void halves") > 0
    assert out.count("hipmigrate_atomic_add(") == 5 and "atomicAdd(" not in out.replace("unsafeAtomicAdd", "")


@pytest.mark.hipcc
@pytest.mark.parametrize("release, fixture, target", [("6.4", "hipcc64", "gfx942"), ("7.2", "hipcc72", "gfx942"),
                                                      ("7.2", "hipcc72", "gfx1201")])
def test_the_migrated_atomics_compile(request, tmp_path, release, fixture, target):
    hipcc = request.getfixturevalue(fixture)
    migrated(tmp_path, release)
    built = hipcc_compile(hipcc, tmp_path / "out" / "k.cu", [], tmp_path, target)
    assert built.returncode == 0, built.stderr
