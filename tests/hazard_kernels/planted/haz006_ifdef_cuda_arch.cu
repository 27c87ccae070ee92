// expect: HAZ006 5
// A device-only branch selected with #ifdef __CUDA_ARCH__.
#include <cuda_runtime.h>

#ifdef __CUDA_ARCH__
#define ON_DEVICE 1
#else
#define ON_DEVICE 0
#endif

__host__ __device__ int where() { return ON_DEVICE; }
