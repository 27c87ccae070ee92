// LayerNorm forward in bfloat16, one 32-thread tile per row, the way transformer training code writes it:
// each tile reduces the row's sum and sum of squares with cooperative groups' cg::reduce, then writes
// (x - mean) * rstd * weight + bias back in bf16, and the mean and rstd in fp32 for the backward pass.
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#ifndef HIPMIGRATE_CG_COLLECTIVES
#define HIPMIGRATE_CG_COLLECTIVES
#include <type_traits>
// cooperative_groups/reduce.h and scan.h have no HIP counterpart: hipmigrate wrote these in their place.
// They shuffle by the group's own rank and size, so they hold for 64-lane (CDNA) and 32-lane (RDNA) wavefronts;
// calls inside are qualified, so that no cooperative_groups function of the same name is found by its arguments.
namespace hipmigrate_cg {
template <class T> struct plus { __device__ T operator()(const T& a, const T& b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <class T> struct greater { __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(const T& a, const T& b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(const T& a, const T& b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(const T& a, const T& b) const { return a ^ b; } };
template <bool Arithmetic> struct shuffle;
template <> struct shuffle<true> {
    template <class Group, class T> __device__ static T down(const Group& g, const T& v, unsigned int d) { return g.shfl_down(v, d); }
    template <class Group, class T> __device__ static T up(const Group& g, const T& v, unsigned int d) { return g.shfl_up(v, d); }
    template <class Group, class T> __device__ static T from(const Group& g, const T& v, unsigned int r) { return g.shfl(v, r); }
};
template <> struct shuffle<false> {  // any trivially copyable T, one 32-bit word at a time
    template <class T, class Move> __device__ static T words(const T& v, Move move) {
        unsigned int w[(sizeof(T) + 3) / 4] = {};
        __builtin_memcpy(w, &v, sizeof(T));
        for (unsigned int i = 0; i < (sizeof(T) + 3) / 4; ++i) w[i] = move(w[i]);
        T out = v;
        __builtin_memcpy(&out, w, sizeof(T));
        return out;
    }
    template <class Group, class T> __device__ static T down(const Group& g, const T& v, unsigned int d) {
        return words(v, [&](unsigned int x) { return g.shfl_down(x, d); });
    }
    template <class Group, class T> __device__ static T up(const Group& g, const T& v, unsigned int d) {
        return words(v, [&](unsigned int x) { return g.shfl_up(x, d); });
    }
    template <class Group, class T> __device__ static T from(const Group& g, const T& v, unsigned int r) {
        return words(v, [&](unsigned int x) { return g.shfl(x, r); });
    }
};
template <class Group, class T, class Op>
__device__ T reduce(const Group& group, T value, Op op) {
    const unsigned int rank = group.thread_rank(), size = group.size();
    for (unsigned int offset = 1; offset < size; offset *= 2) {
        T other = hipmigrate_cg::shuffle<std::is_arithmetic<T>::value>::down(group, value, offset);
        if (rank + offset < size) value = op(value, other);
    }
    return hipmigrate_cg::shuffle<std::is_arithmetic<T>::value>::from(group, value, 0);
}
template <class Group, class T, class Op>
__device__ T inclusive_scan(const Group& group, T value, Op op) {
    const unsigned int rank = group.thread_rank(), size = group.size();
    for (unsigned int offset = 1; offset < size; offset *= 2) {
        T other = hipmigrate_cg::shuffle<std::is_arithmetic<T>::value>::up(group, value, offset);
        if (rank >= offset) value = op(other, value);
    }
    return value;
}
template <class Group, class T>
__device__ T inclusive_scan(const Group& group, T value) { return hipmigrate_cg::inclusive_scan(group, value, hipmigrate_cg::plus<T>()); }
template <class Group, class T, class Op>
__device__ T exclusive_scan(const Group& group, T value, Op op) {
    T below = hipmigrate_cg::shuffle<std::is_arithmetic<T>::value>::up(group, hipmigrate_cg::inclusive_scan(group, value, op), 1);
    return group.thread_rank() == 0 ? T() : below;
}
template <class Group, class T>
__device__ T exclusive_scan(const Group& group, T value) { return hipmigrate_cg::exclusive_scan(group, value, hipmigrate_cg::plus<T>()); }
}  // namespace hipmigrate_cg
#endif  // HIPMIGRATE_CG_COLLECTIVES
#include <hip/hip_bf16.h>
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        hipError_t err_ = (call);                                                           \
        if (err_ != hipSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, hipGetErrorString(err_));    \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

constexpr int ROWS = 4096;
constexpr int COLS = 768;
constexpr int TILE = 32;
constexpr int BLOCK = 256;  // 8 rows per block

__global__ void layernorm_forward(__hip_bfloat16* out, float* mean, float* rstd, const __hip_bfloat16* inp,
                                  const __hip_bfloat16* weight, const __hip_bfloat16* bias, int rows, int cols) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    int row = blockIdx.x * (blockDim.x / TILE) + tile.meta_group_rank();
    if (row >= rows) {
        return;
    }
    const __hip_bfloat16* x = inp + static_cast<size_t>(row) * cols;

    float sum = 0.0f;
    for (int i = tile.thread_rank(); i < cols; i += tile.size()) {
        sum += __bfloat162float(x[i]);
    }
    sum = hipmigrate_cg::reduce(tile, sum, hipmigrate_cg::plus<float>());
    float m = sum / cols;

    float sq = 0.0f;
    for (int i = tile.thread_rank(); i < cols; i += tile.size()) {
        float d = __bfloat162float(x[i]) - m;
        sq += d * d;
    }
    sq = hipmigrate_cg::reduce(tile, sq, hipmigrate_cg::plus<float>());
    float s = rsqrtf(sq / cols + 1e-5f);

    __hip_bfloat16* o = out + static_cast<size_t>(row) * cols;
    for (int i = tile.thread_rank(); i < cols; i += tile.size()) {
        float n = (__bfloat162float(x[i]) - m) * s;
        o[i] = __float2bfloat16(n * __bfloat162float(weight[i]) + __bfloat162float(bias[i]));
    }
    if (tile.thread_rank() == 0) {
        mean[row] = m;
        rstd[row] = s;
    }
}

static float bf16_to_float(__hip_bfloat16 v) { return __bfloat162float(v); }

int main() {
    const size_t n = static_cast<size_t>(ROWS) * COLS;
    std::vector<__hip_bfloat16> h_inp(n), h_w(COLS), h_b(COLS), h_out(n);
    unsigned int seed = 2024u;
    auto uniform = [&seed]() {  // fixed-seed LCG in [-1, 1)
        seed = seed * 1664525u + 1013904223u;
        return static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;
    };
    for (size_t i = 0; i < n; ++i) h_inp[i] = __float2bfloat16(3.0f * uniform() + 0.5f);
    for (int i = 0; i < COLS; ++i) {
        h_w[i] = __float2bfloat16(1.0f + 0.1f * uniform());
        h_b[i] = __float2bfloat16(0.1f * uniform());
    }

    __hip_bfloat16 *d_inp, *d_w, *d_b, *d_out;
    float *d_mean, *d_rstd;
    CUDA_CHECK(hipMalloc(&d_inp, n * sizeof(__hip_bfloat16)));
    CUDA_CHECK(hipMalloc(&d_out, n * sizeof(__hip_bfloat16)));
    CUDA_CHECK(hipMalloc(&d_w, COLS * sizeof(__hip_bfloat16)));
    CUDA_CHECK(hipMalloc(&d_b, COLS * sizeof(__hip_bfloat16)));
    CUDA_CHECK(hipMalloc(&d_mean, ROWS * sizeof(float)));
    CUDA_CHECK(hipMalloc(&d_rstd, ROWS * sizeof(float)));
    CUDA_CHECK(hipMemcpy(d_inp, h_inp.data(), n * sizeof(__hip_bfloat16), hipMemcpyHostToDevice));
    CUDA_CHECK(hipMemcpy(d_w, h_w.data(), COLS * sizeof(__hip_bfloat16), hipMemcpyHostToDevice));
    CUDA_CHECK(hipMemcpy(d_b, h_b.data(), COLS * sizeof(__hip_bfloat16), hipMemcpyHostToDevice));

    const int blocks = (ROWS * TILE + BLOCK - 1) / BLOCK;
    hipEvent_t start, stop;
    CUDA_CHECK(hipEventCreate(&start));
    CUDA_CHECK(hipEventCreate(&stop));
    layernorm_forward<<<blocks, BLOCK>>>(d_out, d_mean, d_rstd, d_inp, d_w, d_b, ROWS, COLS);  // warm-up
    CUDA_CHECK(hipEventRecord(start));
    for (int r = 0; r < 20; ++r) {
        layernorm_forward<<<blocks, BLOCK>>>(d_out, d_mean, d_rstd, d_inp, d_w, d_b, ROWS, COLS);
    }
    CUDA_CHECK(hipEventRecord(stop));
    CUDA_CHECK(hipGetLastError());
    CUDA_CHECK(hipEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(hipEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(hipMemcpy(h_out.data(), d_out, n * sizeof(__hip_bfloat16), hipMemcpyDeviceToHost));

    // CPU reference in double from the same bf16 inputs; the GPU output is bf16 (8 bits of mantissa)
    double max_err = 0.0;
    for (int r = 0; r < ROWS; ++r) {
        double sum = 0.0, sq = 0.0;
        for (int c = 0; c < COLS; ++c) sum += bf16_to_float(h_inp[static_cast<size_t>(r) * COLS + c]);
        double m = sum / COLS;
        for (int c = 0; c < COLS; ++c) {
            double d = bf16_to_float(h_inp[static_cast<size_t>(r) * COLS + c]) - m;
            sq += d * d;
        }
        double s = 1.0 / std::sqrt(sq / COLS + 1e-5);
        for (int c = 0; c < COLS; ++c) {
            size_t i = static_cast<size_t>(r) * COLS + c;
            double want = (bf16_to_float(h_inp[i]) - m) * s * bf16_to_float(h_w[c]) + bf16_to_float(h_b[c]);
            double err = std::fabs(want - bf16_to_float(h_out[i]));
            if (err > max_err) max_err = err;
        }
    }
    printf("layernorm_forward: rows=%d cols=%d time_per_call_ms=%.4f max_abs_err=%.5f\n", ROWS, COLS, ms / 20, max_err);
    bool ok = max_err < 0.05;  // bf16 output: about 3 significant digits of values up to ~5
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
