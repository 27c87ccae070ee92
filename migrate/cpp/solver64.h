#ifndef HIPMIGRATE_SOLVER64
#define HIPMIGRATE_SOLVER64
// hipmigrate: cuSOLVER's 64-bit symmetric and Hermitian eigensolvers (cusolverDnXsyevd, cusolverDnXsyevdx) and SVDs
// (cusolverDnXgesvd, cusolverDnXgesvdp, cusolverDnXgesvdr), which hipSOLVER lacks, on hipSOLVER's typed ones, in
// namespace hipmigrate_solver with HIP's spelling: the data type picks the function (real: syevd/syevdx, complex:
// heevd/heevdx; gesvd; gesvdj for gesvdp and gesvdr), the sizes must fit an int, the device workspace is in bytes as
// cuSOLVER's and holds what the typed function needs besides its own workspace, and no host workspace is needed.
#include <hipsolver/hipsolver.h>
#include <hip/hip_runtime_api.h>
#include <climits>
#include <cstddef>
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

// the typed SVDs, by element type: gesvd (U and VT) and gesvdj (U and V), with gesvdj's parameters made here
inline hipsolverStatus_t svd_size(hipsolverHandle_t h, int m, int n, float*, int* lwork) {
  return hipsolverDnSgesvd_bufferSize(h, m, n, lwork);
}
inline hipsolverStatus_t svd_size(hipsolverHandle_t h, int m, int n, double*, int* lwork) {
  return hipsolverDnDgesvd_bufferSize(h, m, n, lwork);
}
inline hipsolverStatus_t svd_size(hipsolverHandle_t h, int m, int n, hipFloatComplex*, int* lwork) {
  return hipsolverDnCgesvd_bufferSize(h, m, n, lwork);
}
inline hipsolverStatus_t svd_size(hipsolverHandle_t h, int m, int n, hipDoubleComplex*, int* lwork) {
  return hipsolverDnZgesvd_bufferSize(h, m, n, lwork);
}
inline hipsolverStatus_t svd(hipsolverHandle_t h, signed char ju, signed char jv, int m, int n, float* a, int lda,
                             float* s, float* u, int ldu, float* vt, int ldvt, float* work, int lwork, float* rwork,
                             int* info) {
  return hipsolverDnSgesvd(h, ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, info);
}
inline hipsolverStatus_t svd(hipsolverHandle_t h, signed char ju, signed char jv, int m, int n, double* a, int lda,
                             double* s, double* u, int ldu, double* vt, int ldvt, double* work, int lwork,
                             double* rwork, int* info) {
  return hipsolverDnDgesvd(h, ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, info);
}
inline hipsolverStatus_t svd(hipsolverHandle_t h, signed char ju, signed char jv, int m, int n, hipFloatComplex* a,
                             int lda, float* s, hipFloatComplex* u, int ldu, hipFloatComplex* vt, int ldvt,
                             hipFloatComplex* work, int lwork, float* rwork, int* info) {
  return hipsolverDnCgesvd(h, ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, info);
}
inline hipsolverStatus_t svd(hipsolverHandle_t h, signed char ju, signed char jv, int m, int n, hipDoubleComplex* a,
                             int lda, double* s, hipDoubleComplex* u, int ldu, hipDoubleComplex* vt, int ldvt,
                             hipDoubleComplex* work, int lwork, double* rwork, int* info) {
  return hipsolverDnZgesvd(h, ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, info);
}
inline hipsolverStatus_t jacobi_size(hipsolverHandle_t h, hipsolverEigMode_t j, int econ, int m, int n, const float* a,
                                     int lda, const float* s, const float* u, int ldu, const float* v, int ldv,
                                     int* lwork, hipsolverGesvdjInfo_t p) {
  return hipsolverDnSgesvdj_bufferSize(h, j, econ, m, n, a, lda, s, u, ldu, v, ldv, lwork, p);
}
inline hipsolverStatus_t jacobi_size(hipsolverHandle_t h, hipsolverEigMode_t j, int econ, int m, int n,
                                     const double* a, int lda, const double* s, const double* u, int ldu,
                                     const double* v, int ldv, int* lwork, hipsolverGesvdjInfo_t p) {
  return hipsolverDnDgesvdj_bufferSize(h, j, econ, m, n, a, lda, s, u, ldu, v, ldv, lwork, p);
}
inline hipsolverStatus_t jacobi_size(hipsolverHandle_t h, hipsolverEigMode_t j, int econ, int m, int n,
                                     const hipFloatComplex* a, int lda, const float* s, const hipFloatComplex* u,
                                     int ldu, const hipFloatComplex* v, int ldv, int* lwork, hipsolverGesvdjInfo_t p) {
  return hipsolverDnCgesvdj_bufferSize(h, j, econ, m, n, a, lda, s, u, ldu, v, ldv, lwork, p);
}
inline hipsolverStatus_t jacobi_size(hipsolverHandle_t h, hipsolverEigMode_t j, int econ, int m, int n,
                                     const hipDoubleComplex* a, int lda, const double* s, const hipDoubleComplex* u,
                                     int ldu, const hipDoubleComplex* v, int ldv, int* lwork, hipsolverGesvdjInfo_t p) {
  return hipsolverDnZgesvdj_bufferSize(h, j, econ, m, n, a, lda, s, u, ldu, v, ldv, lwork, p);
}
inline hipsolverStatus_t jacobi(hipsolverHandle_t h, hipsolverEigMode_t j, int econ, int m, int n, float* a, int lda,
                                float* s, float* u, int ldu, float* v, int ldv, float* work, int lwork, int* info,
                                hipsolverGesvdjInfo_t p) {
  return hipsolverDnSgesvdj(h, j, econ, m, n, a, lda, s, u, ldu, v, ldv, work, lwork, info, p);
}
inline hipsolverStatus_t jacobi(hipsolverHandle_t h, hipsolverEigMode_t j, int econ, int m, int n, double* a, int lda,
                                double* s, double* u, int ldu, double* v, int ldv, double* work, int lwork, int* info,
                                hipsolverGesvdjInfo_t p) {
  return hipsolverDnDgesvdj(h, j, econ, m, n, a, lda, s, u, ldu, v, ldv, work, lwork, info, p);
}
inline hipsolverStatus_t jacobi(hipsolverHandle_t h, hipsolverEigMode_t j, int econ, int m, int n, hipFloatComplex* a,
                                int lda, float* s, hipFloatComplex* u, int ldu, hipFloatComplex* v, int ldv,
                                hipFloatComplex* work, int lwork, int* info, hipsolverGesvdjInfo_t p) {
  return hipsolverDnCgesvdj(h, j, econ, m, n, a, lda, s, u, ldu, v, ldv, work, lwork, info, p);
}
inline hipsolverStatus_t jacobi(hipsolverHandle_t h, hipsolverEigMode_t j, int econ, int m, int n,
                                hipDoubleComplex* a, int lda, double* s, hipDoubleComplex* u, int ldu,
                                hipDoubleComplex* v, int ldv, hipDoubleComplex* work, int lwork, int* info,
                                hipsolverGesvdjInfo_t p) {
  return hipsolverDnZgesvdj(h, j, econ, m, n, a, lda, s, u, ldu, v, ldv, work, lwork, info, p);
}

