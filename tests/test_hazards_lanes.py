"""Whole-kernel scenarios for the lane hazards (HAZ001, HAZ003, HAZ004, HAZ010): kernels written the CUDA way,
every hazard finding checked by code and line, and the exact text after --unsafe-fixes."""
import pytest

from migrate.cpp import wave_size
from migrate.cpp_engine import translate
from migrate.model import Applicability
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry

RULES = [r() for r in default_registry().cpp()]


def run(source: str, unsafe: bool):
    result = translate("kernel.cu", source.encode(), Options(unsafe_fixes=unsafe, hip_version="7.0"),
                       default_packs(), "7.0", RULES)
    hazards = sorted((f.span.line, f.code) for f in result.findings if f.code.startswith("HAZ"))
    return result.data.decode(), hazards, result.findings


WARP_REDUCTION = """\
#include <cuda_runtime.h>

#define WARP_SIZE 32

__inline__ __device__ float warpReduceSum(float val) {
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__global__ void blockSum(const float* in, float* out, int n) {
    __shared__ float partial[WARP_SIZE];
    int tid = threadIdx.x;
    int lane = tid & 31;
    int warp = tid >> 5;
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        v += in[i];
    v = warpReduceSum(v);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (tid < blockDim.x / WARP_SIZE) ? partial[lane] : 0.0f;
        v = warpReduceSum(v);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}

void launch(const float* in, float* out, int n, int blocks) {
    blockSum<<<blocks, 256>>>(in, out, n);
}
"""

# WARP_SIZE sizes shared memory, where HIP 7's warpSize (no constant) cannot: it becomes the per-target constant
# whose block goes at the top of the file (migrate/cpp/wave_size.py)
WARP_REDUCTION_UNSAFE = wave_size.block() + """\
#include <hip/hip_runtime.h>

#define WARP_SIZE HIPMIGRATE_WAVE_SIZE

__inline__ __device__ float warpReduceSum(float val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffffffffffffull, val, offset);
    return val;
}

__global__ void blockSum(const float* in, float* out, int n) {
    __shared__ float partial[WARP_SIZE];
    int tid = threadIdx.x;
    int lane = tid & (warpSize - 1);
    int warp = tid / warpSize;
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        v += in[i];
    v = warpReduceSum(v);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (tid < blockDim.x / WARP_SIZE) ? partial[lane] : 0.0f;
        v = warpReduceSum(v);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}

void launch(const float* in, float* out, int n, int blocks) {
    blockSum<<<blocks, 256>>>(in, out, n);
}
"""

COMPACTION = """\
__global__ void compact(const int* in, int* out, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    bool keep = i < n && in[i] > 0;
    unsigned mask = __ballot_sync(0xffffffff, keep);
    int total = __popc(mask);
    int before = __popc(mask & ((1u << lane) - 1));
    int leader = __ffs(mask) - 1;
    int base = 0;
    if (lane == leader)
        base = atomicAdd(count, total);
    __syncwarp();
    base = __shfl_sync(0xffffffff, base, leader);
    if (keep)
        out[base + before] = in[i];
}
"""

COMPACTION_UNSAFE = """\
#include <hip/hip_runtime.h>
__global__ void compact(const int* in, int* out, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    bool keep = i < n && in[i] > 0;
    unsigned long long mask = __ballot_sync(0xffffffffffffffffull, keep);
    int total = __popcll(mask);
    int before = __popcll(mask & ((1ull << lane) - 1));
    int leader = __ffsll((unsigned long long)mask) - 1;
    int base = 0;
    if (lane == leader)
        base = atomicAdd(count, total);
    __syncwarp();
    base = __shfl_sync(0xffffffffffffffffull, base, leader);
    if (keep)
        out[base + before] = in[i];
}
"""

# Only the SAFE parts by default: 64-bit counts and lane mask, 64-bit full masks; types and 32s stay.
COMPACTION_SAFE = """\
#include <hip/hip_runtime.h>
__global__ void compact(const int* in, int* out, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    bool keep = i < n && in[i] > 0;
    unsigned long long mask = __ballot_sync(0xffffffffffffffffull, keep);
    int total = __popcll(mask);
    int before = __popcll(mask & ((1ull << lane) - 1));
    int leader = __ffsll((unsigned long long)mask) - 1;
    int base = 0;
    if (lane == leader)
        base = atomicAdd(count, total);
    __syncwarp();
    base = __shfl_sync(0xffffffffffffffffull, base, leader);
    if (keep)
        out[base + before] = in[i];
}
"""

