// block_reduce.cu
// Sums N integers on the GPU: every warp reduces its values with
// __shfl_down_sync, warp results meet in shared memory, the first warp
// reduces those, and one thread per block adds the block's sum to the
// global total with atomicAdd. The total is compared with a CPU sum.
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

#define WARP_SIZE 32
#define BLOCK_SIZE 256
#define FULL_MASK 0xffffffff

__inline__ __device__ int warpReduceSum(int val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down(val, offset);
    return val;  // lane 0 holds the warp's sum
}

__global__ void reduceSum(const int* in, unsigned long long* total, int n)
{
    __shared__ int warpSums[BLOCK_SIZE / WARP_SIZE];
    int lane = threadIdx.x % WARP_SIZE;
    int warp = threadIdx.x / WARP_SIZE;

    // Grid-stride loop: each thread first adds up its own elements.
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];

    sum = warpReduceSum(sum);
    if (lane == 0)
        warpSums[warp] = sum;
    __syncthreads();

    if (warp == 0) {
        sum = (threadIdx.x < BLOCK_SIZE / WARP_SIZE) ? warpSums[lane] : 0;
        sum = warpReduceSum(sum);
        if (lane == 0)
            atomicAdd(total, (unsigned long long)sum);
    }
}

int main()
{
    const int N = (1 << 24) + 12345;   // not a multiple of the block size
    const int MAX_BLOCKS = 1024;

    // Values in [0, 1000): with 1024 blocks of 256 threads each block adds
    // at most 65 * 256 of them, so its int partial sums stay far below
    // 2^31; the grand total is accumulated in 64 bits.
    std::vector<int> h_in(N);
    unsigned int state = 7u;
    unsigned long long cpu_sum = 0;
    for (int i = 0; i < N; ++i) {
        state = state * 1103515245u + 12345u;
        h_in[i] = (int)((state >> 16) % 1000u);
        cpu_sum += (unsigned long long)h_in[i];
    }

    int* d_in = nullptr;
    unsigned long long* d_total = nullptr;
    CUDA_CHECK(hipMalloc((void**)&d_in, N * sizeof(int)));
    CUDA_CHECK(hipMalloc((void**)&d_total, sizeof(unsigned long long)));
    CUDA_CHECK(hipMemcpy(d_in, h_in.data(), N * sizeof(int), hipMemcpyHostToDevice));
    CUDA_CHECK(hipMemset(d_total, 0, sizeof(unsigned long long)));

    int blocks = (N + BLOCK_SIZE - 1) / BLOCK_SIZE;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    reduceSum<<<blocks, BLOCK_SIZE>>>(d_in, d_total, N);
    CUDA_CHECK(hipGetLastError());
    CUDA_CHECK(hipDeviceSynchronize());

    unsigned long long gpu_sum = 0;
    CUDA_CHECK(hipMemcpy(&gpu_sum, d_total, sizeof(unsigned long long), hipMemcpyDeviceToHost));
    CUDA_CHECK(hipFree(d_in));
    CUDA_CHECK(hipFree(d_total));

    bool ok = (gpu_sum == cpu_sum);   // integer sums: must match exactly
    printf("block_reduce: N=%d blocks=%d gpu_sum=%llu cpu_sum=%llu\n",
           N, blocks, gpu_sum, cpu_sum);
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
