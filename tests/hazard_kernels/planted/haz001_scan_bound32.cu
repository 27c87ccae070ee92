// expect: HAZ001 7
// An inclusive warp scan whose loop stops at 32.
#include <cuda_runtime.h>

__device__ int scan(int v) {
    int lane = threadIdx.x % warpSize;
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(~0ull, v, d);
        if (lane >= d)
            v += up;
    }
    return v;
}
