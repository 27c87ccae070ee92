"""Thrust's CUDA system in code and headers (CPP051 and the thrust pack's same-path rows): the migrated file uses
rocThrust's HIP system and compiles with HIP 6.4 and 7.2, where rocThrust's own thrust/system/cuda headers do not."""
from __future__ import annotations

import pytest

from tests.compile import hipcc_compile
from tests.helpers import cli_json, read_tree, write_tree

SOURCE = """\
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/cuda/vector.h>
#include <thrust/system_error.h>

void sort_on(cudaStream_t stream, thrust::cuda::vector<int>& v) {
  thrust::sort(thrust::cuda::par.on(stream), v.begin(), v.end());
  cudaError_t e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess) throw thrust::system_error(e, thrust::cuda_category(), "sort");
}
"""
EXPECTED = """\
#include <hip/hip_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/system/hip/execution_policy.h>
#include <thrust/system/hip/vector.h>
#include <thrust/system_error.h>

void sort_on(hipStream_t stream, thrust::hip::vector<int>& v) {
  thrust::sort(thrust::hip::par.on(stream), v.begin(), v.end());
  hipError_t e = hipStreamSynchronize(stream);
  if (e != hipSuccess) throw thrust::system_error(e, thrust::hip_category(), "sort");
}
"""


def migrated(tmp_path, release: str) -> str:
    src = write_tree(tmp_path / "src", {"sort.cu": SOURCE})
    code, doc = cli_json("run", str(src), "--out", str(tmp_path / "out"), "--hip-version", release)
    assert [(f["line"], f["severity"]) for f in doc["findings"] if f["code"] == "CPP051"] == [
        (7, "info"), (8, "info"), (10, "info")]
    return read_tree(tmp_path / "out")["sort.cu"].decode()


def test_the_cuda_system_becomes_the_hip_system(tmp_path):
    assert migrated(tmp_path, "7.2") == EXPECTED


@pytest.mark.hipcc
@pytest.mark.parametrize("release, fixture", [("6.4", "hipcc64"), ("7.2", "hipcc72")])
def test_it_compiles(request, tmp_path, release, fixture):
    hipcc = request.getfixturevalue(fixture)
    migrated(tmp_path, release)
    built = hipcc_compile(hipcc, tmp_path / "out" / "sort.cu", [], tmp_path, "gfx942")
    assert built.returncode == 0, built.stderr
