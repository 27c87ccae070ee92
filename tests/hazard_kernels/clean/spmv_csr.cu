// Sparse matrix-vector product, one row per thread (CSR).
#include <cuda_runtime.h>

__global__ void spmvCsr(int rows, const int* rowPtr, const int* colIdx, const float* vals,
                        const float* x, float* y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float dot = 0.0f;
        for (int j = rowPtr[row]; j < rowPtr[row + 1]; ++j)
            dot += vals[j] * x[colIdx[j]];
        y[row] = dot;
    }
}
