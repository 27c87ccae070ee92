"""cuDNN's convolution algorithm selection, where MIOpen needs its find step.

cuDNN ranks algorithms by heuristics without running them (`cudnnGetConvolution*Algorithm_v7`) or measures them on
buffers it allocates (`cudnnFindConvolution*Algorithm`), and any algorithm it supports may then run. MIOpen runs a
convolution only with an algorithm its find step (`miopenFindConvolution*Algorithm`, which takes the caller's
buffers and workspace) measured for that problem on that handle, and only one the find step returned; without it,
`miopenConvolutionForward` fails ("No invoker was registered for convolution forward. Was find executed?").

So each query becomes a call of a helper (`hipmigrateFindConvolutionForwardAlgorithm`, ...BackwardData...,
...BackwardWeights...) with cuDNN's arguments, declared by a block written after the file's cuDNN include
(migrate/cpp/cudnn_find.py): it runs MIOpen's find step on scratch buffers of the descriptors' sizes and fills the
caller's array (a WARNING: it allocates, and passing your own buffers to miopenFindConvolution*Algorithm avoids
that). `cudnnGetConvolution*AlgorithmMaxCount` becomes a helper giving the number of MIOpen's algorithms of the
direction. The results are `miopenConvAlgoPerf_t`: `.algo` is read as `.fwd_algo`, `.bwd_data_algo` or
`.bwd_weights_algo` for variables, parameters, arrays and vectors the file declares with a cuDNN result type; a
comparison of `.status` with `CUDNN_STATUS_SUCCESS` is true (MIOpen returns only algorithms that ran); other uses of
`.status`, and `.determinism` and `.mathType`, are reported. A convolution run in a file with no find step for its
direction, or with a fixed cuDNN algorithm, is reported. The Ex forms of the find calls, which take buffers, are
CPP030's (they become MIOpen's find step directly).
"""
from migrate.cpp import cudnn_find
from migrate.cpp.cudnn import findings, mentions_cudnn
from migrate.model import Severity
from migrate.rule import CppRule, Invalid, Valid

QUERY = ("#include <cudnn.h>\n#include <vector>\n"
         "cudnnConvolutionFwdAlgo_t pick(cudnnHandle_t h, cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,\n"
         "                               cudnnConvolutionDescriptor_t c, cudnnTensorDescriptor_t y) {\n"
         "    int count = 0, returned = 0;\n"
         "    cudnnGetConvolutionForwardAlgorithmMaxCount(h, &count);\n"
         "    std::vector<cudnnConvolutionFwdAlgoPerf_t> perf(count);\n"
         "    cudnnGetConvolutionForwardAlgorithm_v7(h, x, w, c, y, count, &returned, perf.data());\n"
         "    for (int i = 0; i < returned; ++i)\n"
         "        if (perf[i].status == CUDNN_STATUS_SUCCESS) return perf[i].algo;\n"
         "    return perf[0].algo;\n}\n")
QUERY_FIXED = (QUERY.replace("#include <cudnn.h>\n", "#include <cudnn.h>\n" + cudnn_find.block({
    "hipmigrateConvolutionForwardAlgorithmMaxCount", "hipmigrateFindConvolutionForwardAlgorithm"}))
    .replace("cudnnConvolutionFwdAlgo_t", "miopenConvFwdAlgorithm_t").replace("cudnnHandle_t", "miopenHandle_t")
    .replace("cudnnTensorDescriptor_t", "miopenTensorDescriptor_t")
    .replace("cudnnFilterDescriptor_t", "miopenTensorDescriptor_t")
    .replace("cudnnConvolutionDescriptor_t", "miopenConvolutionDescriptor_t")
    .replace("cudnnGetConvolutionForwardAlgorithmMaxCount", "hipmigrateConvolutionForwardAlgorithmMaxCount")
    .replace("cudnnConvolutionFwdAlgoPerf_t", "miopenConvAlgoPerf_t")
    .replace("cudnnGetConvolutionForwardAlgorithm_v7", "hipmigrateFindConvolutionForwardAlgorithm")
    .replace("perf[i].status == CUDNN_STATUS_SUCCESS", "true").replace(".algo;", ".fwd_algo;"))


