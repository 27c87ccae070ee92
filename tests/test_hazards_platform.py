"""Whole-file scenarios for the platform hazard rules (HAZ005 onwards): every finding's code and line."""
from migrate.cpp_engine import translate
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry

CODES = {"HAZ005", "HAZ006", "HAZ008", "HAZ009", "HAZ011", "HAZ012", "HAZ013", "HAZ014", "HAZ016", "HAZ007", "HAZ017"}


def hazards(source: str, **options) -> list[tuple[str, int]]:
    packs = default_packs()
    rules = [r() for r in default_registry().cpp()]
    result = translate("scenario.cu", source.encode(), Options(**options), packs, packs.newest, rules)
    return sorted((f.code, f.span.line) for f in result.findings if f.code in CODES)


def test_reduction_kernel_with_ptx_arch_gates_and_big_tile():
    source = """\
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

#if __CUDA_ARCH__ >= 800
#define TILE 256
#else
#define TILE 128
#endif

__global__ void reduce(const float* in, float* out) {
  __shared__ float tile[TILE];
  __shared__ double big[128][128];
#ifdef __CUDA_ARCH__
  tile[threadIdx.x] = in[threadIdx.x] + lane_id();
#endif
  out[0] = tile[0] + big[0][0];
}

void setup() {
  cudaFuncSetAttribute(reduce, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024);
  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
}

void host_only() { asm volatile("pause"); }
"""
    assert hazards(source) == [("HAZ005", 5), ("HAZ006", 9), ("HAZ006", 18), ("HAZ008", 17), ("HAZ008", 25),
                               ("HAZ008", 26)]


def test_legacy_texture_and_dynamic_parallelism():
    source = """\
texture<float, 1, cudaReadModeElementType> texIn;

__global__ void child(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(texIn, i);
}

__global__ void parent(float* out, int n) {
  if (threadIdx.x == 0) {
    child<<<(n + 255) / 256, 256>>>(out, n);
    cudaDeviceSynchronize();
  }
}

int main() {
  float *d_in, *d_out;
  cudaBindTexture(0, texIn, d_in, 1024 * sizeof(float));
  parent<<<1, 1>>>(d_out, 1024);
  cudaDeviceSynchronize();
  cudaUnbindTexture(texIn);
}
"""
    assert hazards(source) == [("HAZ009", 1), ("HAZ009", 5), ("HAZ009", 17), ("HAZ009", 20), ("HAZ011", 10),
                               ("HAZ011", 11)]


def test_fixes_under_unsafe_fixes():
    source = """\
#if defined(__CUDA_ARCH__)
__device__ int lane() { int l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }
#endif
"""
    packs = default_packs()
    rules = [r() for r in default_registry().cpp()]
    result = translate("fix.cu", source.encode(), Options(unsafe_fixes=True), packs, packs.newest, rules)
    # (CPP002 may put the HIP runtime include in front.)
    assert result.data.decode().endswith("#if defined(__HIP_DEVICE_COMPILE__)\n"
                                    "__device__ int lane() { int l; l = __lane_id(); return l; }\n#endif\n")


def test_libraries_and_launch_bounds():
    source = """\
#include <cudnn_frontend.h>
#include <mma.h>
#include <thrust/sort.h>

using namespace nvcuda;

__global__ void __launch_bounds__(128, 4) gemm(half* a) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
}

void sort(int* b, int* e, cudaStream_t s) {
  cudnnHandle_t h;
  cudnnCreate(&h);
  thrust::sort(thrust::cuda::par.on(s), b, e);
}
"""
    # mma.h is CPP052's (written for rocWMMA), not a library without a port
    assert hazards(source) == [("HAZ013", 7), ("HAZ016", 1), ("HAZ016", 14)]
