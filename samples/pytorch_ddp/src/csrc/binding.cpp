// Python binding: the stream comes from Python as an integer handle (torch.cuda.current_stream().cuda_stream).
#include <torch/extension.h>
#include <cuda_runtime.h>

cudaError_t scale_bias_launch(const float* x, float* y, float a, float b, int64_t n, cudaStream_t stream);

torch::Tensor scale_bias(torch::Tensor x, double a, double b, int64_t stream) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    cudaError_t err = scale_bias_launch(xc.data_ptr<float>(), y.data_ptr<float>(), static_cast<float>(a),
                                        static_cast<float>(b), xc.numel(), reinterpret_cast<cudaStream_t>(stream));
    TORCH_CHECK(err == cudaSuccess, "scale_bias failed: ", cudaGetErrorString(err));
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scale_bias", &scale_bias, "y = a * x + b (CUDA)");
}
