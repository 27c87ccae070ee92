// expect: HAZ006 6
// A code path chosen by compute capability at compile time.
#include <cuda_runtime.h>

__device__ float fastExp(float x) {
#if __CUDA_ARCH__ >= 800
    return __expf(x);
#else
    return expf(x);
#endif
}
