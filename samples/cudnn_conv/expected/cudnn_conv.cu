// cudnn_conv: one convolution layer's forward pass and both backward passes (data and filter) with cuDNN, in
// float, each with an algorithm chosen by cuDNN and a workspace sized for it, checked against a CPU reference.
//
// The three ways cuDNN code picks algorithms are all here: heuristics (cudnnGetConvolution*Algorithm_v7) for the
// forward pass; heuristics to size a workspace, then a measured search on the caller's buffers
// (cudnnFindConvolutionBackwardDataAlgorithmEx) for the data gradient; a measured search on buffers cuDNN
// allocates (cudnnFindConvolutionBackwardFilterAlgorithm) for the filter gradient.
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
// hipmigrate: MIOpen find step: cuDNN's algorithm queries as MIOpen's find step (written by hipmigrate, rule CPP031).
// MIOpen runs a convolution only with an algorithm its find step measured for the problem on the same
// handle; these run that step on scratch buffers of the descriptors' sizes, as cuDNN's queries take no
// buffers. To avoid the allocation, call miopenFindConvolution*Algorithm with your own buffers.
#include <hip/hip_runtime_api.h>
static inline miopenStatus_t hipmigrateFindConvolution(miopenHandle_t handle, int direction,
                                                       miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc,
                                                       miopenConvolutionDescriptor_t convDesc,
                                                       miopenTensorDescriptor_t yDesc, int requested, int* returned,
                                                       miopenConvAlgoPerf_t* perf)
{
    size_t bytes[3] = {0, 0, 0}; /* x, w, y */
    size_t workspaceBytes = 0;
    void* buffers[3] = {NULL, NULL, NULL};
    void* workspace = NULL;
    miopenStatus_t status = miopenGetTensorNumBytes(xDesc, &bytes[0]);
    if(status == miopenStatusSuccess) status = miopenGetTensorNumBytes(wDesc, &bytes[1]);
    if(status == miopenStatusSuccess) status = miopenGetTensorNumBytes(yDesc, &bytes[2]);
    if(status == miopenStatusSuccess)
    {
        if(direction == 0)
            status = miopenConvolutionForwardGetWorkSpaceSize(handle, wDesc, xDesc, convDesc, yDesc, &workspaceBytes);
        else if(direction == 1)
            status = miopenConvolutionBackwardDataGetWorkSpaceSize(handle, yDesc, wDesc, convDesc, xDesc,
                                                                   &workspaceBytes);
        else
            status = miopenConvolutionBackwardWeightsGetWorkSpaceSize(handle, yDesc, xDesc, convDesc, wDesc,
                                                                      &workspaceBytes);
    }
    for(int i = 0; i < 3 && status == miopenStatusSuccess; ++i)
        if(hipMalloc(&buffers[i], bytes[i]) != hipSuccess) status = miopenStatusAllocFailed;
    if(status == miopenStatusSuccess && workspaceBytes > 0 && hipMalloc(&workspace, workspaceBytes) != hipSuccess)
        status = miopenStatusAllocFailed;
    if(status == miopenStatusSuccess)
    {
        if(direction == 0)
            status = miopenFindConvolutionForwardAlgorithm(handle, xDesc, buffers[0], wDesc, buffers[1], convDesc,
                                                           yDesc, buffers[2], requested, returned, perf, workspace,
                                                           workspaceBytes, false);
        else if(direction == 1)
            status = miopenFindConvolutionBackwardDataAlgorithm(handle, yDesc, buffers[2], wDesc, buffers[1],
                                                                convDesc, xDesc, buffers[0], requested, returned,
                                                                perf, workspace, workspaceBytes, false);
        else
            status = miopenFindConvolutionBackwardWeightsAlgorithm(handle, yDesc, buffers[2], xDesc, buffers[0],
                                                                   convDesc, wDesc, buffers[1], requested, returned,
                                                                   perf, workspace, workspaceBytes, false);
    }
    hipStream_t stream = NULL;
    if(miopenGetStream(handle, &stream) == miopenStatusSuccess) (void)hipStreamSynchronize(stream);
    for(int i = 0; i < 3; ++i) (void)hipFree(buffers[i]);
    (void)hipFree(workspace);
    return status;
}
static inline miopenStatus_t hipmigrateFindConvolutionForwardAlgorithm(
    miopenHandle_t handle, miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc,
    miopenConvolutionDescriptor_t convDesc, miopenTensorDescriptor_t yDesc, int requested, int* returned,
    miopenConvAlgoPerf_t* perf)
{
    return hipmigrateFindConvolution(handle, 0, xDesc, wDesc, convDesc, yDesc, requested, returned, perf);
}
static inline miopenStatus_t hipmigrateFindConvolutionBackwardDataAlgorithm(
    miopenHandle_t handle, miopenTensorDescriptor_t wDesc, miopenTensorDescriptor_t dyDesc,
    miopenConvolutionDescriptor_t convDesc, miopenTensorDescriptor_t dxDesc, int requested, int* returned,
    miopenConvAlgoPerf_t* perf)
{
    return hipmigrateFindConvolution(handle, 1, dxDesc, wDesc, convDesc, dyDesc, requested, returned, perf);
}
static inline miopenStatus_t hipmigrateFindConvolutionBackwardWeightsAlgorithm(
    miopenHandle_t handle, miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t dyDesc,
    miopenConvolutionDescriptor_t convDesc, miopenTensorDescriptor_t dwDesc, int requested, int* returned,
    miopenConvAlgoPerf_t* perf)
{
    return hipmigrateFindConvolution(handle, 2, xDesc, dwDesc, convDesc, dyDesc, requested, returned, perf);
}
static inline miopenStatus_t hipmigrateConvolutionForwardAlgorithmMaxCount(miopenHandle_t handle, int* count)
{
    (void)handle;
    *count = 5; /* the forward algorithms MIOpen has */
    return miopenStatusSuccess;
}
static inline miopenStatus_t hipmigrateConvolutionBackwardDataAlgorithmMaxCount(miopenHandle_t handle, int* count)
{
    (void)handle;
    *count = 6; /* the backward data algorithms MIOpen has */
    return miopenStatusSuccess;
}
static inline miopenStatus_t hipmigrateConvolutionBackwardWeightsAlgorithmMaxCount(miopenHandle_t handle, int* count)
{
    (void)handle;
    *count = 4; /* the backward weights algorithms MIOpen has */
    return miopenStatusSuccess;
}
// hipmigrate: MIOpen find step: end

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "conv_reference.h"