class CudnnAlgorithmQuery(CppRule):
    code = "CPP031"
    severity = Severity.WARNING
    examples = [
        Invalid(QUERY, fixed=QUERY_FIXED, line=6,
                message="cudnnGetConvolutionForwardAlgorithm_v7 ranks algorithms by heuristics without running them; "
                        "MIOpen runs a convolution only with an algorithm its find step "
                        "(miopenFindConvolutionForwardAlgorithm) measured for the problem on the same handle, and only "
                        "one it returned: the call runs that find step through hipmigrateFindConvolutionForwardAlgorithm "
                        "(declared after the MIOpen include) on scratch buffers it allocates; call "
                        "miopenFindConvolutionForwardAlgorithm with your own buffers and workspace to avoid that"),
        Invalid("#include <cudnn.h>\nvoid f(cudnnHandle_t h, cudnnConvolutionBwdFilterAlgoPerf_t* r, int* n) {\n"
                "    cudnnFindConvolutionBackwardFilterAlgorithm(h, xD, dyD, cD, dwD, 1, n, r);\n"
                "    use(r->algo, r[0].time, r[0].memory);\n}\n",
                fixed="#include <cudnn.h>\n" + cudnn_find.block({"hipmigrateFindConvolutionBackwardWeightsAlgorithm"})
                      + "void f(miopenHandle_t h, miopenConvAlgoPerf_t* r, int* n) {\n"
                      "    hipmigrateFindConvolutionBackwardWeightsAlgorithm(h, xD, dyD, cD, dwD, 1, n, r);\n"
                      "    use(r->bwd_weights_algo, r[0].time, r[0].memory);\n}\n"),
        # without a cuDNN include in the file the helper has nowhere to go: reported
        Invalid("void f(cudnnHandle_t h) { cudnnFindConvolutionForwardAlgorithm(h, xD, wD, cD, yD, 1, &n, &p); }\n",
                fixed="void f(miopenHandle_t h) { cudnnFindConvolutionForwardAlgorithm(h, xD, wD, cD, yD, 1, &n, &p); "
                      "}\n"),
        # a run with no find step in the file, and a fixed algorithm
        Invalid("void run(cudnnHandle_t h) {\n    cudnnConvolutionForward(h, &a, xD, x, wD, w, cD, "
                "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, ws, n, &b, yD, y);\n}\n",
                fixed="void run(miopenHandle_t h) {\n    miopenConvolutionForward(h, &a, xD, x, wD, w, cD, "
                      "miopenConvolutionFwdAlgoImplicitGEMM, ws, n, &b, yD, y);\n}\n", line=2,
                message="cudnnConvolutionForward: this file runs no find step for it "
                        "(miopenFindConvolutionForwardAlgorithm, or a cuDNN algorithm query CPP030/CPP031 turn into "
                        "one): MIOpen fails with 'No invoker was registered' unless the find step ran for this problem "
                        "on this handle; the algorithm is fixed (CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM): MIOpen runs "
                        "only an algorithm its find step returned for the problem; pass the .fwd_algo of a result of "
                        "miopenFindConvolutionForwardAlgorithm"),
        Invalid("int ok(const cudnnConvolutionFwdAlgoPerf_t& p) { return p.determinism; }\n",
                fixed="int ok(const miopenConvAlgoPerf_t& p) { return p.determinism; }\n",
                message="MIOpen's results say nothing of determinism: to run deterministic kernels only, set "
                        "MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC to 1 with miopenSetConvolutionAttribute before the "
                        "find step"),
        Valid("void run(miopenHandle_t h, miopenConvAlgoPerf_t p) {\n    miopenFindConvolutionForwardAlgorithm(h, xD, x, "
              "wD, w, cD, yD, y, 1, &n, &p, ws, s, false);\n    use(p.fwd_algo);\n}\n"),
        Valid("struct Mine { int algo; int status; };\nint f(Mine m) { return m.algo + m.status; }\n"),
    ]

    def check(self, ctx):
        if mentions_cudnn(ctx.data):
            yield from findings(self, ctx, cudnn_find.rewrites(ctx))
