"""A cuDNN call whose MIOpen counterpart takes other arguments: reordered, dropped, added, or reported.

The cudnn pack (rules/mappings/cudnn.toml) renames the functions; this rule writes their arguments as MIOpen's
prototypes (MIOpen 3.4, ROCm 6.4) take them, from the table in migrate/cpp/cudnn_calls.py:

- descriptors: `cudnnSetTensor4dDescriptor`/`cudnnSetFilter4dDescriptor` lose the format (MIOpen's 4-d tensors are
  NCHW; an NHWC one becomes `miopenSet4dTensorDescriptorEx` with NHWC's strides; MIOpen has no filter descriptor:
  filters are tensor descriptors), the N-d forms pass null strides (packed) for NCHW; `cudnnSetConvolution2dDescriptor`
  becomes `miopenInitConvolutionDescriptor` with the mode second and no compute type (`CUDNN_CONVOLUTION`, a true
  convolution, has no MIOpen mode: reported); pooling descriptors lose the NaN option; the activation descriptor
  takes alpha, beta and gamma, written for each mode (cuDNN's coef is alpha for CLIPPED_RELU and ELU, TANH is
  1.0 * tanh(1.0 * x)); the LRN descriptor takes the mode; dropout descriptors take use_mask, state_evo and the
  generator (false, false, MIOPEN_RNG_PSEUDO_XORWOW); `cudnnSetConvolutionMathType` is dropped (MIOpen has no math
  type);
- convolutions: the workspace size queries take no algorithm and the filter (or dy) descriptor first (they give
  the size MIOpen's find step needs); the runs take the workspace last and backward data and filter take dy first;
  the Ex find calls become MIOpen's find step with `exhaustiveSearch = false`;
- softmax takes the algorithm and mode last (`miopenSoftmaxForward_V2`); dropout runs take a noise-shape
  descriptor (x's or dy's: one draw per element); batch normalization takes some pointers as `void*`, so a pointer
  to const is cast; pooling and LRN forward take `do_backward` and a workspace (false and none where the file has no
  backward pass; with one, the workspace the backward reads is reported: it must be allocated).

Out-parameters MIOpen does not have (a compute type, a NaN option) are left unwritten, with a warning. What cannot
be written without knowing more (a format held in a variable, an activation mode in a variable, the pooling and LRN
backward workspaces) is reported as an error. A call with another argument count than cuDNN's is left alone.
"""
from migrate.cpp import cudnn_calls
from migrate.cpp.cudnn import findings, mentions_cudnn
from migrate.model import Severity
from migrate.rule import CppRule, Invalid, Valid

UNIT = "#include <cudnn.h>\n"


