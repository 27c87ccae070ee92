// Python binding of the fused LayerNorm: the stream comes from Python as an integer handle.
#include <torch/extension.h>
#include <hip/hip_runtime.h>

hipError_t layernorm_forward(const float* x, const float* gamma, const float* beta, float* y, int64_t rows,
                              int64_t cols, float eps, hipStream_t stream);

torch::Tensor layernorm(torch::Tensor x, torch::Tensor gamma, torch::Tensor beta, double eps, int64_t stream) {
    TORCH_CHECK(x.is_cuda() && gamma.is_cuda() && beta.is_cuda(), "layernorm: CUDA tensors expected");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "layernorm: float32 expected");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t cols = xc.size(-1);
    const int64_t rows = xc.numel() / cols;
    hipError_t err = layernorm_forward(xc.data_ptr<float>(), gamma.contiguous().data_ptr<float>(),
                                        beta.contiguous().data_ptr<float>(), y.data_ptr<float>(), rows, cols,
                                        static_cast<float>(eps), reinterpret_cast<hipStream_t>(stream));
    TORCH_CHECK(err == hipSuccess, "layernorm failed: ", hipGetErrorString(err));
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("layernorm", &layernorm, "fused LayerNorm forward (CUDA)");
}
