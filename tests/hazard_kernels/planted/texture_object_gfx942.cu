// expect: HAZ029 10
// Reads a layered cube map: HIP has textures on gfx90a and RDNA, not on gfx942 (the default target), and the
// software texture path (CPP053) has no layered cube maps.
#include <cuda_runtime.h>

__global__ void sample(cudaTextureObject_t tex, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = texCubemapLayered<float>(tex, 1.0f, 0.0f, 0.0f, i);
}

cudaTextureObject_t makeTexture(float* d, int n)
{
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = n * sizeof(float);
    cudaTextureDesc desc = {};
    desc.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &desc, nullptr);
    return tex;
}
