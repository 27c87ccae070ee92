// expect: HAZ008 6
// A 128 KiB shared tile: more LDS than a CDNA workgroup has.
#include <cuda_runtime.h>

__global__ void bigTile(const float* in, float* out) {
    __shared__ float tile[128][256];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 256 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 256 + threadIdx.x] = tile[threadIdx.x % 128][threadIdx.y];
}
