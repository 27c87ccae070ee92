// cublas_sgemm.cu
// C = alpha * A * B + beta * C with cuBLAS SGEMM on column-major matrices
// (A is M x K, B is K x N, C is M x N), compared with a CPU triple loop.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>

#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n",          \
                    __FILE__, __LINE__, #call, hipGetErrorString(err_));     \
            exit(EXIT_FAILURE);                                              \
        }                                                                    \
    } while (0)

#define CUBLAS_CHECK(call)                                                   \
    do {                                                                     \
        hipblasStatus_t st_ = (call);                                        \
        if (st_ != HIPBLAS_STATUS_SUCCESS) {                                 \
            fprintf(stderr, "cuBLAS error at %s:%d: %s failed: status %d\n", \
                    __FILE__, __LINE__, #call, (int)st_);                    \
            exit(EXIT_FAILURE);                                              \
        }                                                                    \
    } while (0)

// Column-major element (row, col) of a matrix with leading dimension ld.
#define IDX2C(row, col, ld) ((size_t)(col) * (ld) + (row))

static void fill(std::vector<float>& v, unsigned int seed)
{
    for (size_t i = 0; i < v.size(); ++i) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = (float)(seed >> 8) / 16777216.0f * 2.0f - 1.0f;  // [-1, 1)
    }
}

int main()
{
    const int M = 256, N = 192, K = 320;
    const float alpha = 1.5f, beta = 0.5f;

    std::vector<float> h_A((size_t)M * K), h_B((size_t)K * N), h_C((size_t)M * N);
    fill(h_A, 1u);
    fill(h_B, 2u);
    fill(h_C, 3u);

    float *d_A, *d_B, *d_C;
    CUDA_CHECK(hipMalloc((void**)&d_A, h_A.size() * sizeof(float)));
    CUDA_CHECK(hipMalloc((void**)&d_B, h_B.size() * sizeof(float)));
    CUDA_CHECK(hipMalloc((void**)&d_C, h_C.size() * sizeof(float)));
    CUDA_CHECK(hipMemcpy(d_A, h_A.data(), h_A.size() * sizeof(float), hipMemcpyHostToDevice));
    CUDA_CHECK(hipMemcpy(d_B, h_B.data(), h_B.size() * sizeof(float), hipMemcpyHostToDevice));
    CUDA_CHECK(hipMemcpy(d_C, h_C.data(), h_C.size() * sizeof(float), hipMemcpyHostToDevice));

    hipStream_t stream;
    CUDA_CHECK(hipStreamCreate(&stream));
    hipblasHandle_t handle;
    CUBLAS_CHECK(hipblasCreate(&handle));
    CUBLAS_CHECK(hipblasSetStream(handle, stream));

    CUBLAS_CHECK(hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, M, N, K,
                             &alpha, d_A, M, d_B, K, &beta, d_C, M));

    std::vector<float> h_out((size_t)M * N);
    CUDA_CHECK(hipMemcpyAsync(h_out.data(), d_C, h_out.size() * sizeof(float),
                               hipMemcpyDeviceToHost, stream));
    CUDA_CHECK(hipStreamSynchronize(stream));

    // CPU reference in double. Inputs lie in [-1, 1), so a float dot
    // product of length K is off by at most about K * 2^-24 * K = 6e-3 in
    // the worst case and ~1e-5 in practice; 1e-3 absolute plus 1e-4
    // relative catches any wrong index or transpose by a wide margin.
    double max_err = 0.0;
    int bad = 0;
    for (int j = 0; j < N; ++j) {
        for (int i = 0; i < M; ++i) {
            double acc = 0.0;
            for (int k = 0; k < K; ++k)
                acc += (double)h_A[IDX2C(i, k, M)] * (double)h_B[IDX2C(k, j, K)];
            double ref = alpha * acc + beta * (double)h_C[IDX2C(i, j, M)];
            double err = fabs((double)h_out[IDX2C(i, j, M)] - ref);
            if (err > max_err)
                max_err = err;
            if (err > 1e-3 + 1e-4 * fabs(ref))
                ++bad;
        }
    }

    printf("cublas_sgemm: M=%d N=%d K=%d max_abs_err=%.3e mismatches=%d\n",
           M, N, K, max_err, bad);

    CUBLAS_CHECK(hipblasDestroy(handle));
    CUDA_CHECK(hipStreamDestroy(stream));
    CUDA_CHECK(hipFree(d_A));
    CUDA_CHECK(hipFree(d_B));
    CUDA_CHECK(hipFree(d_C));

    printf("%s\n", bad == 0 ? "PASSED" : "FAILED");
    return bad == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
