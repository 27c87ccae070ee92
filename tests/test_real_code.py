"""Patterns found by migrating NVIDIA's cuda-samples and compiling them for AMD (2026-11-30): each of these did
not build before. The migrated text is exact, and it compiles for gfx90a with the installed hipcc (HIP 5.2)."""
from migrate.cpp_engine import translate
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry
from tests.compile import hipcc_compile

def migrate(path: str, source: str):
    """`source` through the built-in engine's C++ rules, for HIP 5.2 (the installed hipcc's)."""
    return translate(path, source.encode(), Options(), default_packs(), "5.2", [r() for r in default_registry().cpp()])


def assert_builds(hipcc: str, unit, text: str) -> None:
    unit.write_text(text)
    proc = hipcc_compile(hipcc, unit, [], unit.parent)
    assert proc.returncode == 0, proc.stderr[-3000:]


HELPER = """\
#include <cuda_runtime.h>
#include <stdio.h>
// helper_cuda.h defines its checks only when the runtime's headers were included, by their include guards
#ifdef __DRIVER_TYPES_H__
#define CHECK(x) printf("%s\\n", cudaGetErrorString(x))
#endif
#if defined(__CUDA_RUNTIME_H__)
int devices() { int n = 0; cudaGetDeviceCount(&n); return n; }
#endif
__global__ void k(int* p) { p[threadIdx.x] = 1; }
template <typename T> __global__ void scale(T* p, T a) { p[threadIdx.x] *= a; }
void CUDART_CB done(cudaStream_t s, cudaError_t e, void* data) { *(int*)data = 1; }
int main() {
    int* pinned;
    cudaHostAlloc(&pinned, 256, cudaHostAllocPortable);
    cudaFuncSetCacheConfig(k, cudaFuncCachePreferShared);
    cudaFuncSetAttribute(scale<float>, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096);
    void (*f)(int*) = k;
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, *f);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamAddCallback(s, done, pinned, 0);
    CHECK(cudaStreamSynchronize(s));
    return devices();
}
"""

HELPER_HIP = """\
#include <hip/hip_runtime.h>
#include <stdio.h>
// helper_cuda.h defines its checks only when the runtime's headers were included, by their include guards
#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H
#define CHECK(x) printf("%s\\n", hipGetErrorString(x))
#endif
#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H)
int devices() { int n = 0; hipGetDeviceCount(&n); return n; }
#endif
__global__ void k(int* p) { p[threadIdx.x] = 1; }
template <typename T> __global__ void scale(T* p, T a) { p[threadIdx.x] *= a; }
void done(hipStream_t s, hipError_t e, void* data) { *(int*)data = 1; }
int main() {
    int* pinned;
    hipHostMalloc(&pinned, 256, hipHostMallocPortable);
    hipFuncSetCacheConfig(reinterpret_cast<const void*>(k), hipFuncCachePreferShared);
    hipFuncSetAttribute(reinterpret_cast<const void*>(scale<float>), hipFuncAttributeMaxDynamicSharedMemorySize, 4096);
    void (*f)(int*) = k;
    hipFuncAttributes attr;
    hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(*f));
    hipStream_t s;
    hipStreamCreate(&s);
    hipStreamAddCallback(s, done, pinned, 0);
    CHECK(hipStreamSynchronize(s));
    return devices();
}
"""


def test_cuda_samples_patterns_migrate_exactly_and_build_for_amd(tmp_path, hipcc):
    got = migrate("helper.cu", HELPER)
    assert got.data.decode() == HELPER_HIP
    codes = sorted({f.code for f in got.findings if not f.code.startswith("MAP")})
    # the include, the three casts, CUDART_CB; the cache preference has no effect on AMD (HAZ008); tree-sitter cannot
    # parse `void CUDART_CB done(...)` (INP001 says so: the line was migrated token by token)
    assert codes == ["CPP001", "CPP009", "CPP010", "HAZ008", "INP001"]
    assert [(f.code, f.span.line) for f in got.findings if f.code in ("CPP010", "HAZ008", "INP001")] == [
        ("CPP010", 12), ("HAZ008", 16), ("INP001", 12)]
    assert [f.span.line for f in got.findings if f.code == "CPP009"] == [16, 17, 20]
    assert_builds(hipcc, tmp_path / "helper.hip", got.data.decode())


