// expect: HAZ007 8
// Host code picking a path by the CUDA compute capability.
#include <cuda_runtime.h>

bool useTensorCores(int device) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    return prop.major >= 7;
}
