// Softmax cross-entropy loss per row, fused: the row's max and sum of exponentials reduced in shared memory.
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

namespace {

constexpr int kThreads = 256;

__device__ float block_reduce(float value, float* shared, bool take_max) {
    shared[threadIdx.x] = value;
    __syncthreads();
    for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
        if (threadIdx.x < offset) {
            const float other = shared[threadIdx.x + offset];
            shared[threadIdx.x] = take_max ? fmaxf(shared[threadIdx.x], other) : shared[threadIdx.x] + other;
        }
        __syncthreads();
    }
    float result = shared[0];
    __syncthreads();
    return result;
}

__global__ void softmax_xent_kernel(const float* __restrict__ logits, const int64_t* __restrict__ labels,
                                    float* __restrict__ loss, int64_t classes) {
    __shared__ float shared[kThreads];
    const float* row = logits + blockIdx.x * classes;

    float local_max = -FLT_MAX;
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x) {
        local_max = fmaxf(local_max, row[c]);
    }
    const float row_max = block_reduce(local_max, shared, true);

    float local_sum = 0.f;
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x) {
        local_sum += expf(row[c] - row_max);
    }
    const float row_sum = block_reduce(local_sum, shared, false);

    if (threadIdx.x == 0) {
        loss[blockIdx.x] = logf(row_sum) + row_max - row[labels[blockIdx.x]];
    }
}

}  // namespace

cudaError_t softmax_xent_forward(const float* logits, const int64_t* labels, float* loss, int64_t rows,
                                 int64_t classes, cudaStream_t stream) {
    if (rows == 0) {
        return cudaSuccess;
    }
    softmax_xent_kernel<<<static_cast<unsigned int>(rows), kThreads, 0, stream>>>(logits, labels, loss, classes);
    return cudaGetLastError();
}