class CudnnCallWithOtherArguments(CppRule):
    code = "CPP030"
    severity = Severity.INFO
    examples = [
        Invalid(UNIT + "void set(cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w) {\n"
                "    cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 8, 3, 32, 32);\n"
                "    cudnnSetFilter4dDescriptor(w, CUDNN_DATA_HALF, CUDNN_TENSOR_NCHW, 16, 3, 5, 5);\n}\n",
                fixed=UNIT + "void set(miopenTensorDescriptor_t x, miopenTensorDescriptor_t w) {\n"
                      "    miopenSet4dTensorDescriptor(x, miopenFloat, 8, 3, 32, 32);\n"
                      "    miopenSet4dTensorDescriptor(w, miopenHalf, 16, 3, 5, 5);\n}\n", line=3,
                message="cudnnSetTensor4dDescriptor -> miopenSet4dTensorDescriptor: MIOpen's 4-d tensor descriptor has "
                        "no format argument (it is NCHW unless strides say otherwise): CUDNN_TENSOR_NCHW dropped"),
        # NHWC: the strides of that layout
        Invalid(UNIT + "void set(cudnnTensorDescriptor_t x, int n, int c, int h, int w) {\n"
                "    cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, n, c, h + 2, w);\n}\n",
                fixed=UNIT + "void set(miopenTensorDescriptor_t x, int n, int c, int h, int w) {\n"
                      "    miopenSet4dTensorDescriptorEx(x, miopenFloat, n, c, h + 2, w, c * (h + 2) * w, 1, w * c, "
                      "c);\n}\n"),
        Invalid(UNIT + "void conv(cudnnConvolutionDescriptor_t d) {\n"
                "    cudnnSetConvolution2dDescriptor(d, 1, 1, 2, 2, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);\n}\n",
                fixed=UNIT + "void conv(miopenConvolutionDescriptor_t d) {\n"
                      "    miopenInitConvolutionDescriptor(d, miopenConvolution, 1, 1, 2, 2, 1, 1);\n}\n",
                message="cudnnSetConvolution2dDescriptor -> miopenInitConvolutionDescriptor: "
                        "miopenInitConvolutionDescriptor takes the mode second and no compute type: CUDNN_DATA_FLOAT "
                        "dropped (MIOpen accumulates half and bfloat16 in float)"),
        # the runs: workspace last, dy first for the backward passes; laid over two lines, they stay so
        Invalid("void run(cudnnHandle_t h, cudnnConvolutionFwdAlgo_t a, void* ws, size_t n) {\n"
                "    cudnnConvolutionForward(h, &one, xD, x, wD, w, cD, a,\n"
                "                            ws, n, &zero, yD, y);\n"
                "    cudnnConvolutionBackwardData(h, &one, wD, w, yD, dy, cD, bd, ws, n, &zero, xD, dx);\n}\n",
                fixed="void run(miopenHandle_t h, miopenConvFwdAlgorithm_t a, void* ws, size_t n) {\n"
                      "    miopenConvolutionForward(h, &one, xD, x, wD, w, cD, a,\n"
                      "                             &zero, yD, y, ws, n);\n"
                      "    miopenConvolutionBackwardData(h, &one, yD, dy, wD, w, cD, bd, &zero, xD, dx, ws, n);\n}\n",
                line=2, message="cudnnConvolutionForward -> miopenConvolutionForward: MIOpen takes the workspace and "
                                "its size last, after beta and the output: arguments reordered"),
        Invalid("void q(cudnnHandle_t h, size_t* n) {\n"
                "    cudnnGetConvolutionBackwardFilterWorkspaceSize(h, xD, dyD, cD, dwD, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1, n);\n"
                "    cudnnFindConvolutionBackwardFilterAlgorithmEx(h, xD, x, dyD, dy, cD, dwD, dw, 4, &k, p, ws, s);\n}\n",
                fixed="void q(miopenHandle_t h, size_t* n) {\n"
                      "    miopenConvolutionBackwardWeightsGetWorkSpaceSize(h, dyD, xD, cD, dwD, n);\n"
                      "    miopenFindConvolutionBackwardWeightsAlgorithm(h, dyD, dy, xD, x, cD, dwD, dw, 4, &k, p, ws, s, "
                      "false);\n}\n"),
        Invalid("void f(cudnnHandle_t h) {\n"
                "    cudnnSoftmaxForward(h, CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_CHANNEL, &a, xD, x, &b, yD, y);\n"
                "    cudnnDropoutForward(h, dd, xD, x, yD, y, r, rn);\n"
                "    cudnnSetDropoutDescriptor(dd, h, 0.5f, st, stn, 1234ull);\n"
                "    cudnnSetLRNDescriptor(ld, 5, 1e-4, 0.75, 2.0);\n}\n",
                fixed="void f(miopenHandle_t h) {\n"
                      "    miopenSoftmaxForward_V2(h, &a, xD, x, &b, yD, y, MIOPEN_SOFTMAX_LOG, "
                      "MIOPEN_SOFTMAX_MODE_CHANNEL);\n"
                      "    miopenDropoutForward(h, dd, xD, xD, x, yD, y, r, rn);\n"
                      "    miopenSetDropoutDescriptor(dd, h, 0.5f, st, stn, 1234ull, false, false, "
                      "MIOPEN_RNG_PSEUDO_XORWOW);\n"
                      "    miopenSetLRNDescriptor(ld, miopenLRNCrossChannel, 5, 1e-4, 0.75, 2.0);\n}\n"),
        # pooling and activation descriptors; forward pooling with no backward pass in the file
        Invalid("void p(cudnnHandle_t h, cudnnPoolingDescriptor_t pd, cudnnActivationDescriptor_t ad) {\n"
                "    cudnnSetPooling2dDescriptor(pd, CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2);\n"
                "    cudnnSetActivationDescriptor(ad, CUDNN_ACTIVATION_CLIPPED_RELU, CUDNN_NOT_PROPAGATE_NAN, 6.0);\n"
                "    cudnnPoolingForward(h, pd, &a, xD, x, &b, yD, y);\n}\n",
                fixed="void p(miopenHandle_t h, miopenPoolingDescriptor_t pd, miopenActivationDescriptor_t ad) {\n"
                      "    miopenSet2dPoolingDescriptor(pd, miopenPoolingMax, 2, 2, 0, 0, 2, 2);\n"
                      "    miopenSetActivationDescriptor(ad, miopenActivationCLIPPEDRELU, 6.0, 0.0, 0.0);\n"
                      "    miopenPoolingForward(h, pd, &a, xD, x, &b, yD, y, false, nullptr, 0);\n}\n"),
        # batch normalization: MIOpen's void* where cuDNN had const void*
        Invalid("void bn(cudnnHandle_t h, const float* scale, float* bias) {\n    const float one = 1.0f, zero = 0.0f;\n"
                "    cudnnBatchNormalizationForwardInference(h, CUDNN_BATCHNORM_SPATIAL, &one, &zero, xD, x, yD, y, bD, "
                "scale, bias, mean, var, 1e-5);\n}\n",
                fixed="void bn(miopenHandle_t h, const float* scale, float* bias) {\n    const float one = 1.0f, zero = "
                      "0.0f;\n    miopenBatchNormalizationForwardInference(h, miopenBNSpatial, (void*)&one, (void*)&zero, "
                      "xD, x, yD, y, bD, (void*)scale, bias, mean, var, 1e-5);\n}\n"),
        # a math type: MIOpen has none
        Invalid("void m(cudnnConvolutionDescriptor_t d) {\n    cudnnSetConvolutionMathType(d, CUDNN_TENSOR_OP_MATH);\n"
                "    check(cudnnSetConvolutionMathType(d, CUDNN_FMA_MATH));\n}\n",
                fixed="void m(miopenConvolutionDescriptor_t d) {\n    check(miopenStatusSuccess);\n}\n"),
        # reported: what cannot be written without knowing more
        Invalid("void r(cudnnTensorDescriptor_t x, cudnnTensorFormat_t f) {\n"
                "    cudnnSetTensor4dDescriptor(x, f, CUDNN_DATA_FLOAT, 1, 2, 3, 4);\n}\n",
                fixed="void r(miopenTensorDescriptor_t x, miopenTensorLayout_t f) {\n"
                      "    miopenSet4dTensorDescriptor(x, f, miopenFloat, 1, 2, 3, 4);\n}\n",
                message="cudnnSetTensor4dDescriptor's format argument (f) is not CUDNN_TENSOR_NCHW or "
                        "CUDNN_TENSOR_NHWC: MIOpen's miopenSet4dTensorDescriptor is NCHW; give other layouts as strides "
                        "with miopenSet4dTensorDescriptorEx (NCHW_VECT_C has no counterpart)"),
        Invalid("void p(cudnnHandle_t h) {\n    cudnnPoolingForward(h, pd, &a, xD, x, &b, yD, y);\n"
                "    cudnnPoolingBackward(h, pd, &a, yD, y, yD, dy, xD, x, &b, xD, dx);\n}\n",
                fixed="void p(miopenHandle_t h) {\n    miopenPoolingForward(h, pd, &a, xD, x, &b, yD, y);\n"
                      "    miopenPoolingBackward(h, pd, &a, yD, y, yD, dy, xD, x, &b, xD, dx);\n}\n", line=2),
        Invalid("void c(cudnnConvolutionDescriptor_t d) {\n"
                "    cudnnSetConvolution2dDescriptor(d, 0, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT);\n}\n",
                fixed="void c(miopenConvolutionDescriptor_t d) {\n"
                      "    miopenInitConvolutionDescriptor(d, 0, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, miopenFloat);\n}\n",
                message="CUDNN_CONVOLUTION (a true convolution, the filter flipped) has no MIOpen mode: MIOpen's "
                        "miopenConvolution is a cross-correlation (CUDNN_CROSS_CORRELATION); flip the filters, or use "
                        "CUDNN_CROSS_CORRELATION"),
        Valid("void ok(miopenTensorDescriptor_t x) { miopenSet4dTensorDescriptor(x, miopenFloat, 1, 2, 3, 4); }\n"),
        Valid("void other(int a) { cudnnConvolutionForward(a); }\n"),  # not cuDNN's argument count: left alone
        Valid('const char* s = "cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, t, 1, 2, 3, 4)";\n'),
    ]

    def check(self, ctx):
        if mentions_cudnn(ctx.data):
            yield from findings(self, ctx, cudnn_calls.rewrites(ctx))
