"""The project's own helpers with CUDA-looking names (llm.c's cudaCheck, cudaMallocConditionallyManaged, a
cuWarpSum template, a cudaDeviceHelper struct) are never reported as CUDA API without a HIP counterpart, whether
the whole tree is migrated or one file alone (then the headers it includes, and those beside it, are read)."""
from migrate import api
from migrate.cpp import project_names
from migrate.options import Options

HEADER = b"""#pragma once
#include <cuda_runtime.h>
inline void cudaCheck_(cudaError_t error, const char *file, int line) {
  if (error != cudaSuccess) { printf("%s:%d %s\\n", file, line, cudaGetErrorString(error)); exit(1); }
}
#define cudaCheck(err) (cudaCheck_(err, __FILE__, __LINE__))
inline void cudaMallocConditionallyManaged(void** out, size_t bytes, const char *file, int line) {
    cudaCheck_(cudaMalloc(out, bytes), file, line);
}
template<class T> __device__ T cuWarpSum(T v) { return v; }
static __host__ __device__ inline float* cuOffset(float* p, int i) { return p + i; }
struct cudaDeviceHelper { int n; };
"""
TRAIN = b"""#include "../llmc/cuda_common.h"
__global__ void k(float* p) { p[0] = cuWarpSum(p[0]) + *cuOffset(p, 1); }
int main() {
  float* p; cudaCheck(cudaMalloc(&p, 4)); cudaMallocConditionallyManaged((void**)&p, 16);
  cudaDeviceHelper h; h.n = 1; k<<<1,1>>>(p); cudaCheck(cudaDeviceSynchronize());
  return cudaNoSuchThing(h.n);
}
"""


def tree(tmp_path):
    (tmp_path / "llmc").mkdir()
    (tmp_path / "dev").mkdir()
    (tmp_path / "llmc" / "cuda_common.h").write_bytes(HEADER)
    (tmp_path / "dev" / "train.cu").write_bytes(TRAIN)
    return tmp_path


def unsupported(result) -> list[tuple[str, int, str]]:
    return [(f.span.path, f.span.line, f.matched) for f in result.findings if f.code == "CPP006"]


def test_declared_names_are_macros_types_and_functions_not_calls():
    assert project_names.declared(HEADER) == {"cudaCheck", "cudaCheck_", "cudaMallocConditionallyManaged",
                                              "cuWarpSum", "cuOffset", "cudaDeviceHelper"}
    assert project_names.declared(b"int f() { return cudaFoo(1); }\nvoid g() { x = cudaBar(2); cudaBaz(3); }\n"
                                  b"else cudaQux(4);\n") == set()


def test_the_projects_helpers_are_not_reported_in_a_tree(tmp_path):
    _, result = api.analyse(tree(tmp_path), Options(hip_version="6.4"))
    assert unsupported(result) == [("dev/train.cu", 6, "cudaNoSuchThing")]


def test_the_included_headers_count_for_one_file_alone(tmp_path):
    root = tree(tmp_path)
    _, result = api.analyse(root / "dev" / "train.cu", Options(hip_version="6.4"))
    assert unsupported(result) == [("train.cu", 6, "cudaNoSuchThing")]
