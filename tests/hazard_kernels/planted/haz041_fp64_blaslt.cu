// expect: HAZ041 9, HAZ041 9, HAZ041 10, HAZ041 11, HAZ041 12
// A double-precision GEMM through cuBLASLt (line 9 names double twice: compute and scale type). cuBLASLt has
// kernels for it; hipBLASLt has none for double (double GEMMs belong to hipBLAS/rocBLAS).
#include <cublasLt.h>
#include <cuda_runtime.h>

void make_layouts(int m, int n, int k, cublasLtMatrixLayout_t* a, cublasLtMatrixLayout_t* b,
                  cublasLtMatrixLayout_t* c, cublasLtMatmulDesc_t* op) {
    cublasLtMatmulDescCreate(op, CUBLAS_COMPUTE_64F, CUDA_R_64F);
    cublasLtMatrixLayoutCreate(a, CUDA_R_64F, m, k, m);
    cublasLtMatrixLayoutCreate(b, CUDA_R_64F, k, n, k);
    cublasLtMatrixLayoutCreate(c, CUDA_R_64F, m, n, m);
}