COOPERATIVE = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void relax(float* x, int n, int steps) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    for (int s = 0; s < steps; ++s) {
        x[grid.thread_rank()] *= 0.5f;
        grid.sync();
    }
    if (warp.thread_rank() == 0)
        x[0] += 1.0f;
}

__device__ int lock;

__global__ void guarded(int* counter) {
    auto tile = cg::tiled_partition(cg::this_thread_block(), 32);
    while (atomicCAS(&lock, 0, 1) != 0) {}
    *counter += tile.size();
    atomicExch(&lock, 0);
}

void run(float* x, int* c, int n) {
    relax<<<n / 256, 256>>>(x, n, 10);
    guarded<<<1, 64>>>(c);
}
"""


def test_warp_reduction_findings():
    _, hazards, findings = run(WARP_REDUCTION, unsafe=False)
    assert hazards == [(3, "HAZ001"), (6, "HAZ001"), (7, "HAZ002"), (14, "HAZ001"), (15, "HAZ001")]
    fixes = {f.span.line: f.fix.applicability for f in findings if f.code == "HAZ001"}
    assert set(fixes.values()) == {Applicability.UNSAFE}


def test_warp_reduction_default_changes_only_the_safe_mask():
    text, _, _ = run(WARP_REDUCTION, unsafe=False)
    assert text == WARP_REDUCTION.replace("<cuda_runtime.h>", "<hip/hip_runtime.h>").replace(
        "0xffffffff,", "0xffffffffffffffffull,")


def test_warp_reduction_unsafe_fixes():
    text, _, _ = run(WARP_REDUCTION, unsafe=True)
    assert text == WARP_REDUCTION_UNSAFE
    assert run(text, unsafe=True)[2] == run(text, unsafe=False)[2]  # nothing left to fix
    assert [h for h in run(text, unsafe=True)[1] if h[1] == "HAZ001"] == []


def test_compaction_findings():
    _, hazards, findings = run(COMPACTION, unsafe=False)
    assert hazards == [(3, "HAZ001"), (5, "HAZ002"), (5, "HAZ003"), (6, "HAZ003"), (7, "HAZ003"), (7, "HAZ003"),
                       (8, "HAZ003"), (12, "HAZ004"), (13, "HAZ002")]
    by_line = {(f.span.line, f.message.split(" ")[0]): f for f in findings if f.code == "HAZ003"}
    # every use of mask is as a lane mask (counts, a bitwise combination): widening it is safe
    assert by_line[(5, "'mask'")].fix.applicability is Applicability.SAFE
    assert by_line[(7, "'1u")].fix.applicability is Applicability.SAFE  # combined with the ballot result
    assert by_line[(6, "__popc")].fix.applicability is Applicability.SAFE


def test_compaction_default_fixes():
    text, _, _ = run(COMPACTION, unsafe=False)
    assert text == COMPACTION_SAFE


def test_compaction_unsafe_fixes():
    text, _, _ = run(COMPACTION, unsafe=True)
    assert text == COMPACTION_UNSAFE
    again, hazards, _ = run(text, unsafe=True)
    assert again == text
    assert hazards == [(13, "HAZ004")]  # __syncwarp needs a person


def test_cooperative_groups_findings():
    text, hazards, findings = run(COOPERATIVE, unsafe=False)
    # line 6 declares and makes one tile: one finding (issue 20: it was reported twice)
    assert hazards == [(6, "HAZ010"), (18, "HAZ010"), (19, "HAZ004"), (25, "HAZ010")]
    launch = [f for f in findings if f.code == "HAZ010" and f.span.line == 25]
    assert launch[0].message.startswith("kernel 'relax' synchronises the whole grid")
    text, _, _ = run(COOPERATIVE, unsafe=True)
    assert "cg::tiled_partition(cg::this_thread_block(), warpSize);" in text
    assert "cg::tiled_partition<32>" in text  # a template size is left to a person


@pytest.mark.parametrize("source", [
    "__global__ void k(int* o, int count) { o[0] = count / 32; o[1] = sizeof(int) * 32; }",
    "__global__ void k(float* o) { __shared__ float t[32][33]; t[threadIdx.y][threadIdx.x] = o[0]; }",
    "__global__ void k(int* o) { int lane = threadIdx.x % warpSize; o[lane] = __popcll(__ballot_sync(~0ull, 1)); }",
])
def test_no_lane_hazards(source):
    assert run(source, unsafe=True)[1] == []