LIBRARIES = """\
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <cusparse.h>
#include <stdio.h>
namespace cg = cooperative_groups;
// helper_cuda.h's overloads for each library, defined when its header was included
#ifdef _CUFFT_H_
const char* err(cufftResult r) { return "fft"; }
#endif
#ifdef CUSPARSEAPI
const char* err(cusparseStatus_t s) { return "sparse"; }
#endif
__global__ void k(int* p) { p[cg::this_thread_block().thread_rank()] = 0; }
void f() {
    cufftHandle h;
    printf("%s", err(cufftCreate(&h)));
    cusparseHandle_t s;
    printf("%s", err(cusparseCreate(&s)));
}
"""

LIBRARIES_HIP = """\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>
#include <hipfft/hipfft.h>
#include <hipsparse/hipsparse.h>
#include <stdio.h>
namespace cg = cooperative_groups;
// helper_cuda.h's overloads for each library, defined when its header was included
#ifdef HIPFFT_H_
const char* err(hipfftResult r) { return "fft"; }
#endif
#ifdef _HIPSPARSE_H_
const char* err(hipsparseStatus_t s) { return "sparse"; }
#endif
__global__ void k(int* p) { p[cg::this_thread_block().thread_rank()] = 0; }
void f() {
    hipfftHandle h;
    printf("%s", err(hipfftCreate(&h)));
    hipsparseHandle_t s;
    printf("%s", err(hipsparseCreate(&s)));
}
"""


def test_library_guards_and_cooperative_groups_before_the_runtime_build_for_amd(tmp_path, hipcc):
    """The cuFFT and cuSPARSE guards become hipFFT's and hipSPARSE's; hip_cooperative_groups.h gets the runtime
    included before it (HIP 5.2's uses the runtime without including it)."""
    got = migrate("libs.cu", LIBRARIES)
    assert got.data.decode() == LIBRARIES_HIP
    assert [(f.code, f.span.line) for f in got.findings if f.code == "CPP002"] == [("CPP002", 1)]
    assert_builds(hipcc, tmp_path / "libs.hip", got.data.decode())


GROUPS = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void reduce4(const float4* in, float4* out) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    float4 v = in[block.thread_rank()];
    for (int offset = tile.num_threads() / 2; offset > 0; offset /= 2) {
        float4 other = tile.shfl_down(v, offset);
        v.x += other.x; v.y += other.y; v.z += other.z; v.w += other.w;
    }
    if (tile.thread_rank() == 0) out[block.thread_rank() / 32] = v;
}
"""

GROUPS_HIP = """\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void reduce4(const float4* in, float4* out) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    float4 v = in[block.thread_rank()];
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) {
        float4 other = make_float4(tile.shfl_down(v.x, offset), tile.shfl_down(v.y, offset), tile.shfl_down(v.z, offset), tile.shfl_down(v.w, offset));
        v.x += other.x; v.y += other.y; v.z += other.z; v.w += other.w;
    }
    if (tile.thread_rank() == 0) out[block.thread_rank() / 32] = v;
}
"""


def test_cooperative_groups_vector_shuffles_and_num_threads_build_for_amd(tmp_path, hipcc):
    """A tile reduction of float4 values (samples and real kernels shuffle vectors through a tile): HIP's tile
    shuffles take scalars only (CPP012), and HIP has size() where CUDA 12 says num_threads() (CPP013). Without
    the two fixes the migrated kernel does not build."""
    got = migrate("groups.cu", GROUPS)
    assert got.data.decode() == GROUPS_HIP
    assert sorted((f.code, f.span.line) for f in got.findings if f.code in ("CPP012", "CPP013")) == [
        ("CPP012", 8), ("CPP013", 7)]
    assert_builds(hipcc, tmp_path / "groups.hip", got.data.decode())
    unfixed = GROUPS_HIP.replace("tile.size()", "tile.num_threads()")
    unit = tmp_path / "unfixed.hip"
    unit.write_text(unfixed)
    assert "num_threads" in hipcc_compile(hipcc, unit, [], tmp_path).stderr


def test_meta_group_rank_of_a_tile_of_the_block_builds_for_hip_5_2(tmp_path, hipcc):
    """HIP 5.2 has no meta_group_rank(): for a tile the file makes as tiled_partition<32>(block), CPP013 writes
    the block's thread rank divided by the tile size (cuda-samples' reduction)."""
    source = GROUPS.replace("out[block.thread_rank() / 32]", "out[tile.meta_group_rank()]")
    got = migrate("groups.cu", source)
    assert [(f.code, f.span.line, f.message) for f in got.findings if f.code == "CPP013"][1] == (
        "CPP013", 11, "cooperative groups' meta_group_rank() is not in HIP 5.2 (the first HIP inspected that has it "
                      "is 5.7): for a tile of the block, block.thread_rank() / tile.size(); or target HIP 5.7")
    assert got.data.decode() == GROUPS_HIP.replace("out[block.thread_rank() / 32]", "out[(block.thread_rank() / 32)]")
    assert_builds(hipcc, tmp_path / "meta.hip", got.data.decode())


LLMC = """\
#include <cuda_runtime.h>
__global__ void residual(float4* out, const float4* a, const float4* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 x = __ldcs(a + i), y = __ldcs(b + i);
    __stcs(out + i, make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w));
}
void overlap(cudaStream_t compute, cudaStream_t copy, cudaGraph_t graph) {
    cudaEvent_t done;
    cudaEventCreate(&done, cudaEventDisableTiming);
    cudaEventRecord(done, compute);
    cudaStreamWaitEvent(copy, done);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
}
"""

LLMC_HIP = """\
#include <hip/hip_runtime.h>
__global__ void residual(float4* out, const float4* a, const float4* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 x = *(a + i), y = *(b + i);
    *(out + i) = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}
