// A transformer MLP's first matmul as training code writes it with cuBLASLt: D = GELU(A^T B + bias) in bfloat16
// (fp32 accumulation), one cublasLtMatmul with the GELU_BIAS epilogue, the algorithm picked by cuBLASLt's heuristic
// within a 32 MB workspace. Checked against a CPU computation from the same bf16 inputs.
#include <hipblaslt/hipblaslt.h>
#include <hip/hip_bf16.h>
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        hipError_t e_ = (call);                                                             \
        if (e_ != hipSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, hipGetErrorString(e_));      \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)
#define LT_CHECK(call)                                                                      \
    do {                                                                                    \
        hipblasStatus_t s_ = (call);                                                        \
        if (s_ != HIPBLAS_STATUS_SUCCESS) {                                                 \
            fprintf(stderr, "%s:%d: cuBLASLt status %d\n", __FILE__, __LINE__, (int)s_);    \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

constexpr int M = 768;    // output features (rows of D)
constexpr int N = 512;    // tokens (columns of D)
constexpr int K = 256;    // input features
constexpr size_t WORKSPACE = 32u << 20;

static float uniform(unsigned int& seed) {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;
}

int main() {
    // column-major: A is K x M (used transposed), B is K x N, D is M x N, bias has M entries
    std::vector<__hip_bfloat16> a(static_cast<size_t>(K) * M), b(static_cast<size_t>(K) * N), bias(M),
        d(static_cast<size_t>(M) * N);
    unsigned int seed = 11u;
    for (auto& v : a) v = __float2bfloat16(0.1f * uniform(seed));
    for (auto& v : b) v = __float2bfloat16(uniform(seed));
    for (auto& v : bias) v = __float2bfloat16(0.5f * uniform(seed));

    __hip_bfloat16 *d_a, *d_b, *d_bias, *d_d;
    void* d_work;
    CUDA_CHECK(hipMalloc(&d_a, a.size() * sizeof(__hip_bfloat16)));
    CUDA_CHECK(hipMalloc(&d_b, b.size() * sizeof(__hip_bfloat16)));
    CUDA_CHECK(hipMalloc(&d_bias, bias.size() * sizeof(__hip_bfloat16)));
    CUDA_CHECK(hipMalloc(&d_d, d.size() * sizeof(__hip_bfloat16)));
    CUDA_CHECK(hipMalloc(&d_work, WORKSPACE));
    CUDA_CHECK(hipMemcpy(d_a, a.data(), a.size() * sizeof(__hip_bfloat16), hipMemcpyHostToDevice));
    CUDA_CHECK(hipMemcpy(d_b, b.data(), b.size() * sizeof(__hip_bfloat16), hipMemcpyHostToDevice));
    CUDA_CHECK(hipMemcpy(d_bias, bias.data(), bias.size() * sizeof(__hip_bfloat16), hipMemcpyHostToDevice));

    hipblasLtHandle_t lt;
    LT_CHECK(hipblasLtCreate(&lt));
    hipblasLtMatmulDesc_t op;
    LT_CHECK(hipblasLtMatmulDescCreate(&op, HIPBLAS_COMPUTE_32F, HIP_R_32F));
    hipblasOperation_t trans_a = HIPBLAS_OP_T, trans_b = HIPBLAS_OP_N;
    LT_CHECK(hipblasLtMatmulDescSetAttribute(op, HIPBLASLT_MATMUL_DESC_TRANSA, &trans_a, sizeof(trans_a)));
    LT_CHECK(hipblasLtMatmulDescSetAttribute(op, HIPBLASLT_MATMUL_DESC_TRANSB, &trans_b, sizeof(trans_b)));
    hipblasLtEpilogue_t epilogue = HIPBLASLT_EPILOGUE_GELU_BIAS;
    LT_CHECK(hipblasLtMatmulDescSetAttribute(op, HIPBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));
    LT_CHECK(hipblasLtMatmulDescSetAttribute(op, HIPBLASLT_MATMUL_DESC_BIAS_POINTER, &d_bias, sizeof(d_bias)));
    hipDataType bias_type = HIP_R_16BF;
    LT_CHECK(hipblasLtMatmulDescSetAttribute(op, HIPBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type, sizeof(bias_type)));

    hipblasLtMatrixLayout_t la, lb, ld;
    LT_CHECK(hipblasLtMatrixLayoutCreate(&la, HIP_R_16BF, K, M, K));
    LT_CHECK(hipblasLtMatrixLayoutCreate(&lb, HIP_R_16BF, K, N, K));
    LT_CHECK(hipblasLtMatrixLayoutCreate(&ld, HIP_R_16BF, M, N, M));

    hipblasLtMatmulPreference_t pref;
    LT_CHECK(hipblasLtMatmulPreferenceCreate(&pref));
    size_t workspace = WORKSPACE;
    LT_CHECK(hipblasLtMatmulPreferenceSetAttribute(pref, HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                                  sizeof(workspace)));
    hipblasLtMatmulHeuristicResult_t heuristic = {};
    int found = 0;
    LT_CHECK(hipblasLtMatmulAlgoGetHeuristic(lt, op, la, lb, ld, ld, pref, 1, &heuristic, &found));
    if (found == 0) {
        printf("no cuBLASLt algorithm for this GEMM\nFAILED\n");
        return 1;
    }

    const float alpha = 1.0f, beta = 0.0f;
    hipStream_t stream;
    CUDA_CHECK(hipStreamCreate(&stream));
    hipEvent_t start, stop;
    CUDA_CHECK(hipEventCreate(&start));
    CUDA_CHECK(hipEventCreate(&stop));
    LT_CHECK(hipblasLtMatmul(lt, op, &alpha, d_a, la, d_b, lb, &beta, d_d, ld, d_d, ld, &heuristic.algo, d_work,
                            WORKSPACE, stream));  // warm-up
    CUDA_CHECK(hipEventRecord(start, stream));
    for (int r = 0; r < 20; ++r) {
        LT_CHECK(hipblasLtMatmul(lt, op, &alpha, d_a, la, d_b, lb, &beta, d_d, ld, d_d, ld, &heuristic.algo, d_work,
                                WORKSPACE, stream));
    }
    CUDA_CHECK(hipEventRecord(stop, stream));
    CUDA_CHECK(hipEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(hipEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(hipMemcpy(d.data(), d_d, d.size() * sizeof(__hip_bfloat16), hipMemcpyDeviceToHost));

    // CPU: the same sum in double, plus bias, through GELU's tanh form (what cuBLASLt's GELU epilogue computes)
    double max_err = 0.0;
    for (int n = 0; n < N; ++n) {
        for (int m = 0; m < M; ++m) {
            double acc = 0.0;
            for (int k = 0; k < K; ++k) {
                acc += static_cast<double>(__bfloat162float(a[static_cast<size_t>(m) * K + k])) *
                       __bfloat162float(b[static_cast<size_t>(n) * K + k]);
            }
            double x = acc + __bfloat162float(bias[m]);
            double gelu = 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
            double got = __bfloat162float(d[static_cast<size_t>(n) * M + m]);
            max_err = std::fmax(max_err, std::fabs(gelu - got));
        }
    }
    printf("gemm_gelu: M=%d N=%d K=%d time_per_gemm_ms=%.4f max_abs_err=%.4f\n", M, N, K, ms / 20, max_err);
    bool ok = max_err < 0.05;  // bf16 output of values up to about 10: 3 significant digits
    printf("%s\n", ok ? "PASSED" : "FAILED");
    hipblasLtMatmulPreferenceDestroy(pref);
    hipblasLtMatrixLayoutDestroy(la);
    hipblasLtMatrixLayoutDestroy(lb);
    hipblasLtMatrixLayoutDestroy(ld);
    hipblasLtMatmulDescDestroy(op);
    hipblasLtDestroy(lt);
    return ok ? 0 : 1;
}
