// Sizes the launch from the device's own properties, including its warp size.
#include <cuda_runtime.h>

int blocksFor(int n, int device)
{
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    int threads = 8 * prop.warpSize;
    int perSm = prop.maxThreadsPerMultiProcessor / threads;
    int blocks = (n + threads - 1) / threads;
    int cap = prop.multiProcessorCount * perSm;
    return blocks < cap ? blocks : cap;
}