void overlap(hipStream_t compute, hipStream_t copy, hipGraph_t graph) {
    hipEvent_t done;
    hipEventCreateWithFlags(&done, hipEventDisableTiming);
    hipEventRecord(done, compute);
    hipStreamWaitEvent(copy, done, 0);
    hipGraphExec_t exec;
    hipGraphInstantiateWithFlags(&exec, graph, 0);
}
"""


def test_llm_c_patterns_migrate_exactly_and_build_for_amd(tmp_path, hipcc):
    """Found by migrating karpathy/llm.c: cache-streaming loads and stores on float4 (CPP014), CUDA's C++
    overload cudaEventCreate(&e, flags), cudaStreamWaitEvent without flags and CUDA 12's three-argument
    cudaGraphInstantiate (CPP015). Each of them did not build for HIP 5.2 when only renamed."""
    got = migrate("llmc.cu", LLMC)
    assert got.data.decode() == LLMC_HIP
    assert sorted((f.code, f.span.line) for f in got.findings if f.code in ("CPP014", "CPP015")) == [
        ("CPP014", 5), ("CPP014", 6), ("CPP015", 10), ("CPP015", 12), ("CPP015", 14)]  # line 5: one finding, two edits
    assert_builds(hipcc, tmp_path / "llmc.hip", got.data.decode())


SPARSE = """\
#include <cusparse.h>
cusparseStatus_t dense(cusparseDnMatDescr_t* mat, float* values) {
    return cusparseCreateDnMat(mat, 4, 4, 4, values, CUDA_R_32F, CUSPARSE_ORDER_COL);
}
"""


def test_cusparse_column_order_builds_with_hipsparse_5_3(tmp_path, hipcc):
    """CUDALibrarySamples' spmm_csr: hipSPARSE before 5.7 names the order HIPSPARSE_ORDER_COLUMN."""
    got = migrate("sparse.cu", SPARSE)
    assert got.data.decode() == "#include <hip/hip_runtime.h>\n" + SPARSE.replace("cusparse.h", "hipsparse/hipsparse.h").replace(
        "cusparse", "hipsparse").replace("CUDA_R_32F", "HIP_R_32F").replace("CUSPARSE_ORDER_COL", "HIPSPARSE_ORDER_COLUMN")
    assert_builds(hipcc, tmp_path / "sparse.hip", got.data.decode())


BF16_STORES = """\
#include <cuda_bf16.h>
__global__ void scale(__nv_bfloat16* out, const float* in, float s) {
    __nv_bfloat16 zero = 0.f;
    out[threadIdx.x] = in[threadIdx.x] * s;
    out[threadIdx.x + blockDim.x] = zero;
}
"""


def test_floats_stored_into_bfloat16_build_for_hip_5_2(tmp_path, hipcc):
    """llm.c stores floats into __nv_bfloat16 with `=`; HIP 5.2's hip_bfloat16 converts only explicitly (CPP016)."""
    got = migrate("bf16.cu", BF16_STORES)
    assert got.data.decode() == "#include <hip/hip_runtime.h>\n" + BF16_STORES.replace("cuda_bf16.h", "hip/hip_bfloat16.h").replace(
        "__nv_bfloat16", "hip_bfloat16").replace("= 0.f", "= hip_bfloat16(0.f)").replace(
        "= in[threadIdx.x] * s", "= hip_bfloat16(in[threadIdx.x] * s)")
    assert [(f.code, f.span.line) for f in got.findings if f.code == "CPP016"] == [("CPP016", 3), ("CPP016", 4)]
    assert_builds(hipcc, tmp_path / "bf16.hip", got.data.decode())


