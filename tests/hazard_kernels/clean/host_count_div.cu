// Host-side chunking: count / 32 groups work items, nothing to do with lanes.
#include <cuda_runtime.h>

__global__ void processChunk(float* d, int first, int count)
{
    int i = first + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < first + count)
        d[i] = d[i] * 0.5f + 1.0f;
}

void processAll(float* d, int count)
{
    int chunks = count / 32;
    int chunk = chunks > 0 ? count / chunks : count;
    for (int first = 0; first < count; first += chunk)
        processChunk<<<(chunk + 127) / 128, 128>>>(d, first, count - first < chunk ? count - first : chunk);
}
