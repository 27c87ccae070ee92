// expect: HAZ040 16
// A cuBLASLt GEMM that takes the heuristic's first algorithm without looking at how many it returned. cuBLASLt has
// an algorithm for every GEMM it accepts; hipBLASLt returns none where it has no kernel for the GPU or the shape,
// and the matmul then runs with an empty algorithm.
#include <cublasLt.h>
#include <cuda_runtime.h>

void gemm(cublasLtHandle_t lt, cublasLtMatmulDesc_t op, cublasLtMatrixLayout_t la, cublasLtMatrixLayout_t lb,
          cublasLtMatrixLayout_t lc, const float* a, const float* b, float* c, void* work, size_t work_bytes,
          cudaStream_t stream) {
    cublasLtMatmulPreference_t pref;
    cublasLtMatmulPreferenceCreate(&pref);
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &work_bytes, sizeof(work_bytes));
    cublasLtMatmulHeuristicResult_t result = {};
    int returned = 0;
    cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 1, &result, &returned);
    const float alpha = 1.0f, beta = 0.0f;
    cublasLtMatmul(lt, op, &alpha, a, la, b, lb, &beta, c, lc, c, lc, &result.algo, work, work_bytes, stream);
    cublasLtMatmulPreferenceDestroy(pref);
}
