// All-pairs gravity with bodies staged through shared memory in tiles of blockDim.x.
#include <cuda_runtime.h>

__global__ void accelerations(const float4* pos, float3* acc, int n)
{
    extern __shared__ float4 tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += blockDim.x) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
        for (int k = 0; k < blockDim.x; ++k) {
            float dx = tile[k].x - me.x, dy = tile[k].y - me.y, dz = tile[k].z - me.z;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-9f);
            float s = tile[k].w * inv * inv * inv;
            a.x += dx * s; a.y += dy * s; a.z += dz * s;
        }
        __syncthreads();
    }
    if (i < n)
        acc[i] = a;
}
