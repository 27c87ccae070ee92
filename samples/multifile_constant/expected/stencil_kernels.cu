// stencil_kernels.cu: the __constant__ coefficients and the kernels that
// read them live in this one file, so no relocatable device code is needed.
#include <hip/hip_runtime.h>
#include "stencil.cuh"

__constant__ float c_coeffs[NUM_COEFFS];

__global__ void init_signal(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = signal_value(i);
}

// out[i] = sum_k c_coeffs[k] * in[i + k - RADIUS], with the input tile and
// its halo staged in shared memory.
__global__ void stencil_1d(const float* in, float* out, int n)
{
    __shared__ float tile[BLOCK_SIZE + 2 * RADIUS];
    int gi = blockIdx.x * blockDim.x + threadIdx.x;
    int li = threadIdx.x + RADIUS;

    tile[li] = in[clamp_index(gi, n)];
    if (threadIdx.x < RADIUS) {
        tile[li - RADIUS] = in[clamp_index(gi - RADIUS, n)];
        tile[li + BLOCK_SIZE] = in[clamp_index(gi + BLOCK_SIZE, n)];
    }
    __syncthreads();

    if (gi < n) {
        float acc = 0.0f;
        for (int k = 0; k < NUM_COEFFS; ++k)
            acc += c_coeffs[k] * tile[li + k - RADIUS];
        out[gi] = acc;
    }
}

void upload_coefficients(const float* h_coeffs)
{
    CUDA_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(c_coeffs), h_coeffs, NUM_COEFFS * sizeof(float)));
}

void download_coefficients(float* h_coeffs)
{
    CUDA_CHECK(hipMemcpyFromSymbol(h_coeffs, HIP_SYMBOL(c_coeffs), NUM_COEFFS * sizeof(float)));
}
