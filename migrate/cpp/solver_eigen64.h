#ifndef HIPMIGRATE_SOLVER_EIGEN64
#define HIPMIGRATE_SOLVER_EIGEN64
// hipmigrate: cuSOLVER's 64-bit symmetric and Hermitian eigensolvers (cusolverDnXsyevd, cusolverDnXsyevdx), which
// hipSOLVER lacks, on hipSOLVER's typed ones, in namespace hipmigrate_solver with HIP's spelling: the data type picks
// the function (real: syevd/syevdx, complex: heevd/heevdx), the sizes must fit an int, the device workspace is in
// bytes as cuSOLVER's, and no host workspace is needed.
#include <hipsolver/hipsolver.h>
#include <climits>
#include <cstdint>
#include <type_traits>

namespace hipmigrate_solver {
namespace detail {
inline bool fits(int64_t v) { return v >= 0 && v <= INT_MAX; }

// the typed hipSOLVER functions, by element type
inline hipsolverStatus_t size(hipsolverHandle_t h, hipsolverEigMode_t j, hipblasFillMode_t u, int n, const float* a,
                              int lda, const float* w, int* lwork) {
  return hipsolverDnSsyevd_bufferSize(h, j, u, n, a, lda, w, lwork);
}
inline hipsolverStatus_t size(hipsolverHandle_t h, hipsolverEigMode_t j, hipblasFillMode_t u, int n, const double* a,
                              int lda, const double* w, int* lwork) {
  return hipsolverDnDsyevd_bufferSize(h, j, u, n, a, lda, w, lwork);
}
inline hipsolverStatus_t size(hipsolverHandle_t h, hipsolverEigMode_t j, hipblasFillMode_t u, int n,
                              const hipFloatComplex* a, int lda, const float* w, int* lwork) {
  return hipsolverDnCheevd_bufferSize(h, j, u, n, a, lda, w, lwork);
}
inline hipsolverStatus_t size(hipsolverHandle_t h, hipsolverEigMode_t j, hipblasFillMode_t u, int n,
                              const hipDoubleComplex* a, int lda, const double* w, int* lwork) {
  return hipsolverDnZheevd_bufferSize(h, j, u, n, a, lda, w, lwork);
}
inline hipsolverStatus_t solve(hipsolverHandle_t h, hipsolverEigMode_t j, hipblasFillMode_t u, int n, float* a, int lda,
                               float* w, float* work, int lwork, int* info) {
  return hipsolverDnSsyevd(h, j, u, n, a, lda, w, work, lwork, info);
}
inline hipsolverStatus_t solve(hipsolverHandle_t h, hipsolverEigMode_t j, hipblasFillMode_t u, int n, double* a,
                               int lda, double* w, double* work, int lwork, int* info) {
  return hipsolverDnDsyevd(h, j, u, n, a, lda, w, work, lwork, info);
}
inline hipsolverStatus_t solve(hipsolverHandle_t h, hipsolverEigMode_t j, hipblasFillMode_t u, int n,
                               hipFloatComplex* a, int lda, float* w, hipFloatComplex* work, int lwork, int* info) {
  return hipsolverDnCheevd(h, j, u, n, a, lda, w, work, lwork, info);
}
inline hipsolverStatus_t solve(hipsolverHandle_t h, hipsolverEigMode_t j, hipblasFillMode_t u, int n,
                               hipDoubleComplex* a, int lda, double* w, hipDoubleComplex* work, int lwork, int* info) {
  return hipsolverDnZheevd(h, j, u, n, a, lda, w, work, lwork, info);
}
inline hipsolverStatus_t size(hipsolverHandle_t h, hipsolverEigMode_t j, hipsolverEigRange_t r, hipblasFillMode_t u,
                              int n, const float* a, int lda, float vl, float vu, int il, int iu, int* m,
                              const float* w, int* lwork) {
  return hipsolverDnSsyevdx_bufferSize(h, j, r, u, n, a, lda, vl, vu, il, iu, m, w, lwork);
}
inline hipsolverStatus_t size(hipsolverHandle_t h, hipsolverEigMode_t j, hipsolverEigRange_t r, hipblasFillMode_t u,
                              int n, const double* a, int lda, double vl, double vu, int il, int iu, int* m,
                              const double* w, int* lwork) {
  return hipsolverDnDsyevdx_bufferSize(h, j, r, u, n, a, lda, vl, vu, il, iu, m, w, lwork);
}
inline hipsolverStatus_t size(hipsolverHandle_t h, hipsolverEigMode_t j, hipsolverEigRange_t r, hipblasFillMode_t u,
                              int n, const hipFloatComplex* a, int lda, float vl, float vu, int il, int iu, int* m,
                              const float* w, int* lwork) {
  return hipsolverDnCheevdx_bufferSize(h, j, r, u, n, a, lda, vl, vu, il, iu, m, w, lwork);
}
inline hipsolverStatus_t size(hipsolverHandle_t h, hipsolverEigMode_t j, hipsolverEigRange_t r, hipblasFillMode_t u,
                              int n, const hipDoubleComplex* a, int lda, double vl, double vu, int il, int iu, int* m,
                              const double* w, int* lwork) {
  return hipsolverDnZheevdx_bufferSize(h, j, r, u, n, a, lda, vl, vu, il, iu, m, w, lwork);
}
inline hipsolverStatus_t solve(hipsolverHandle_t h, hipsolverEigMode_t j, hipsolverEigRange_t r, hipblasFillMode_t u,
                               int n, float* a, int lda, float vl, float vu, int il, int iu, int* m, float* w,
                               float* work, int lwork, int* info) {
  return hipsolverDnSsyevdx(h, j, r, u, n, a, lda, vl, vu, il, iu, m, w, work, lwork, info);
}
inline hipsolverStatus_t solve(hipsolverHandle_t h, hipsolverEigMode_t j, hipsolverEigRange_t r, hipblasFillMode_t u,
                               int n, double* a, int lda, double vl, double vu, int il, int iu, int* m, double* w,
                               double* work, int lwork, int* info) {
  return hipsolverDnDsyevdx(h, j, r, u, n, a, lda, vl, vu, il, iu, m, w, work, lwork, info);
}
inline hipsolverStatus_t solve(hipsolverHandle_t h, hipsolverEigMode_t j, hipsolverEigRange_t r, hipblasFillMode_t u,
                               int n, hipFloatComplex* a, int lda, float vl, float vu, int il, int iu, int* m, float* w,
                               hipFloatComplex* work, int lwork, int* info) {
  return hipsolverDnCheevdx(h, j, r, u, n, a, lda, vl, vu, il, iu, m, w, work, lwork, info);
}
inline hipsolverStatus_t solve(hipsolverHandle_t h, hipsolverEigMode_t j, hipsolverEigRange_t r, hipblasFillMode_t u,
                               int n, hipDoubleComplex* a, int lda, double vl, double vu, int il, int iu, int* m,
                               double* w, hipDoubleComplex* work, int lwork, int* info) {
  return hipsolverDnZheevdx(h, j, r, u, n, a, lda, vl, vu, il, iu, m, w, work, lwork, info);
}

// f(T*, R*) with the element type of A (T) and of the eigenvalues (R) that the data types name
template <class F>
inline hipsolverStatus_t typed(hipDataType a, hipDataType w, F f) {
  if (a == HIP_R_32F && w == HIP_R_32F) return f(static_cast<float*>(nullptr), static_cast<float*>(nullptr));
  if (a == HIP_R_64F && w == HIP_R_64F) return f(static_cast<double*>(nullptr), static_cast<double*>(nullptr));
  if (a == HIP_C_32F && w == HIP_R_32F) return f(static_cast<hipFloatComplex*>(nullptr), static_cast<float*>(nullptr));
  if (a == HIP_C_64F && w == HIP_R_64F) return f(static_cast<hipDoubleComplex*>(nullptr), static_cast<double*>(nullptr));
  return HIPSOLVER_STATUS_INVALID_VALUE;
}
}  // namespace detail

inline hipsolverStatus_t hipsolverDnXsyevd_bufferSize(hipsolverHandle_t h, hipsolverDnParams_t, hipsolverEigMode_t jobz,
                                                      hipblasFillMode_t uplo, int64_t n, hipDataType type_a,
                                                      const void* a, int64_t lda, hipDataType type_w, const void* w,
                                                      hipDataType, size_t* device_bytes, size_t* host_bytes) {
  if (!detail::fits(n) || !detail::fits(lda) || device_bytes == nullptr || host_bytes == nullptr)
    return HIPSOLVER_STATUS_INVALID_VALUE;
  return detail::typed(type_a, type_w, [&](auto t, auto r) {
    using T = std::remove_pointer_t<decltype(t)>;
    using R = std::remove_pointer_t<decltype(r)>;
    int lwork = 0;
    hipsolverStatus_t s = detail::size(h, jobz, uplo, (int)n, static_cast<const T*>(a), (int)lda,
                                       static_cast<const R*>(w), &lwork);
    *device_bytes = (size_t)lwork * sizeof(*t);
    *host_bytes = 0;
    return s;
  });
}

inline hipsolverStatus_t hipsolverDnXsyevd(hipsolverHandle_t h, hipsolverDnParams_t, hipsolverEigMode_t jobz,
                                           hipblasFillMode_t uplo, int64_t n, hipDataType type_a, void* a, int64_t lda,
                                           hipDataType type_w, void* w, hipDataType, void* device_buffer,
                                           size_t device_bytes, void*, size_t, int* info) {
  if (!detail::fits(n) || !detail::fits(lda)) return HIPSOLVER_STATUS_INVALID_VALUE;
  return detail::typed(type_a, type_w, [&](auto t, auto r) {
    using T = decltype(t);
    size_t lwork = device_bytes / sizeof(*t);
    return detail::solve(h, jobz, uplo, (int)n, static_cast<T>(a), (int)lda, static_cast<decltype(r)>(w),
                         static_cast<T>(device_buffer), lwork > INT_MAX ? INT_MAX : (int)lwork, info);
  });
}

inline hipsolverStatus_t hipsolverDnXsyevdx_bufferSize(hipsolverHandle_t h, hipsolverDnParams_t, hipsolverEigMode_t jobz,
                                                       hipsolverEigRange_t range, hipblasFillMode_t uplo, int64_t n,
                                                       hipDataType type_a, const void* a, int64_t lda, void* vl,
                                                       void* vu, int64_t il, int64_t iu, int64_t* found,
                                                       hipDataType type_w, const void* w, hipDataType,
                                                       size_t* device_bytes, size_t* host_bytes) {
  if (!detail::fits(n) || !detail::fits(lda) || !detail::fits(il) || !detail::fits(iu) || device_bytes == nullptr ||
      host_bytes == nullptr)
    return HIPSOLVER_STATUS_INVALID_VALUE;
  return detail::typed(type_a, type_w, [&](auto t, auto r) {
    using R = std::remove_pointer_t<decltype(r)>;
    int lwork = 0, m = 0;
    R low = vl != nullptr ? *static_cast<R*>(vl) : R(0), high = vu != nullptr ? *static_cast<R*>(vu) : R(0);
    hipsolverStatus_t s = detail::size(h, jobz, range, uplo, (int)n,
                                       static_cast<const std::remove_pointer_t<decltype(t)>*>(a), (int)lda, low, high,
                                       (int)il, (int)iu, &m, static_cast<const R*>(w), &lwork);
    if (found != nullptr) *found = m;
    *device_bytes = (size_t)lwork * sizeof(*t);
    *host_bytes = 0;
    return s;
  });
}

inline hipsolverStatus_t hipsolverDnXsyevdx(hipsolverHandle_t h, hipsolverDnParams_t, hipsolverEigMode_t jobz,
                                            hipsolverEigRange_t range, hipblasFillMode_t uplo, int64_t n,
                                            hipDataType type_a, void* a, int64_t lda, void* vl, void* vu, int64_t il,
                                            int64_t iu, int64_t* found, hipDataType type_w, void* w, hipDataType,
                                            void* device_buffer, size_t device_bytes, void*, size_t, int* info) {
  if (!detail::fits(n) || !detail::fits(lda) || !detail::fits(il) || !detail::fits(iu))
    return HIPSOLVER_STATUS_INVALID_VALUE;
  return detail::typed(type_a, type_w, [&](auto t, auto r) {
    using T = decltype(t);
    using R = std::remove_pointer_t<decltype(r)>;
    size_t lwork = device_bytes / sizeof(*t);
    int m = 0;
    R low = vl != nullptr ? *static_cast<R*>(vl) : R(0), high = vu != nullptr ? *static_cast<R*>(vu) : R(0);
    hipsolverStatus_t s = detail::solve(h, jobz, range, uplo, (int)n, static_cast<T>(a), (int)lda, low, high, (int)il,
                                        (int)iu, &m, static_cast<R*>(w), static_cast<T>(device_buffer),
                                        lwork > INT_MAX ? INT_MAX : (int)lwork, info);
    if (found != nullptr) *found = m;
    return s;
  });
}

}  // namespace hipmigrate_solver
#endif  // HIPMIGRATE_SOLVER_EIGEN64
