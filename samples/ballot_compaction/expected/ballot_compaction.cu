// ballot_compaction.cu
// Stream compaction: keep the elements greater than a threshold, in their
// original order within each block. Each thread looks at one element; every
// warp votes with __ballot_sync, and a thread's slot inside its warp is the
// number of set bits below its lane (__popc of the masked ballot). Warp totals
// go to shared memory, the first warp turns them into exclusive offsets with
// a __shfl_up_sync scan, and one thread per block reserves the block's output
// range with a single atomicAdd. Blocks therefore land in the output in
// whatever order their atomics ran; each block records where it landed so the
// CPU check can compare every block's range exactly.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n",          \
                    __FILE__, __LINE__, #call, hipGetErrorString(err_));     \
            exit(EXIT_FAILURE);                                              \
        }                                                                    \
    } while (0)

#define BLOCK_SIZE 256

// out:        compacted values, one contiguous range per block
// counter:    running total of kept elements (the next free output slot)
// block_base: where each block's range starts in out
__global__ void compactGreater(const int* in, int n, int threshold,
                               int* out, int* counter, int* block_base)
{
    __shared__ int warpTotals[BLOCK_SIZE / 32];
    __shared__ int blockOffset;

    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x / 32;

    // Threads past the end still vote (with keep = false): the ballot needs
    // every lane of the full mask.
    int value = 0;
    bool keep = false;
    if (i < n) {
        value = in[i];
        keep = value > threshold;
    }

    unsigned long long mask = __ballot(keep);
    int inWarpOffset = __popcll(mask & ((1ull << lane) - 1));   // kept lanes below me
    if (lane == 0)
        warpTotals[warp] = __popcll(mask);
    __syncthreads();

    // The first warp scans the per-warp totals (inclusive Hillis-Steele scan
    // with offsets 1, 2, 4, 8, 16), stores the exclusive prefix back, and its
    // last lane, which holds the block total, reserves the block's range.
    if (warp == 0) {
        int numWarps = blockDim.x / 32;
        int own = (lane < numWarps) ? warpTotals[lane] : 0;
        int incl = own;
        for (int offset = 1; offset < 32; offset <<= 1) {
            int up = __shfl_up(incl, offset);
            if (lane >= offset)
                incl += up;
        }
        if (lane < numWarps)
            warpTotals[lane] = incl - own;
        if (lane == 31) {
            int base = atomicAdd(counter, incl);
            blockOffset = base;
            block_base[blockIdx.x] = base;
        }
    }
    __syncthreads();

    if (keep)
        out[blockOffset + warpTotals[warp] + inWarpOffset] = value;
}

int main()
{
    const int N = (1 << 22) + 4321;   // not a multiple of the block size
    const int THRESHOLD = 700000;     // keeps about 30% of values in [0, 1000000)
    const int blocks = (N + BLOCK_SIZE - 1) / BLOCK_SIZE;

    // Fixed-seed LCG so every run and every platform sees the same input.
    std::vector<int> h_in(N);
    unsigned int state = 20261129u;
    for (int i = 0; i < N; ++i) {
        state = state * 1664525u + 1013904223u;
        h_in[i] = (int)((state >> 8) % 1000000u);
    }

    // CPU reference: the order-preserving compaction of the whole array, and
    // where each block's kept elements start in it.
    std::vector<int> cpu_out;
    std::vector<int> cpu_block_start(blocks + 1, 0);
    cpu_out.reserve(N);
    for (int b = 0; b < blocks; ++b) {
        cpu_block_start[b] = (int)cpu_out.size();
        int end = std::min(N, (b + 1) * BLOCK_SIZE);
        for (int i = b * BLOCK_SIZE; i < end; ++i)
            if (h_in[i] > THRESHOLD)
                cpu_out.push_back(h_in[i]);
    }
    cpu_block_start[blocks] = (int)cpu_out.size();
    const int cpu_count = (int)cpu_out.size();

    int *d_in, *d_out, *d_counter, *d_block_base;
    CUDA_CHECK(hipMalloc((void**)&d_in, N * sizeof(int)));
    CUDA_CHECK(hipMalloc((void**)&d_out, N * sizeof(int)));
    CUDA_CHECK(hipMalloc((void**)&d_counter, sizeof(int)));
    CUDA_CHECK(hipMalloc((void**)&d_block_base, blocks * sizeof(int)));
    CUDA_CHECK(hipMemcpy(d_in, h_in.data(), N * sizeof(int), hipMemcpyHostToDevice));
    CUDA_CHECK(hipMemset(d_counter, 0, sizeof(int)));
    CUDA_CHECK(hipMemset(d_out, 0xff, N * sizeof(int)));   // -1: never a kept value

    compactGreater<<<blocks, BLOCK_SIZE>>>(d_in, N, THRESHOLD, d_out, d_counter, d_block_base);
    CUDA_CHECK(hipGetLastError());
    CUDA_CHECK(hipDeviceSynchronize());

    int gpu_count = 0;
    CUDA_CHECK(hipMemcpy(&gpu_count, d_counter, sizeof(int), hipMemcpyDeviceToHost));
    std::vector<int> h_out(N);
    std::vector<int> h_block_base(blocks);
    CUDA_CHECK(hipMemcpy(h_out.data(), d_out, N * sizeof(int), hipMemcpyDeviceToHost));
    CUDA_CHECK(hipMemcpy(h_block_base.data(), d_block_base, blocks * sizeof(int),
                          hipMemcpyDeviceToHost));

    bool ok = (gpu_count == cpu_count);

    // Check 1: the block ranges tile [0, gpu_count) with no gap or overlap.
    // Sort the blocks by their recorded base; each must start where the
    // previous one ended, with the CPU's count for that block.
    std::vector<int> order(blocks);
    for (int b = 0; b < blocks; ++b)
        order[b] = b;
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return h_block_base[a] < h_block_base[b]; });
    int bad_ranges = 0;
    int expect = 0;
    for (int k = 0; k < blocks; ++k) {
        int b = order[k];
        if (h_block_base[b] != expect)
            ++bad_ranges;
        expect = h_block_base[b] + (cpu_block_start[b + 1] - cpu_block_start[b]);
    }
    if (expect != cpu_count)
        ++bad_ranges;

    // Check 2: inside each block's range, the values and their order are
    // exactly the CPU's compaction of that block's input.
    long long order_mismatches = 0;
    for (int b = 0; b < blocks; ++b) {
        int count = cpu_block_start[b + 1] - cpu_block_start[b];
        int base = h_block_base[b];
        if (base < 0 || base + count > N) {
            order_mismatches += count;
            continue;
        }
        for (int k = 0; k < count; ++k)
            if (h_out[base + k] != cpu_out[cpu_block_start[b] + k])
                ++order_mismatches;
    }
    ok = ok && bad_ranges == 0 && order_mismatches == 0;

    printf("ballot_compaction: N=%d threshold=%d blocks=%d gpu_count=%d cpu_count=%d "
           "bad_ranges=%d order_mismatches=%lld\n",
           N, THRESHOLD, blocks, gpu_count, cpu_count, bad_ranges, order_mismatches);

    CUDA_CHECK(hipFree(d_in));
    CUDA_CHECK(hipFree(d_out));
    CUDA_CHECK(hipFree(d_counter));
    CUDA_CHECK(hipFree(d_block_base));

    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
