// Work-efficient (Blelloch) exclusive scan of one block's elements in shared memory.
#include <cuda_runtime.h>

__global__ void blockScan(const int* in, int* out, int n)
{
    extern __shared__ int temp[];
    int tid = threadIdx.x;
    int offset = 1;
    temp[2 * tid] = 2 * tid < n ? in[2 * tid] : 0;
    temp[2 * tid + 1] = 2 * tid + 1 < n ? in[2 * tid + 1] : 0;
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (tid == 0)
        temp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (2 * tid < n) out[2 * tid] = temp[2 * tid];
    if (2 * tid + 1 < n) out[2 * tid + 1] = temp[2 * tid + 1];
}
