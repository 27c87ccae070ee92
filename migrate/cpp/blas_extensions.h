#ifndef HIPMIGRATE_BLAS_EXTENSIONS
#define HIPMIGRATE_BLAS_EXTENSIONS
// hipmigrate: cuBLAS extensions hipBLAS lacks, on hipBLAS's own functions, in namespace hipmigrate_blas with HIP's
// spelling. CherkEx, Cherk3mEx, CsyrkEx and Csyrk3mEx are hipblasCherk and hipblasCsyrk where A and C are both
// complex single (the 8-bit complex input cuBLAS also takes is not supported); tpttr and trttp copy the triangle
// column by column on the handle's stream; the grouped GEMMs are one batched GEMM a group, with the scalars read from
// the host as cuBLAS reads them.
#include <hipblas/hipblas.h>
#include <cstddef>

namespace hipmigrate_blas {
namespace detail {
inline hipblasStatus_t copied(hipError_t e) {
  return e == hipSuccess ? HIPBLAS_STATUS_SUCCESS : HIPBLAS_STATUS_EXECUTION_FAILED;
}

// the packed triangle (column-major, as LAPACK packs it) to or from the full one, one column at a time
template <class T>
inline hipblasStatus_t packed(hipblasHandle_t h, hipblasFillMode_t uplo, int n, T* full, int lda, T* pack,
                              bool to_full) {
  if (n < 0 || lda < (n > 1 ? n : 1) || (uplo != HIPBLAS_FILL_MODE_UPPER && uplo != HIPBLAS_FILL_MODE_LOWER))
    return HIPBLAS_STATUS_INVALID_VALUE;
  if (n == 0) return HIPBLAS_STATUS_SUCCESS;
  if (full == nullptr || pack == nullptr) return HIPBLAS_STATUS_INVALID_VALUE;
  hipStream_t stream = nullptr;
  hipblasStatus_t s = hipblasGetStream(h, &stream);
  if (s != HIPBLAS_STATUS_SUCCESS) return s;
  size_t at = 0;
  for (int j = 0; j < n; ++j) {
    size_t first = uplo == HIPBLAS_FILL_MODE_UPPER ? 0 : (size_t)j, count = uplo == HIPBLAS_FILL_MODE_UPPER ? j + 1 : n - j;
    T* column = full + (size_t)j * lda + first;
    hipError_t e = to_full ? hipMemcpyAsync(column, pack + at, count * sizeof(T), hipMemcpyDeviceToDevice, stream)
                           : hipMemcpyAsync(pack + at, column, count * sizeof(T), hipMemcpyDeviceToDevice, stream);
    if (e != hipSuccess) return copied(e);
    at += count;
  }
  return HIPBLAS_STATUS_SUCCESS;
}

// runs f with the handle's scalars read from the host, as cuBLAS's grouped GEMMs read theirs
template <class F>
inline hipblasStatus_t on_host(hipblasHandle_t h, F f) {
  hipblasPointerMode_t mode;
  hipblasStatus_t s = hipblasGetPointerMode(h, &mode);
  if (s != HIPBLAS_STATUS_SUCCESS) return s;
  if (mode != HIPBLAS_POINTER_MODE_HOST && (s = hipblasSetPointerMode(h, HIPBLAS_POINTER_MODE_HOST)) != HIPBLAS_STATUS_SUCCESS)
    return s;
  s = f();
  if (mode != HIPBLAS_POINTER_MODE_HOST) {
    hipblasStatus_t back = hipblasSetPointerMode(h, mode);
    if (s == HIPBLAS_STATUS_SUCCESS) s = back;
  }
  return s;
}

inline hipblasStatus_t gemm(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                            const float* alpha, const float* const* a, int lda, const float* const* b, int ldb,
                            const float* beta, float* const* c, int ldc, int count) {
  return hipblasSgemmBatched(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, count);
}
inline hipblasStatus_t gemm(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                            const double* alpha, const double* const* a, int lda, const double* const* b, int ldb,
                            const double* beta, double* const* c, int ldc, int count) {
  return hipblasDgemmBatched(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, count);
}

// every group's sizes checked before any group runs, as one call that fails writes nothing
inline bool sizes_valid(const int m[], const int n[], const int k[], int groups, const int size[]) {
  if (groups < 0) return false;
  for (int g = 0; g < groups; ++g)
    if (size[g] < 0 || m[g] < 0 || n[g] < 0 || k[g] < 0) return false;
  return true;
}

template <class T>
inline hipblasStatus_t grouped(hipblasHandle_t h, const hipblasOperation_t ta[], const hipblasOperation_t tb[],
                               const int m[], const int n[], const int k[], const T alpha[], const T* const a[],
                               const int lda[], const T* const b[], const int ldb[], const T beta[], T* const c[],
                               const int ldc[], int groups, const int size[]) {
  if (!sizes_valid(m, n, k, groups, size)) return HIPBLAS_STATUS_INVALID_VALUE;
  return on_host(h, [&] {
    size_t at = 0;
    for (int g = 0; g < groups; ++g) {
      hipblasStatus_t s = gemm(h, ta[g], tb[g], m[g], n[g], k[g], &alpha[g], a + at, lda[g], b + at, ldb[g], &beta[g],
                               c + at, ldc[g], size[g]);
      if (s != HIPBLAS_STATUS_SUCCESS) return s;
      at += (size_t)size[g];
    }
    return HIPBLAS_STATUS_SUCCESS;
  });
}

// the bytes of one scalar for a compute type and the type of C (complex when C is)
inline size_t scalar_bytes(hipblasComputeType_t compute, hipDataType c) {
  size_t real = 4;
  if (compute == HIPBLAS_COMPUTE_64F || compute == HIPBLAS_COMPUTE_64F_PEDANTIC) real = 8;
  if (compute == HIPBLAS_COMPUTE_16F || compute == HIPBLAS_COMPUTE_16F_PEDANTIC) real = 2;
  bool complex = c == HIP_C_16F || c == HIP_C_32F || c == HIP_C_64F || c == HIP_C_16BF;
  return complex ? 2 * real : real;
}

inline bool complex_single(hipDataType a, hipDataType c) { return a == HIP_C_32F && c == HIP_C_32F; }
}  // namespace detail

inline hipblasStatus_t hipblasCherkEx(hipblasHandle_t h, hipblasFillMode_t uplo, hipblasOperation_t trans, int n, int k,
                                      const float* alpha, const void* a, hipDataType type_a, int lda, const float* beta,
                                      void* c, hipDataType type_c, int ldc) {
  if (!detail::complex_single(type_a, type_c)) return HIPBLAS_STATUS_NOT_SUPPORTED;
  return hipblasCherk(h, uplo, trans, n, k, alpha, static_cast<const hipComplex*>(a), lda, beta,
                      static_cast<hipComplex*>(c), ldc);
}

inline hipblasStatus_t hipblasCherk3mEx(hipblasHandle_t h, hipblasFillMode_t uplo, hipblasOperation_t trans, int n,
                                        int k, const float* alpha, const void* a, hipDataType type_a, int lda,
                                        const float* beta, void* c, hipDataType type_c, int ldc) {
  return hipblasCherkEx(h, uplo, trans, n, k, alpha, a, type_a, lda, beta, c, type_c, ldc);
}

inline hipblasStatus_t hipblasCsyrkEx(hipblasHandle_t h, hipblasFillMode_t uplo, hipblasOperation_t trans, int n, int k,
                                      const hipComplex* alpha, const void* a, hipDataType type_a, int lda,
                                      const hipComplex* beta, void* c, hipDataType type_c, int ldc) {
  if (!detail::complex_single(type_a, type_c)) return HIPBLAS_STATUS_NOT_SUPPORTED;
  return hipblasCsyrk(h, uplo, trans, n, k, alpha, static_cast<const hipComplex*>(a), lda, beta,
                      static_cast<hipComplex*>(c), ldc);
}

inline hipblasStatus_t hipblasCsyrk3mEx(hipblasHandle_t h, hipblasFillMode_t uplo, hipblasOperation_t trans, int n,
                                        int k, const hipComplex* alpha, const void* a, hipDataType type_a, int lda,
                                        const hipComplex* beta, void* c, hipDataType type_c, int ldc) {
  return hipblasCsyrkEx(h, uplo, trans, n, k, alpha, a, type_a, lda, beta, c, type_c, ldc);
}

inline hipblasStatus_t hipblasStpttr(hipblasHandle_t h, hipblasFillMode_t uplo, int n, const float* ap, float* a,
                                     int lda) {
  return detail::packed(h, uplo, n, a, lda, const_cast<float*>(ap), true);
}
inline hipblasStatus_t hipblasDtpttr(hipblasHandle_t h, hipblasFillMode_t uplo, int n, const double* ap, double* a,
                                     int lda) {
  return detail::packed(h, uplo, n, a, lda, const_cast<double*>(ap), true);
}
inline hipblasStatus_t hipblasCtpttr(hipblasHandle_t h, hipblasFillMode_t uplo, int n, const hipComplex* ap,
                                     hipComplex* a, int lda) {
  return detail::packed(h, uplo, n, a, lda, const_cast<hipComplex*>(ap), true);
}
inline hipblasStatus_t hipblasZtpttr(hipblasHandle_t h, hipblasFillMode_t uplo, int n, const hipDoubleComplex* ap,
                                     hipDoubleComplex* a, int lda) {
  return detail::packed(h, uplo, n, a, lda, const_cast<hipDoubleComplex*>(ap), true);
}
inline hipblasStatus_t hipblasStrttp(hipblasHandle_t h, hipblasFillMode_t uplo, int n, const float* a, int lda,
                                     float* ap) {
  return detail::packed(h, uplo, n, const_cast<float*>(a), lda, ap, false);
}
inline hipblasStatus_t hipblasDtrttp(hipblasHandle_t h, hipblasFillMode_t uplo, int n, const double* a, int lda,
                                     double* ap) {
  return detail::packed(h, uplo, n, const_cast<double*>(a), lda, ap, false);
}
inline hipblasStatus_t hipblasCtrttp(hipblasHandle_t h, hipblasFillMode_t uplo, int n, const hipComplex* a, int lda,
                                     hipComplex* ap) {
  return detail::packed(h, uplo, n, const_cast<hipComplex*>(a), lda, ap, false);
}
inline hipblasStatus_t hipblasZtrttp(hipblasHandle_t h, hipblasFillMode_t uplo, int n, const hipDoubleComplex* a,
                                     int lda, hipDoubleComplex* ap) {
  return detail::packed(h, uplo, n, const_cast<hipDoubleComplex*>(a), lda, ap, false);
}

inline hipblasStatus_t hipblasSgemmGroupedBatched(hipblasHandle_t h, const hipblasOperation_t ta[],
                                                  const hipblasOperation_t tb[], const int m[], const int n[],
                                                  const int k[], const float alpha[], const float* const a[],
                                                  const int lda[], const float* const b[], const int ldb[],
                                                  const float beta[], float* const c[], const int ldc[], int groups,
                                                  const int size[]) {
  return detail::grouped(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, groups, size);
}
inline hipblasStatus_t hipblasDgemmGroupedBatched(hipblasHandle_t h, const hipblasOperation_t ta[],
                                                  const hipblasOperation_t tb[], const int m[], const int n[],
                                                  const int k[], const double alpha[], const double* const a[],
                                                  const int lda[], const double* const b[], const int ldb[],
                                                  const double beta[], double* const c[], const int ldc[], int groups,
                                                  const int size[]) {
  return detail::grouped(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, groups, size);
}

inline hipblasStatus_t hipblasGemmGroupedBatchedEx(hipblasHandle_t h, const hipblasOperation_t ta[],
                                                   const hipblasOperation_t tb[], const int m[], const int n[],
                                                   const int k[], const void* alpha, const void* const a[],
                                                   hipDataType type_a, const int lda[], const void* const b[],
                                                   hipDataType type_b, const int ldb[], const void* beta,
                                                   void* const c[], hipDataType type_c, const int ldc[], int groups,
                                                   const int size[], hipblasComputeType_t compute) {
  if (!detail::sizes_valid(m, n, k, groups, size)) return HIPBLAS_STATUS_INVALID_VALUE;
  size_t scalar = detail::scalar_bytes(compute, type_c);
  return detail::on_host(h, [&] {
    size_t at = 0;
    for (int g = 0; g < groups; ++g) {
      hipblasStatus_t s = hipblasGemmBatchedEx(
          h, ta[g], tb[g], m[g], n[g], k[g], static_cast<const char*>(alpha) + g * scalar,
          (const void**)(a + at), type_a, lda[g], (const void**)(b + at), type_b, ldb[g],
          static_cast<const char*>(beta) + g * scalar, (void**)(c + at), type_c, ldc[g], size[g], compute,
          HIPBLAS_GEMM_DEFAULT);
      if (s != HIPBLAS_STATUS_SUCCESS) return s;
      at += (size_t)size[g];
    }
    return HIPBLAS_STATUS_SUCCESS;
  });
}

}  // namespace hipmigrate_blas
#endif  // HIPMIGRATE_BLAS_EXTENSIONS
