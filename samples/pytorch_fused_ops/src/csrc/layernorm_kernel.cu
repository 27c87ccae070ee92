// Fused LayerNorm forward: one block per row, the mean and variance reduced in shared memory.
#include <cuda_runtime.h>
#include <cstdint>

namespace {

constexpr int kThreads = 256;

__device__ float block_sum(float value, float* shared) {
    shared[threadIdx.x] = value;
    __syncthreads();
    for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
        if (threadIdx.x < offset) {
            shared[threadIdx.x] += shared[threadIdx.x + offset];
        }
        __syncthreads();
    }
    float total = shared[0];
    __syncthreads();
    return total;
}

__global__ void layernorm_forward_kernel(const float* __restrict__ x, const float* __restrict__ gamma,
                                         const float* __restrict__ beta, float* __restrict__ y, int64_t cols,
                                         float eps) {
    __shared__ float shared[kThreads];
    const float* row = x + blockIdx.x * cols;
    float* out = y + blockIdx.x * cols;

    float sum = 0.f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        sum += row[c];
    }
    const float mean = block_sum(sum, shared) / static_cast<float>(cols);

    float squares = 0.f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        const float d = row[c] - mean;
        squares += d * d;
    }
    const float rstd = rsqrtf(block_sum(squares, shared) / static_cast<float>(cols) + eps);

    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        out[c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
    }
}

}  // namespace

cudaError_t layernorm_forward(const float* x, const float* gamma, const float* beta, float* y, int64_t rows,
                              int64_t cols, float eps, cudaStream_t stream) {
    if (rows == 0) {
        return cudaSuccess;
    }
    layernorm_forward_kernel<<<static_cast<unsigned int>(rows), kThreads, 0, stream>>>(x, gamma, beta, y, cols, eps);
    return cudaGetLastError();
}
