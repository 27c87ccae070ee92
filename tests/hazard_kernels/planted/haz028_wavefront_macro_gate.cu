// expect: HAZ028 5
// HIP code that picks its lane-mask type from the compiler's wave-size macro.
#include <hip/hip_runtime.h>

#if __AMDGCN_WAVEFRONT_SIZE == 64
typedef unsigned long long LaneMask;
#else
typedef unsigned int LaneMask;
#endif

__global__ void activeLanes(LaneMask* out, const int* flags) {
    LaneMask mask = __ballot(flags[threadIdx.x]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = mask;
}
