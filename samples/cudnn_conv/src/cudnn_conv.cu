// cudnn_conv: one convolution layer's forward pass and both backward passes (data and filter) with cuDNN, in
// float, each with an algorithm chosen by cuDNN and a workspace sized for it, checked against a CPU reference.
//
// The three ways cuDNN code picks algorithms are all here: heuristics (cudnnGetConvolution*Algorithm_v7) for the
// forward pass; heuristics to size a workspace, then a measured search on the caller's buffers
// (cudnnFindConvolutionBackwardDataAlgorithmEx) for the data gradient; a measured search on buffers cuDNN
// allocates (cudnnFindConvolutionBackwardFilterAlgorithm) for the filter gradient.
#include <cuda_runtime.h>
#include <cudnn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "conv_reference.h"

#define CHECK_CUDA(call)                                                                              \
    do {                                                                                              \
        cudaError_t err_ = (call);                                                                    \
        if (err_ != cudaSuccess) {                                                                    \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));        \
            std::exit(1);                                                                             \
        }                                                                                             \
    } while (0)

#define CHECK_CUDNN(call)                                                                             \
    do {                                                                                              \
        cudnnStatus_t status_ = (call);                                                               \
        if (status_ != CUDNN_STATUS_SUCCESS) {                                                        \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudnnGetErrorString(status_));    \
            std::exit(1);                                                                             \
        }                                                                                             \
    } while (0)

// Deterministic inputs in [-1, 1).
static void fill(std::vector<float>& v, unsigned seed) {
    unsigned state = seed;
    for (float& e : v) {
        state = state * 1664525u + 1013904223u;
        e = float(state >> 8) / float(1u << 24) * 2.0f - 1.0f;
    }
}