def test_grid_constant_and_device_launch_parameters_build_for_amd(tmp_path, hipcc):
    """NVIDIA's LargeKernelParameter (__grid_constant__, CPP017) and device_launch_parameters.h (CPP001)."""
    source = ('#include <cuda_runtime.h>\n#include "device_launch_parameters.h"\nstruct Params { int v[256]; };\n'
              "__global__ void k(__grid_constant__ const Params p, int* o) { o[threadIdx.x] = p.v[threadIdx.x]; }\n")
    got = migrate("params.cu", source)
    assert got.data.decode() == ("#include <hip/hip_runtime.h>\nstruct Params { int v[256]; };\n"
                                 "__global__ void k(const Params p, int* o) { o[threadIdx.x] = p.v[threadIdx.x]; }\n")
    assert_builds(hipcc, tmp_path / "params.hip", got.data.decode())


HALF = """\
#include <cuda_fp16.h>
__global__ void reduce(__half* out, const __half* in) {
    __half h = in[threadIdx.x];
    for (int d = 16; d > 0; d /= 2) h += __shfl_down_sync(0xffffffff, h, d);
    if (threadIdx.x % 32 == 0) atomicAdd(out, h);
}
"""


def test_half_shuffles_and_atomics_are_reported_and_the_suggested_shuffle_builds(tmp_path, hipcc):
    """how-to-optim-algorithm-in-cuda's half kernels: HIP 5.2 has no __half shuffles, no HIP has atomicAdd on
    __half (CPP018). The shuffle CPP018 suggests builds with HIP 5.2."""
    got = migrate("half.cu", HALF)
    assert [(f.code, f.span.line, f.message.split(":")[0]) for f in got.findings if f.code == "CPP018"] == [
        ("CPP018", 4, "__shfl_down_sync on __half"), ("CPP018", 5, "atomicAdd on __half")]
    suggested = got.data.decode().replace("__shfl_down(h, d)", "__ushort_as_half((unsigned short)__shfl_down("
                                          "(int)__half_as_ushort(h), d))").replace("atomicAdd(out, h)", "*out = h")
    assert_builds(hipcc, tmp_path / "half.hip", suggested)


def test_bfloat16_through_cublas_builds_with_hipblas(tmp_path, hipcc):
    """llm.c's dev/cuda/common.h uses __nv_bfloat16 with only <cublas_v2.h> included (CUDA's cublas_api.h brings
    cuda_bf16.h; hipBLAS's header does not): CPP019 includes the HIP header."""
    source = ("#include <cuda_runtime.h>\n#include <cublas_v2.h>\ntypedef __nv_bfloat16 floatX;\n"
              "__global__ void k(floatX* p, float v) { p[threadIdx.x] = (floatX)v; }\n")
    got = migrate("common.cu", source)
    assert got.data.decode() == ("#include <hip/hip_runtime.h>\n#include <hipblas/hipblas.h>\n#include <hip/hip_bfloat16.h>\n"
                                 "typedef hip_bfloat16 floatX;\n"
                                 "__global__ void k(floatX* p, float v) { p[threadIdx.x] = (floatX)v; }\n")
    assert_builds(hipcc, tmp_path / "common.hip", got.data.decode())


def test_cuda_13_graph_edge_data_is_dropped_and_builds(tmp_path, hipcc):
    """CUDA 13's graph calls take edge data (CUDA 12.3's _v2 signatures became the defaults); HIP's graphs have
    none: CPP015 drops a null edge-data argument."""
    source = ("#include <cuda_runtime.h>\nvoid f(cudaGraph_t g, cudaGraphNode_t* a, cudaGraphNode_t* b, cudaGraphNode_t n) {\n"
              "  cudaGraphAddDependencies(g, a, b, nullptr, 1);\n  size_t c = 0;\n"
              "  cudaGraphNodeGetDependencies(n, a, NULL, &c);\n}\n")
    got = migrate("graph.cu", source)
    assert got.data.decode() == ("#include <hip/hip_runtime.h>\n"
                                 "void f(hipGraph_t g, hipGraphNode_t* a, hipGraphNode_t* b, hipGraphNode_t n) {\n"
                                 "  hipGraphAddDependencies(g, a, b, 1);\n  size_t c = 0;\n"
                                 "  hipGraphNodeGetDependencies(n, a, &c);\n}\n")
    assert [(f.code, f.span.line) for f in got.findings if f.code == "CPP015"] == [("CPP015", 3), ("CPP015", 5)]
    assert_builds(hipcc, tmp_path / "graph.hip", got.data.decode())
