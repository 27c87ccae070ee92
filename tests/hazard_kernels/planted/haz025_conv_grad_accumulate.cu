// expect: HAZ025 12
// A weight gradient accumulated over micro-batches with beta = 1, as cuDNN allows and MIOpen's 2-d convolutions do not.
#include <cudnn.h>

void accumulateWeightGradient(cudnnHandle_t handle, cudnnTensorDescriptor_t xDesc, const float* x,
                              cudnnTensorDescriptor_t dyDesc, const float* dy, cudnnConvolutionDescriptor_t convDesc,
                              cudnnFilterDescriptor_t dwDesc, float* dw, cudnnConvolutionBwdFilterAlgo_t algo,
                              void* workspace, size_t workspaceBytes)
{
    const float one = 1.0f;
    const float keep = 1.0f;  // dw += gradient of this micro-batch
    cudnnConvolutionBackwardFilter(handle, &one, xDesc, x, dyDesc, dy, convDesc, algo, workspace, workspaceBytes,
                                   &keep, dwDesc, dw);
}
