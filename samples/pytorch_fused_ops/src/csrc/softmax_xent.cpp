// Python binding of the fused softmax cross-entropy loss (float32 logits, int64 labels).
#include <torch/extension.h>
#include <cuda_runtime.h>

cudaError_t softmax_xent_forward(const float* logits, const int64_t* labels, float* loss, int64_t rows,
                                 int64_t classes, cudaStream_t stream);

torch::Tensor softmax_xent(torch::Tensor logits, torch::Tensor labels, int64_t stream) {
    TORCH_CHECK(logits.is_cuda() && labels.is_cuda(), "softmax_xent: CUDA tensors expected");
    TORCH_CHECK(logits.dim() == 2 && labels.dim() == 1, "softmax_xent: logits [N, C] and labels [N] expected");
    auto lc = logits.contiguous();
    auto loss = torch::empty({lc.size(0)}, lc.options());
    cudaError_t err = softmax_xent_forward(lc.data_ptr<float>(), labels.contiguous().data_ptr<int64_t>(),
                                           loss.data_ptr<float>(), lc.size(0), lc.size(1),
                                           reinterpret_cast<cudaStream_t>(stream));
    TORCH_CHECK(err == cudaSuccess, "softmax_xent failed: ", cudaGetErrorString(err));
    return loss;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("softmax_xent", &softmax_xent, "fused softmax cross-entropy loss (CUDA)");
}