// bytes rounded up so that what follows in the workspace stays aligned
inline size_t aligned(size_t bytes) { return (bytes + 255) / 256 * 256; }

// gesvdj's parameters for one call, destroyed with it
struct Jacobi {
  hipsolverGesvdjInfo_t p = nullptr;
  hipsolverStatus_t made = hipsolverDnCreateGesvdjInfo(&p);
  ~Jacobi() {
    if (made == HIPSOLVER_STATUS_SUCCESS) hipsolverDnDestroyGesvdjInfo(p);
  }
};

// the workspace of gesvdj for an m-by-n T matrix with econ and vectors as asked, in elements (-1 on failure)
template <class T, class R>
inline int jacobi_work(hipsolverHandle_t h, hipsolverEigMode_t jobz, int econ, int m, int n, const T* a, int lda,
                       int ldu, int ldv, hipsolverGesvdjInfo_t p, hipsolverStatus_t* s) {
  int lwork = 0;
  *s = jacobi_size(h, jobz, econ, m, n, a, lda, static_cast<const R*>(nullptr), static_cast<const T*>(nullptr), ldu,
                   static_cast<const T*>(nullptr), ldv, &lwork, p);
  return *s == HIPSOLVER_STATUS_SUCCESS ? lwork : -1;
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

inline hipsolverStatus_t hipsolverDnXgesvd_bufferSize(hipsolverHandle_t h, hipsolverDnParams_t, signed char, signed char,
                                                      int64_t m, int64_t n, hipDataType type_a, const void*, int64_t lda,
                                                      hipDataType type_s, const void*, hipDataType, const void*,
                                                      int64_t, hipDataType, const void*, int64_t, hipDataType,
                                                      size_t* device_bytes, size_t* host_bytes) {
  if (!detail::fits(m) || !detail::fits(n) || !detail::fits(lda) || device_bytes == nullptr || host_bytes == nullptr)
    return HIPSOLVER_STATUS_INVALID_VALUE;
  return detail::typed(type_a, type_s, [&](auto t, auto r) {
    int lwork = 0;
    hipsolverStatus_t s = detail::svd_size(h, (int)m, (int)n, t, &lwork);
    // the typed function's workspace, then the superdiagonal it leaves in rwork
    *device_bytes = detail::aligned((size_t)lwork * sizeof(*t)) + (size_t)(m < n ? m : n) * sizeof(*r);
    *host_bytes = 0;
    return s;
  });
}

inline hipsolverStatus_t hipsolverDnXgesvd(hipsolverHandle_t h, hipsolverDnParams_t, signed char jobu, signed char jobvt,
                                           int64_t m, int64_t n, hipDataType type_a, void* a, int64_t lda,
                                           hipDataType type_s, void* s, hipDataType, void* u, int64_t ldu, hipDataType,
                                           void* vt, int64_t ldvt, hipDataType, void* device_buffer,
                                           size_t device_bytes, void*, size_t, int* info) {
  if (!detail::fits(m) || !detail::fits(n) || !detail::fits(lda) || !detail::fits(ldu) || !detail::fits(ldvt))
    return HIPSOLVER_STATUS_INVALID_VALUE;
  return detail::typed(type_a, type_s, [&](auto t, auto r) {
    using T = decltype(t);
    using R = decltype(r);
    int lwork = 0;
    hipsolverStatus_t st = detail::svd_size(h, (int)m, (int)n, t, &lwork);
    if (st != HIPSOLVER_STATUS_SUCCESS) return st;
    size_t work_bytes = detail::aligned((size_t)lwork * sizeof(*t));
    if (device_buffer == nullptr || device_bytes < work_bytes + (size_t)(m < n ? m : n) * sizeof(*r))
      return HIPSOLVER_STATUS_INVALID_VALUE;
    return detail::svd(h, jobu, jobvt, (int)m, (int)n, static_cast<T>(a), (int)lda, static_cast<R>(s),
                       static_cast<T>(u), (int)ldu, static_cast<T>(vt), (int)ldvt, static_cast<T>(device_buffer), lwork,
                       reinterpret_cast<R>(static_cast<char*>(device_buffer) + work_bytes), info);
  });
}

inline hipsolverStatus_t hipsolverDnXgesvdp_bufferSize(hipsolverHandle_t h, hipsolverDnParams_t, hipsolverEigMode_t jobz,
                                                       int econ, int64_t m, int64_t n, hipDataType type_a,
                                                       const void* a, int64_t lda, hipDataType type_s, const void*,
                                                       hipDataType, const void*, int64_t ldu, hipDataType,
                                                       const void*, int64_t ldv, hipDataType, size_t* device_bytes,
                                                       size_t* host_bytes) {
  if (!detail::fits(m) || !detail::fits(n) || !detail::fits(lda) || !detail::fits(ldu) || !detail::fits(ldv) ||
      device_bytes == nullptr || host_bytes == nullptr)
    return HIPSOLVER_STATUS_INVALID_VALUE;
  return detail::typed(type_a, type_s, [&](auto t, auto r) {
    using T = std::remove_pointer_t<decltype(t)>;
    detail::Jacobi params;
    if (params.made != HIPSOLVER_STATUS_SUCCESS) return params.made;
    hipsolverStatus_t s;
    int lwork = detail::jacobi_work<T, std::remove_pointer_t<decltype(r)>>(
        h, jobz, econ, (int)m, (int)n, static_cast<const T*>(a), (int)lda, (int)ldu, (int)ldv, params.p, &s);
    *device_bytes = lwork < 0 ? 0 : (size_t)lwork * sizeof(T);
    *host_bytes = 0;
    return s;
  });
}

inline hipsolverStatus_t hipsolverDnXgesvdp(hipsolverHandle_t h, hipsolverDnParams_t, hipsolverEigMode_t jobz, int econ,
                                            int64_t m, int64_t n, hipDataType type_a, void* a, int64_t lda,
                                            hipDataType type_s, void* s, hipDataType, void* u, int64_t ldu, hipDataType,
                                            void* v, int64_t ldv, hipDataType, void* device_buffer,
                                            size_t device_bytes, void*, size_t, int* info, double* err_sigma) {
  if (!detail::fits(m) || !detail::fits(n) || !detail::fits(lda) || !detail::fits(ldu) || !detail::fits(ldv))
    return HIPSOLVER_STATUS_INVALID_VALUE;
  return detail::typed(type_a, type_s, [&](auto t, auto r) {
    using T = std::remove_pointer_t<decltype(t)>;
    using R = std::remove_pointer_t<decltype(r)>;
    detail::Jacobi params;
    if (params.made != HIPSOLVER_STATUS_SUCCESS) return params.made;
    hipsolverStatus_t st;
    int lwork = detail::jacobi_work<T, R>(h, jobz, econ, (int)m, (int)n, static_cast<const T*>(a), (int)lda, (int)ldu,
                                          (int)ldv, params.p, &st);
    if (lwork < 0) return st;
    if (device_buffer == nullptr || device_bytes < (size_t)lwork * sizeof(T)) return HIPSOLVER_STATUS_INVALID_VALUE;
    // gesvdj computes the SVD itself: no polar decomposition whose perturbation cuSOLVER would report
    if (err_sigma != nullptr) *err_sigma = 0;
    return detail::jacobi(h, jobz, econ, (int)m, (int)n, static_cast<T*>(a), (int)lda, static_cast<R*>(s),
                          static_cast<T*>(u), (int)ldu, static_cast<T*>(v), (int)ldv, static_cast<T*>(device_buffer),
                          lwork, info, params.p);
  });
}

namespace detail {
// gesvdr's workspace: gesvdj's, then the whole S, U (m x min) and V (n x min) that the first k columns come from
struct Rand {
  size_t work, s, u, v, total;
};
template <class T, class R>
inline Rand rand_layout(int lwork, int m, int n) {
  size_t k = (size_t)(m < n ? m : n);
  Rand l;
  l.work = 0;
  l.s = aligned((size_t)lwork * sizeof(T));
  l.u = l.s + aligned(k * sizeof(R));
  l.v = l.u + aligned((size_t)m * k * sizeof(T));
  l.total = l.v + (size_t)n * k * sizeof(T);
  return l;
}
inline bool rand_args(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldu, int64_t ldv) {
  return fits(m) && fits(n) && fits(lda) && fits(ldu) && fits(ldv) && k >= 1 && k <= (m < n ? m : n) && lda >= m &&
         ldu >= m && ldv >= n;
}
inline hipsolverEigMode_t rand_mode(signed char jobu, signed char jobv) {
  return jobu == 'S' || jobu == 's' || jobv == 'S' || jobv == 's' ? HIPSOLVER_EIG_MODE_VECTOR
                                                                  : HIPSOLVER_EIG_MODE_NOVECTOR;
}
}  // namespace detail

inline hipsolverStatus_t hipsolverDnXgesvdr_bufferSize(hipsolverHandle_t h, hipsolverDnParams_t, signed char jobu,
                                                       signed char jobv, int64_t m, int64_t n, int64_t k, int64_t,
                                                       int64_t, hipDataType type_a, const void* a, int64_t lda,
                                                       hipDataType type_s, const void*, hipDataType, const void*,
                                                       int64_t ldu, hipDataType, const void*, int64_t ldv, hipDataType,
                                                       size_t* device_bytes, size_t* host_bytes) {
  if (!detail::rand_args(m, n, k, lda, ldu, ldv) || device_bytes == nullptr || host_bytes == nullptr)
    return HIPSOLVER_STATUS_INVALID_VALUE;
  return detail::typed(type_a, type_s, [&](auto t, auto r) {
    using T = std::remove_pointer_t<decltype(t)>;
    using R = std::remove_pointer_t<decltype(r)>;
    detail::Jacobi params;
    if (params.made != HIPSOLVER_STATUS_SUCCESS) return params.made;
    hipsolverStatus_t s;
    int lwork = detail::jacobi_work<T, R>(h, detail::rand_mode(jobu, jobv), 1, (int)m, (int)n, static_cast<const T*>(a),
                                          (int)lda, (int)m, (int)n, params.p, &s);
    *device_bytes = lwork < 0 ? 0 : detail::rand_layout<T, R>(lwork, (int)m, (int)n).total;
    *host_bytes = 0;
    return s;
  });
}

inline hipsolverStatus_t hipsolverDnXgesvdr(hipsolverHandle_t h, hipsolverDnParams_t, signed char jobu, signed char jobv,
                                            int64_t m, int64_t n, int64_t k, int64_t, int64_t, hipDataType type_a,
                                            void* a, int64_t lda, hipDataType type_s, void* s, hipDataType, void* u,
                                            int64_t ldu, hipDataType, void* v, int64_t ldv, hipDataType,
                                            void* device_buffer, size_t device_bytes, void*, size_t, int* info) {
  if (!detail::rand_args(m, n, k, lda, ldu, ldv)) return HIPSOLVER_STATUS_INVALID_VALUE;
  return detail::typed(type_a, type_s, [&](auto t, auto r) {
    using T = std::remove_pointer_t<decltype(t)>;
    using R = std::remove_pointer_t<decltype(r)>;
    detail::Jacobi params;
    if (params.made != HIPSOLVER_STATUS_SUCCESS) return params.made;
    hipsolverEigMode_t jobz = detail::rand_mode(jobu, jobv);
    int rows = (int)m, cols = (int)n;
    hipsolverStatus_t st;
    int lwork = detail::jacobi_work<T, R>(h, jobz, 1, rows, cols, static_cast<const T*>(a), (int)lda, rows, cols,
                                          params.p, &st);
    if (lwork < 0) return st;
    detail::Rand l = detail::rand_layout<T, R>(lwork, rows, cols);
    if (device_buffer == nullptr || device_bytes < l.total) return HIPSOLVER_STATUS_INVALID_VALUE;
    char* base = static_cast<char*>(device_buffer);
    T* whole_u = reinterpret_cast<T*>(base + l.u);
    T* whole_v = reinterpret_cast<T*>(base + l.v);
    R* whole_s = reinterpret_cast<R*>(base + l.s);
    // the exact SVD (econ), of which the k leading triplets are what the randomized one approximates
    st = detail::jacobi(h, jobz, 1, rows, cols, static_cast<T*>(a), (int)lda, whole_s, whole_u, rows, whole_v, cols,
                        reinterpret_cast<T*>(base + l.work), lwork, info, params.p);
    if (st != HIPSOLVER_STATUS_SUCCESS) return st;
    hipStream_t stream = nullptr;
    if ((st = hipsolverGetStream(h, &stream)) != HIPSOLVER_STATUS_SUCCESS) return st;
    hipError_t e = hipMemcpyAsync(s, whole_s, (size_t)k * sizeof(R), hipMemcpyDeviceToDevice, stream);
    if (e == hipSuccess && (jobu == 'S' || jobu == 's'))
      e = hipMemcpy2DAsync(u, (size_t)ldu * sizeof(T), whole_u, (size_t)rows * sizeof(T), (size_t)rows * sizeof(T),
                           (size_t)k, hipMemcpyDeviceToDevice, stream);
    if (e == hipSuccess && (jobv == 'S' || jobv == 's'))
      e = hipMemcpy2DAsync(v, (size_t)ldv * sizeof(T), whole_v, (size_t)cols * sizeof(T), (size_t)cols * sizeof(T),
                           (size_t)k, hipMemcpyDeviceToDevice, stream);
    return e == hipSuccess ? HIPSOLVER_STATUS_SUCCESS : HIPSOLVER_STATUS_INTERNAL_ERROR;
  });
}

}  // namespace hipmigrate_solver
#endif  // HIPMIGRATE_SOLVER64