static float* to_device(const std::vector<float>& host) {
    float* device = nullptr;
    CHECK_CUDA(cudaMalloc(&device, host.size() * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(device, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    return device;
}

static std::vector<float> to_host(const float* device, size_t count) {
    std::vector<float> host(count);
    CHECK_CUDA(cudaMemcpy(host.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost));
    return host;
}

// The largest |got - want| relative to 1 + |want|.
static double error_of(const std::vector<float>& got, const std::vector<double>& want) {
    double worst = 0.0;
    for (size_t i = 0; i < want.size(); ++i) {
        double e = std::fabs(double(got[i]) - want[i]) / (1.0 + std::fabs(want[i]));
        if (std::isnan(e) || (e > worst && !std::isnan(worst))) worst = e;  // a NaN, once seen, stays
    }
    return worst;
}

int main() {
    const ConvShape sh{2, 3, 10, 10, 4, 3, 3, /*pad=*/1, /*stride=*/2, /*dilation=*/1};
    std::vector<float> x(sh.x_size()), w(sh.w_size()), dy(sh.y_size());
    fill(x, 1u);
    fill(w, 2u);
    fill(dy, 3u);

    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    cudnnHandle_t handle;
    CHECK_CUDNN(cudnnCreate(&handle));
    CHECK_CUDNN(cudnnSetStream(handle, stream));

    cudnnTensorDescriptor_t xDesc, yDesc;
    cudnnFilterDescriptor_t wDesc;
    cudnnConvolutionDescriptor_t convDesc;
    CHECK_CUDNN(cudnnCreateTensorDescriptor(&xDesc));
    CHECK_CUDNN(cudnnCreateTensorDescriptor(&yDesc));
    CHECK_CUDNN(cudnnCreateFilterDescriptor(&wDesc));
    CHECK_CUDNN(cudnnCreateConvolutionDescriptor(&convDesc));
    CHECK_CUDNN(cudnnSetTensor4dDescriptor(xDesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, sh.n, sh.c, sh.h, sh.w));
    CHECK_CUDNN(cudnnSetFilter4dDescriptor(wDesc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, sh.k, sh.c, sh.r, sh.s));
    CHECK_CUDNN(cudnnSetConvolution2dDescriptor(convDesc, sh.pad, sh.pad, sh.stride, sh.stride, sh.dilation,
                                                sh.dilation, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    // full fp32 arithmetic (no TF32), so that the check below can be tight
    CHECK_CUDNN(cudnnSetConvolutionMathType(convDesc, CUDNN_FMA_MATH));

    int outN = 0, outC = 0, outH = 0, outW = 0;
    CHECK_CUDNN(cudnnGetConvolution2dForwardOutputDim(convDesc, xDesc, wDesc, &outN, &outC, &outH, &outW));
    if (outN != sh.n || outC != sh.k || outH != sh.out_h() || outW != sh.out_w()) {
        std::printf("output shape %dx%dx%dx%d, expected %dx%dx%dx%d\nFAILED\n", outN, outC, outH, outW, sh.n, sh.k,
                    sh.out_h(), sh.out_w());
        return 1;
    }
    CHECK_CUDNN(cudnnSetTensor4dDescriptor(yDesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, outN, outC, outH, outW));

    float* dX = to_device(x);
    float* dW = to_device(w);
    float* dDy = to_device(dy);
    float *dY = nullptr, *dDx = nullptr, *dDw = nullptr;
    CHECK_CUDA(cudaMalloc(&dY, sh.y_size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dDx, sh.x_size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dDw, sh.w_size() * sizeof(float)));
    const float alpha = 1.0f, beta = 0.0f;
    int returned = 0;

    // Forward: the first algorithm the heuristics rank that cuDNN supports here.
    int maxForward = 0;
    CHECK_CUDNN(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &maxForward));
    std::vector<cudnnConvolutionFwdAlgoPerf_t> forwardPerf(maxForward);
    CHECK_CUDNN(cudnnGetConvolutionForwardAlgorithm_v7(handle, xDesc, wDesc, convDesc, yDesc, maxForward, &returned,
                                                       forwardPerf.data()));
    int forwardChoice = -1;
    for (int i = 0; i < returned && forwardChoice < 0; ++i)
        if (forwardPerf[i].status == CUDNN_STATUS_SUCCESS) forwardChoice = i;
    if (forwardChoice < 0) {
        std::printf("no forward algorithm\nFAILED\n");
        return 1;
    }
    cudnnConvolutionFwdAlgo_t forwardAlgo = forwardPerf[forwardChoice].algo;
    size_t forwardBytes = 0;
    CHECK_CUDNN(cudnnGetConvolutionForwardWorkspaceSize(handle, xDesc, wDesc, convDesc, yDesc, forwardAlgo,
                                                        &forwardBytes));
    void* forwardWorkspace = nullptr;
    if (forwardBytes > 0) CHECK_CUDA(cudaMalloc(&forwardWorkspace, forwardBytes));
    CHECK_CUDNN(cudnnConvolutionForward(handle, &alpha, xDesc, dX, wDesc, dW, convDesc, forwardAlgo,
                                        forwardWorkspace, forwardBytes, &beta, yDesc, dY));

    // Backward data: a workspace as large as the heuristics' candidates need, then a measured search with it.
    int maxData = 0;
    CHECK_CUDNN(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &maxData));
    std::vector<cudnnConvolutionBwdDataAlgoPerf_t> dataCandidates(maxData), dataMeasured(maxData);
    CHECK_CUDNN(cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, wDesc, yDesc, convDesc, xDesc, maxData, &returned,
                                                            dataCandidates.data()));
    size_t dataBytes = 0;
    for (int i = 0; i < returned; ++i)
        if (dataCandidates[i].status == CUDNN_STATUS_SUCCESS && dataCandidates[i].memory > dataBytes)
            dataBytes = dataCandidates[i].memory;
    void* dataWorkspace = nullptr;
    if (dataBytes > 0) CHECK_CUDA(cudaMalloc(&dataWorkspace, dataBytes));
    CHECK_CUDNN(cudnnFindConvolutionBackwardDataAlgorithmEx(handle, wDesc, dW, yDesc, dDy, convDesc, xDesc, dDx, maxData,
                                                            &returned, dataMeasured.data(), dataWorkspace, dataBytes));
    int dataChoice = -1;
    for (int i = 0; i < returned && dataChoice < 0; ++i)
        if (dataMeasured[i].status == CUDNN_STATUS_SUCCESS && dataMeasured[i].memory <= dataBytes) dataChoice = i;
    if (dataChoice < 0) {
        std::printf("no backward data algorithm\nFAILED\n");
        return 1;
    }
    cudnnConvolutionBwdDataAlgo_t dataAlgo = dataMeasured[dataChoice].algo;
    CHECK_CUDNN(cudnnConvolutionBackwardData(handle, &alpha, wDesc, dW, yDesc, dDy, convDesc, dataAlgo, dataWorkspace,
                                             dataBytes, &beta, xDesc, dDx));

    // Backward filter: a measured search on buffers cuDNN allocates, then a workspace for the fastest algorithm.
    int maxFilter = 0;
    CHECK_CUDNN(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(handle, &maxFilter));
    std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> filterPerf(maxFilter);
    CHECK_CUDNN(cudnnFindConvolutionBackwardFilterAlgorithm(handle, xDesc, yDesc, convDesc, wDesc, maxFilter, &returned,
                                                            filterPerf.data()));
    int filterChoice = -1;
    for (int i = 0; i < returned && filterChoice < 0; ++i)
        if (filterPerf[i].status == CUDNN_STATUS_SUCCESS) filterChoice = i;
    if (filterChoice < 0) {
        std::printf("no backward filter algorithm\nFAILED\n");
        return 1;
    }
    cudnnConvolutionBwdFilterAlgo_t filterAlgo = filterPerf[filterChoice].algo;
    size_t filterBytes = 0;
    CHECK_CUDNN(cudnnGetConvolutionBackwardFilterWorkspaceSize(handle, xDesc, yDesc, convDesc, wDesc, filterAlgo,
                                                               &filterBytes));
    void* filterWorkspace = nullptr;
    if (filterBytes > 0) CHECK_CUDA(cudaMalloc(&filterWorkspace, filterBytes));
    CHECK_CUDNN(cudnnConvolutionBackwardFilter(handle, &alpha, xDesc, dX, yDesc, dDy, convDesc, filterAlgo,
                                               filterWorkspace, filterBytes, &beta, wDesc, dDw));
    CHECK_CUDA(cudaStreamSynchronize(stream));

    const double forwardError = error_of(to_host(dY, sh.y_size()), reference_forward(sh, x, w));
    const double dataError = error_of(to_host(dDx, sh.x_size()), reference_backward_data(sh, dy, w));
    const double filterError = error_of(to_host(dDw, sh.w_size()), reference_backward_filter(sh, x, dy));
    std::printf("conv %dx%dx%dx%d * %dx%dx%dx%d pad=%d stride=%d -> %dx%dx%dx%d\n", sh.n, sh.c, sh.h, sh.w, sh.k,
                sh.c, sh.r, sh.s, sh.pad, sh.stride, outN, outC, outH, outW);
    std::printf("forward_err=%.3g backward_data_err=%.3g backward_filter_err=%.3g\n", forwardError, dataError,
                filterError);

    CHECK_CUDA(cudaFree(forwardWorkspace));
    CHECK_CUDA(cudaFree(dataWorkspace));
    CHECK_CUDA(cudaFree(filterWorkspace));
    CHECK_CUDA(cudaFree(dX));
    CHECK_CUDA(cudaFree(dW));
    CHECK_CUDA(cudaFree(dDy));
    CHECK_CUDA(cudaFree(dY));
    CHECK_CUDA(cudaFree(dDx));
    CHECK_CUDA(cudaFree(dDw));
    CHECK_CUDNN(cudnnDestroyConvolutionDescriptor(convDesc));
    CHECK_CUDNN(cudnnDestroyFilterDescriptor(wDesc));
    CHECK_CUDNN(cudnnDestroyTensorDescriptor(yDesc));
    CHECK_CUDNN(cudnnDestroyTensorDescriptor(xDesc));
    CHECK_CUDNN(cudnnDestroy(handle));
    CHECK_CUDA(cudaStreamDestroy(stream));

    const double tolerance = 1e-3;
    if (forwardError <= tolerance && dataError <= tolerance && filterError <= tolerance) {
        std::printf("PASSED\n");
        return 0;
    }
    std::printf("FAILED\n");
    return 1;
}
