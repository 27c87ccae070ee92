// expect: HAZ027 7
// HIP 6 code that sized shared memory with warpSize, a constexpr int up to HIP 6.4.
#include <hip/hip_runtime.h>

__global__ void warpSums(const float* in, float* out) {
    int lane = threadIdx.x % warpSize;
    __shared__ float partial[warpSize];
    partial[lane] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}
