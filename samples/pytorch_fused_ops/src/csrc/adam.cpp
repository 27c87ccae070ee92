// Python binding of the fused Adam step (one flat float32 buffer per parameter group).
#include <torch/extension.h>
#include <cuda_runtime.h>

cudaError_t adam_step(float* param, const float* grad, float* exp_avg, float* exp_avg_sq, int64_t n, float lr,
                      float beta1, float beta2, float eps, float weight_decay, int64_t step, cudaStream_t stream);

void fused_adam(torch::Tensor param, torch::Tensor grad, torch::Tensor exp_avg, torch::Tensor exp_avg_sq, double lr,
                double beta1, double beta2, double eps, double weight_decay, int64_t step, int64_t stream) {
    for (const auto& t : {param, grad, exp_avg, exp_avg_sq}) {
        TORCH_CHECK(t.is_cuda() && t.is_contiguous() && t.scalar_type() == torch::kFloat32,
                    "fused_adam: contiguous float32 CUDA tensors expected");
    }
#ifdef FUSED_OPS_FP8_STATE
    TORCH_CHECK(false, "fused_adam: the FP8 optimizer state is not built in this release");
#endif
    cudaError_t err = adam_step(param.data_ptr<float>(), grad.data_ptr<float>(), exp_avg.data_ptr<float>(),
                                exp_avg_sq.data_ptr<float>(), param.numel(), static_cast<float>(lr),
                                static_cast<float>(beta1), static_cast<float>(beta2), static_cast<float>(eps),
                                static_cast<float>(weight_decay), step, reinterpret_cast<cudaStream_t>(stream));
    TORCH_CHECK(err == cudaSuccess, "fused_adam failed: ", cudaGetErrorString(err));
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fused_adam", &fused_adam, "fused Adam step (CUDA)");
}
