// Fused Adam step over one flat parameter buffer: the moments and the parameter updated in one pass.
#include <hip/hip_runtime.h>
#include <algorithm>
#include <cstdint>

__global__ void adam_step_kernel(float* __restrict__ param, const float* __restrict__ grad, float* __restrict__ exp_avg,
                                 float* __restrict__ exp_avg_sq, int64_t n, float lr, float beta1, float beta2,
                                 float eps, float weight_decay, float bias_correction1, float bias_correction2) {
    const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
    for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
        const float g = grad[i] + weight_decay * param[i];
        const float m = beta1 * exp_avg[i] + (1.f - beta1) * g;
        const float v = beta2 * exp_avg_sq[i] + (1.f - beta2) * g * g;
        exp_avg[i] = m;
        exp_avg_sq[i] = v;
        const float denom = sqrtf(v / bias_correction2) + eps;
        param[i] -= lr * (m / bias_correction1) / denom;
    }
}

hipError_t adam_step(float* param, const float* grad, float* exp_avg, float* exp_avg_sq, int64_t n, float lr,
                      float beta1, float beta2, float eps, float weight_decay, int64_t step, hipStream_t stream) {
    if (n == 0) {
        return hipSuccess;
    }
    const float bias_correction1 = 1.f - powf(beta1, static_cast<float>(step));
    const float bias_correction2 = 1.f - powf(beta2, static_cast<float>(step));
    const int threads = 512;
    const int blocks = static_cast<int>(std::min<int64_t>((n + threads - 1) / threads, 8192));
    adam_step_kernel<<<blocks, threads, 0, stream>>>(param, grad, exp_avg, exp_avg_sq, n, lr, beta1, beta2, eps,
                                                     weight_decay, bias_correction1, bias_correction2);
    return hipGetLastError();
}
