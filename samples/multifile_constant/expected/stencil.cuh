// stencil.cuh: declarations shared by stencil_kernels.cu and main.cu.
#ifndef STENCIL_CUH
#define STENCIL_CUH

#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n",          \
                    __FILE__, __LINE__, #call, hipGetErrorString(err_));     \
            exit(EXIT_FAILURE);                                              \
        }                                                                    \
    } while (0)

#define RADIUS 4
#define NUM_COEFFS (2 * RADIUS + 1)
#define BLOCK_SIZE 256

// Input signal: small integers, the same formula on host and device.
__host__ __device__ inline float signal_value(int i)
{
    return (float)((i * 37 + 11) % 256);
}

// Clamp-to-edge boundary handling.
__host__ __device__ inline int clamp_index(int i, int n)
{
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

// Kernels, defined in stencil_kernels.cu and launched from main.cu.
__global__ void init_signal(float* out, int n);
__global__ void stencil_1d(const float* in, float* out, int n);

// Host helpers for the __constant__ coefficients (stencil_kernels.cu).
void upload_coefficients(const float* h_coeffs);
void download_coefficients(float* h_coeffs);

#endif  // STENCIL_CUH