#define CHECK_CUDA(call)                                                                              \
    do {                                                                                              \
        hipError_t err_ = (call);                                                                     \
        if (err_ != hipSuccess) {                                                                     \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, hipGetErrorString(err_));         \
            std::exit(1);                                                                             \
        }                                                                                             \
    } while (0)

#define CHECK_CUDNN(call)                                                                             \
    do {                                                                                              \
        miopenStatus_t status_ = (call);                                                              \
        if (status_ != miopenStatusSuccess) {                                                         \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, miopenGetErrorString(status_));   \
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
    CHECK_CUDA(hipMalloc(&device, host.size() * sizeof(float)));
    CHECK_CUDA(hipMemcpy(device, host.data(), host.size() * sizeof(float), hipMemcpyHostToDevice));
    return device;
}

static std::vector<float> to_host(const float* device, size_t count) {
    std::vector<float> host(count);
    CHECK_CUDA(hipMemcpy(host.data(), device, count * sizeof(float), hipMemcpyDeviceToHost));
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

    hipStream_t stream;
    CHECK_CUDA(hipStreamCreate(&stream));
    miopenHandle_t handle;
    CHECK_CUDNN(miopenCreate(&handle));
    CHECK_CUDNN(miopenSetStream(handle, stream));

    miopenTensorDescriptor_t xDesc, yDesc;
    miopenTensorDescriptor_t wDesc;
    miopenConvolutionDescriptor_t convDesc;
    CHECK_CUDNN(miopenCreateTensorDescriptor(&xDesc));
    CHECK_CUDNN(miopenCreateTensorDescriptor(&yDesc));
    CHECK_CUDNN(miopenCreateTensorDescriptor(&wDesc));
    CHECK_CUDNN(miopenCreateConvolutionDescriptor(&convDesc));
    CHECK_CUDNN(miopenSet4dTensorDescriptor(xDesc, miopenFloat, sh.n, sh.c, sh.h, sh.w));
    CHECK_CUDNN(miopenSet4dTensorDescriptor(wDesc, miopenFloat, sh.k, sh.c, sh.r, sh.s));
    CHECK_CUDNN(miopenInitConvolutionDescriptor(convDesc, miopenConvolution, sh.pad, sh.pad, sh.stride, sh.stride,
                                                sh.dilation, sh.dilation));
    // full fp32 arithmetic (no TF32), so that the check below can be tight
    CHECK_CUDNN(miopenStatusSuccess);

    int outN = 0, outC = 0, outH = 0, outW = 0;
    CHECK_CUDNN(miopenGetConvolutionForwardOutputDim(convDesc, xDesc, wDesc, &outN, &outC, &outH, &outW));
    if (outN != sh.n || outC != sh.k || outH != sh.out_h() || outW != sh.out_w()) {
        std::printf("output shape %dx%dx%dx%d, expected %dx%dx%dx%d\nFAILED\n", outN, outC, outH, outW, sh.n, sh.k,
                    sh.out_h(), sh.out_w());
        return 1;
    }
    CHECK_CUDNN(miopenSet4dTensorDescriptor(yDesc, miopenFloat, outN, outC, outH, outW));

    float* dX = to_device(x);
    float* dW = to_device(w);
    float* dDy = to_device(dy);
    float *dY = nullptr, *dDx = nullptr, *dDw = nullptr;
    CHECK_CUDA(hipMalloc(&dY, sh.y_size() * sizeof(float)));
    CHECK_CUDA(hipMalloc(&dDx, sh.x_size() * sizeof(float)));
    CHECK_CUDA(hipMalloc(&dDw, sh.w_size() * sizeof(float)));
    const float alpha = 1.0f, beta = 0.0f;
    int returned = 0;

    // Forward: the first algorithm the heuristics rank that cuDNN supports here.
    int maxForward = 0;
    CHECK_CUDNN(hipmigrateConvolutionForwardAlgorithmMaxCount(handle, &maxForward));
    std::vector<miopenConvAlgoPerf_t> forwardPerf(maxForward);
    CHECK_CUDNN(hipmigrateFindConvolutionForwardAlgorithm(handle, xDesc, wDesc, convDesc, yDesc, maxForward, &returned,
                                                          forwardPerf.data()));
    int forwardChoice = -1;
    for (int i = 0; i < returned && forwardChoice < 0; ++i)
        if (true) forwardChoice = i;
    if (forwardChoice < 0) {
        std::printf("no forward algorithm\nFAILED\n");
        return 1;
    }
    miopenConvFwdAlgorithm_t forwardAlgo = forwardPerf[forwardChoice].fwd_algo;
    size_t forwardBytes = 0;
    CHECK_CUDNN(miopenConvolutionForwardGetWorkSpaceSize(handle, wDesc, xDesc, convDesc, yDesc, &forwardBytes));
    void* forwardWorkspace = nullptr;
    if (forwardBytes > 0) CHECK_CUDA(hipMalloc(&forwardWorkspace, forwardBytes));
    CHECK_CUDNN(miopenConvolutionForward(handle, &alpha, xDesc, dX, wDesc, dW, convDesc, forwardAlgo,
                                         &beta, yDesc, dY, forwardWorkspace, forwardBytes));

    // Backward data: a workspace as large as the heuristics' candidates need, then a measured search with it.
    int maxData = 0;
    CHECK_CUDNN(hipmigrateConvolutionBackwardDataAlgorithmMaxCount(handle, &maxData));
    std::vector<miopenConvAlgoPerf_t> dataCandidates(maxData), dataMeasured(maxData);
    CHECK_CUDNN(hipmigrateFindConvolutionBackwardDataAlgorithm(handle, wDesc, yDesc, convDesc, xDesc, maxData, &returned,
                                                               dataCandidates.data()));
    size_t dataBytes = 0;
    for (int i = 0; i < returned; ++i)
        if (true && dataCandidates[i].memory > dataBytes)
            dataBytes = dataCandidates[i].memory;
    void* dataWorkspace = nullptr;
    if (dataBytes > 0) CHECK_CUDA(hipMalloc(&dataWorkspace, dataBytes));
    CHECK_CUDNN(miopenFindConvolutionBackwardDataAlgorithm(handle, yDesc, dDy, wDesc, dW, convDesc, xDesc, dDx, maxData,
                                                           &returned, dataMeasured.data(), dataWorkspace, dataBytes, false));
    int dataChoice = -1;
    for (int i = 0; i < returned && dataChoice < 0; ++i)
        if (true && dataMeasured[i].memory <= dataBytes) dataChoice = i;
    if (dataChoice < 0) {
        std::printf("no backward data algorithm\nFAILED\n");
        return 1;
    }
    miopenConvBwdDataAlgorithm_t dataAlgo = dataMeasured[dataChoice].bwd_data_algo;
    CHECK_CUDNN(miopenConvolutionBackwardData(handle, &alpha, yDesc, dDy, wDesc, dW, convDesc, dataAlgo, &beta,
                                              xDesc, dDx, dataWorkspace, dataBytes));

    // Backward filter: a measured search on buffers cuDNN allocates, then a workspace for the fastest algorithm.
    int maxFilter = 0;
    CHECK_CUDNN(hipmigrateConvolutionBackwardWeightsAlgorithmMaxCount(handle, &maxFilter));
    std::vector<miopenConvAlgoPerf_t> filterPerf(maxFilter);
    CHECK_CUDNN(hipmigrateFindConvolutionBackwardWeightsAlgorithm(handle, xDesc, yDesc, convDesc, wDesc, maxFilter, &returned,
                                                                  filterPerf.data()));
    int filterChoice = -1;
    for (int i = 0; i < returned && filterChoice < 0; ++i)
        if (true) filterChoice = i;
    if (filterChoice < 0) {
        std::printf("no backward filter algorithm\nFAILED\n");
        return 1;
    }
    miopenConvBwdWeightsAlgorithm_t filterAlgo = filterPerf[filterChoice].bwd_weights_algo;
    size_t filterBytes = 0;
    CHECK_CUDNN(miopenConvolutionBackwardWeightsGetWorkSpaceSize(handle, yDesc, xDesc, convDesc, wDesc, &filterBytes));
    void* filterWorkspace = nullptr;
    if (filterBytes > 0) CHECK_CUDA(hipMalloc(&filterWorkspace, filterBytes));
    CHECK_CUDNN(miopenConvolutionBackwardWeights(handle, &alpha, yDesc, dDy, xDesc, dX, convDesc, filterAlgo,
                                                 &beta, wDesc, dDw, filterWorkspace, filterBytes));
    CHECK_CUDA(hipStreamSynchronize(stream));

    const double forwardError = error_of(to_host(dY, sh.y_size()), reference_forward(sh, x, w));
    const double dataError = error_of(to_host(dDx, sh.x_size()), reference_backward_data(sh, dy, w));
    const double filterError = error_of(to_host(dDw, sh.w_size()), reference_backward_filter(sh, x, dy));
    std::printf("conv %dx%dx%dx%d * %dx%dx%dx%d pad=%d stride=%d -> %dx%dx%dx%d\n", sh.n, sh.c, sh.h, sh.w, sh.k,
                sh.c, sh.r, sh.s, sh.pad, sh.stride, outN, outC, outH, outW);
    std::printf("forward_err=%.3g backward_data_err=%.3g backward_filter_err=%.3g\n", forwardError, dataError,
                filterError);

    CHECK_CUDA(hipFree(forwardWorkspace));
    CHECK_CUDA(hipFree(dataWorkspace));
    CHECK_CUDA(hipFree(filterWorkspace));
    CHECK_CUDA(hipFree(dX));
    CHECK_CUDA(hipFree(dW));
    CHECK_CUDA(hipFree(dDy));
    CHECK_CUDA(hipFree(dY));
    CHECK_CUDA(hipFree(dDx));
    CHECK_CUDA(hipFree(dDw));
    CHECK_CUDNN(miopenDestroyConvolutionDescriptor(convDesc));
    CHECK_CUDNN(miopenDestroyTensorDescriptor(wDesc));
    CHECK_CUDNN(miopenDestroyTensorDescriptor(yDesc));
    CHECK_CUDNN(miopenDestroyTensorDescriptor(xDesc));
    CHECK_CUDNN(miopenDestroy(handle));
    CHECK_CUDA(hipStreamDestroy(stream));

    const double tolerance = 1e-3;
    if (forwardError <= tolerance && dataError <= tolerance && filterError <= tolerance) {
        std::printf("PASSED\n");
        return 0;
    }
    std::printf("FAILED\n");
    return 1;
}
