// Bitonic sort of one block's keys in shared memory.
#include <cuda_runtime.h>

#define N 1024

__global__ void bitonicSort(int* keys)
{
    __shared__ int s[N];
    int tid = threadIdx.x;
    s[tid] = keys[blockIdx.x * N + tid];
    __syncthreads();
    for (int k = 2; k <= N; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int partner = tid ^ j;
            if (partner > tid) {
                bool up = (tid & k) == 0;
                if ((s[tid] > s[partner]) == up) {
                    int t = s[tid];
                    s[tid] = s[partner];
                    s[partner] = t;
                }
            }
            __syncthreads();
        }
    }
    keys[blockIdx.x * N + tid] = s[tid];
}
