// The cuBLAS extensions hipmigrate writes on hipBLAS's functions (migrate/cpp/blas_extensions.h) against cuBLAS's own,
// on an NVIDIA GPU: CherkEx, Cherk3mEx, CsyrkEx and Csyrk3mEx for both triangles, untransposed and (conjugate)
// transposed, to 1e-5; tpttr and trttp for the four element types and both triangles, bit for bit over the whole
// destination (the part left alone included); the grouped GEMMs on three groups, one of them empty, with the block's
// call made in device pointer mode, which it must leave as it found it; CherkEx refusing 8-bit complex input.
// Prints one line per case and "N passed, M failed".
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "blas_extensions.h"

static unsigned state = 2024;
static double rnd() { return (state = state * 1664525u + 1013904223u) / 4294967296.0 - 0.5; }

template <class T> struct Real { typedef T R; };
template <> struct Real<cuComplex> { typedef float R; };
template <> struct Real<cuDoubleComplex> { typedef double R; };

template <class T> static T make(double re, double im);
template <> float make<float>(double re, double) { return (float)re; }
template <> double make<double>(double re, double) { return re; }
template <> cuComplex make<cuComplex>(double re, double im) { return make_cuComplex((float)re, (float)im); }
template <> cuDoubleComplex make<cuDoubleComplex>(double re, double im) { return make_cuDoubleComplex(re, im); }

template <class T> static std::vector<T> random(size_t count) {
  std::vector<T> v(count);
  for (T& x : v) x = make<T>(rnd(), rnd());
  return v;
}
template <class T> static T* upload(const std::vector<T>& v) {
  T* d;
  cudaMalloc(&d, sizeof(T) * (v.empty() ? 1 : v.size()));
  cudaMemcpy(d, v.data(), sizeof(T) * v.size(), cudaMemcpyHostToDevice);
  return d;
}
template <class T> static std::vector<T> download(const T* d, size_t count) {
  std::vector<T> v(count);
  cudaMemcpy(v.data(), d, sizeof(T) * count, cudaMemcpyDeviceToHost);
  return v;
}

// the larger of two differences, a NaN winning
static double worst(double a, double b) { return b > a || b != b ? b : a; }

// the largest difference between the real numbers (parts of complex ones) of x and y, and the largest magnitude in x
template <class T> static double max_diff(const std::vector<T>& x, const std::vector<T>& y, double* scale) {
  typedef typename Real<T>::R R;
  const R *p = reinterpret_cast<const R*>(x.data()), *q = reinterpret_cast<const R*>(y.data());
  double diff = 0, s = 0;
  for (size_t i = 0; i < x.size() * sizeof(T) / sizeof(R); ++i) {
    diff = worst(diff, fabs((double)p[i] - (double)q[i]));
    s = fmax(s, fabs((double)p[i]));
  }
  if (scale) *scale = s;
  return diff;
}

static int passed = 0, failed = 0;

// with the statuses cuBLAS's function and the block's returned
static void report(const char* what, bool ok, double diff, int theirs, int ours) {
  printf("%-48s max|diff| %-10.3g status %d / %d  %s\n", what, diff, theirs, ours, ok ? "ok" : "FAILED");
  (ok ? passed : failed)++;
}

static const char* triangle(int upper) { return upper ? "upper" : "lower"; }

// herk (S float) or syrk (S cuComplex), C = alpha op(A) op(A)^H or ^T + beta C, n 7, k 5
template <class S>
using RankK = cublasStatus_t (*)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int, int, const S*, const void*,
                                 cudaDataType, int, const S*, void*, cudaDataType, int);

template <class S>
static void rank_k(cublasHandle_t h, const char* name, RankK<S> theirs, RankK<S> ours, cublasOperation_t trans,
                   S alpha, S beta) {
  const int n = 7, k = 5, lda = 9, ldc = 8;
  for (int upper = 0; upper < 2; ++upper)
    for (int t = 0; t < 2; ++t) {
      cublasFillMode_t uplo = upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
      cublasOperation_t op = t ? trans : CUBLAS_OP_N;
      std::vector<cuComplex> a = random<cuComplex>((size_t)lda * (t ? n : k));
      std::vector<cuComplex> c = random<cuComplex>((size_t)ldc * n);
      cuComplex *da = upload(a), *c1 = upload(c), *c2 = upload(c);
      cublasStatus_t s1 = theirs(h, uplo, op, n, k, &alpha, da, CUDA_C_32F, lda, &beta, c1, CUDA_C_32F, ldc);
      cublasStatus_t s2 = ours(h, uplo, op, n, k, &alpha, da, CUDA_C_32F, lda, &beta, c2, CUDA_C_32F, ldc);
      double scale, diff = max_diff(download(c1, c.size()), download(c2, c.size()), &scale);
      char what[64];
      char letter = t ? (trans == CUBLAS_OP_C ? 'C' : 'T') : 'N';
      snprintf(what, sizeof(what), "%s %s op %c", name, triangle(upper), letter);
      bool close = diff <= 1e-5 * fmax(scale, 1.0);
      report(what, s1 == CUBLAS_STATUS_SUCCESS && s2 == CUBLAS_STATUS_SUCCESS && close, diff, s1, s2);
      cudaFree(da);
      cudaFree(c1);
      cudaFree(c2);
    }
}

// tpttr (packed to full) and trttp (full to packed), n 9, lda 11, onto a destination filled with a sentinel
template <class T> using Tpttr = cublasStatus_t (*)(cublasHandle_t, cublasFillMode_t, int, const T*, T*, int);
template <class T> using Trttp = cublasStatus_t (*)(cublasHandle_t, cublasFillMode_t, int, const T*, int, T*);

template <class T>
static void packing(cublasHandle_t h, char letter, Tpttr<T> tp_theirs, Tpttr<T> tp_ours, Trttp<T> tr_theirs,
                    Trttp<T> tr_ours) {
  const int n = 9, lda = 11;
  const size_t full = (size_t)lda * n, packed = (size_t)n * (n + 1) / 2 + 3;  // 3 past the packed triangle
  for (int upper = 0; upper < 2; ++upper)
    for (int to_full = 0; to_full < 2; ++to_full) {
      cublasFillMode_t uplo = upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
      size_t in = to_full ? packed : full, out = to_full ? full : packed;
      std::vector<T> src = random<T>(in), dst(out, make<T>(-1234.5, 678.25));
      T *ds = upload(src), *d1 = upload(dst), *d2 = upload(dst);
      cublasStatus_t s1 = to_full ? tp_theirs(h, uplo, n, ds, d1, lda) : tr_theirs(h, uplo, n, ds, lda, d1);
      cublasStatus_t s2 = to_full ? tp_ours(h, uplo, n, ds, d2, lda) : tr_ours(h, uplo, n, ds, lda, d2);
      std::vector<T> r1 = download(d1, out), r2 = download(d2, out);
      double diff = max_diff(r1, r2, nullptr);
      bool same = memcmp(r1.data(), r2.data(), sizeof(T) * out) == 0;
      bool moved = memcmp(r1.data(), dst.data(), sizeof(T) * out) != 0;
      char what[64];
      const char* op = to_full ? "tpttr" : "trttp";
      snprintf(what, sizeof(what), "%c%s %s (whole destination)", letter, op, triangle(upper));
      report(what, s1 == CUBLAS_STATUS_SUCCESS && s2 == CUBLAS_STATUS_SUCCESS && same && moved, diff, s1, s2);
      cudaFree(ds);
      cudaFree(d1);
      cudaFree(d2);
    }
}

// three groups: 2 GEMMs N,T 5x4x3; none; 3 GEMMs T,N 6x2x8
template <class T> struct Batch {
  cublasOperation_t ta[3], tb[3];
  int m[3], n[3], k[3], lda[3], ldb[3], ldc[3], size[3];
  T alpha[3], beta[3];
  const T* const* a;
  const T* const* b;
};

static cublasStatus_t sgemm(cublasHandle_t h, bool ours, const Batch<float>& g, float* const* c) {
  return (ours ? hipmigrate_blas::hipblasSgemmGroupedBatched : cublasSgemmGroupedBatched)(
      h, g.ta, g.tb, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, c, g.ldc, 3, g.size);
}
static cublasStatus_t dgemm(cublasHandle_t h, bool ours, const Batch<double>& g, double* const* c) {
  return (ours ? hipmigrate_blas::hipblasDgemmGroupedBatched : cublasDgemmGroupedBatched)(
      h, g.ta, g.tb, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, c, g.ldc, 3, g.size);
}
template <class T> static cublasStatus_t gemm_ex(cublasHandle_t h, bool ours, const Batch<T>& g, T* const* c) {
  cudaDataType t = sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
  cublasComputeType_t compute = sizeof(T) == 4 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_64F;
  const void* const* a = reinterpret_cast<const void* const*>(g.a);
  const void* const* b = reinterpret_cast<const void* const*>(g.b);
  void* const* cv = reinterpret_cast<void* const*>(c);
  if (ours)
    return hipmigrate_blas::hipblasGemmGroupedBatchedEx(h, g.ta, g.tb, g.m, g.n, g.k, g.alpha, a, t, g.lda, b, t,
                                                        g.ldb, g.beta, cv, t, g.ldc, 3, g.size, compute);
  return cublasGemmGroupedBatchedEx(h, g.ta, g.tb, g.m, g.n, g.k, g.alpha, a, t, g.lda, b, t, g.ldb, g.beta, cv, t,
                                    g.ldc, 3, g.size, compute);
}

template <class T>
static void grouped(cublasHandle_t h, const char* name, double tolerance,
                    cublasStatus_t (*call)(cublasHandle_t, bool, const Batch<T>&, T* const*)) {
  Batch<T> g = {{CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_T}, {CUBLAS_OP_T, CUBLAS_OP_T, CUBLAS_OP_N},
                {5, 3, 6}, {4, 3, 2}, {3, 3, 8}, {6, 3, 9}, {5, 3, 8}, {7, 3, 6}, {2, 0, 3},
                {1.5, 1, -0.5}, {0.5, 0, 0.25}, nullptr, nullptr};
  std::vector<const T*> pa, pb;
  std::vector<T*> p1, p2;
  std::vector<std::vector<T>> cs;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < g.size[i]; ++j) {
      pa.push_back(upload(random<T>((size_t)g.lda[i] * (g.ta[i] == CUBLAS_OP_N ? g.k[i] : g.m[i]))));
      pb.push_back(upload(random<T>((size_t)g.ldb[i] * (g.tb[i] == CUBLAS_OP_N ? g.n[i] : g.k[i]))));
      cs.push_back(random<T>((size_t)g.ldc[i] * g.n[i]));
      p1.push_back(upload(cs.back()));
      p2.push_back(upload(cs.back()));
    }
  const T **da = upload(pa), **db = upload(pb);
  T **d1 = upload(p1), **d2 = upload(p2);
  g.a = da;
  g.b = db;
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  cublasStatus_t s1 = call(h, false, g, d1);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);  // the block reads the scalars from the host all the same
  cublasStatus_t s2 = call(h, true, g, d2);
  cublasPointerMode_t mode = CUBLAS_POINTER_MODE_HOST;
  cublasGetPointerMode(h, &mode);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  double diff = 0, scale = 0;
  for (size_t j = 0; j < cs.size(); ++j) {
    double s;
    diff = worst(diff, max_diff(download(p1[j], cs[j].size()), download(p2[j], cs[j].size()), &s));
    scale = fmax(scale, s);
  }
  char what[64];
  snprintf(what, sizeof(what), "%s (groups of 2, 0, 3)", name);
  bool close = diff <= tolerance * fmax(scale, 1.0);
  report(what, s1 == CUBLAS_STATUS_SUCCESS && s2 == CUBLAS_STATUS_SUCCESS && close, diff, s1, s2);
  snprintf(what, sizeof(what), "%s leaves device pointer mode", name);
  report(what, mode == CUBLAS_POINTER_MODE_DEVICE, 0, s1, s2);
  for (size_t j = 0; j < cs.size(); ++j) {
    cudaFree(const_cast<T*>(pa[j]));
    cudaFree(const_cast<T*>(pb[j]));
    cudaFree(p1[j]);
    cudaFree(p2[j]);
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(d1);
  cudaFree(d2);
}

int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  const cuComplex ca = make_cuComplex(0.7f, 0.2f), cb = make_cuComplex(-0.3f, 0.4f);
  rank_k<float>(h, "CherkEx", cublasCherkEx, hipmigrate_blas::hipblasCherkEx, CUBLAS_OP_C, 0.7f, -0.3f);
  rank_k<float>(h, "Cherk3mEx", cublasCherk3mEx, hipmigrate_blas::hipblasCherk3mEx, CUBLAS_OP_C, 0.7f, -0.3f);
  rank_k<cuComplex>(h, "CsyrkEx", cublasCsyrkEx, hipmigrate_blas::hipblasCsyrkEx, CUBLAS_OP_T, ca, cb);
  rank_k<cuComplex>(h, "Csyrk3mEx", cublasCsyrk3mEx, hipmigrate_blas::hipblasCsyrk3mEx, CUBLAS_OP_T, ca, cb);
  packing<float>(h, 'S', cublasStpttr, hipmigrate_blas::hipblasStpttr, cublasStrttp, hipmigrate_blas::hipblasStrttp);
  packing<double>(h, 'D', cublasDtpttr, hipmigrate_blas::hipblasDtpttr, cublasDtrttp, hipmigrate_blas::hipblasDtrttp);
  packing<cuComplex>(h, 'C', cublasCtpttr, hipmigrate_blas::hipblasCtpttr, cublasCtrttp,
                     hipmigrate_blas::hipblasCtrttp);
  packing<cuDoubleComplex>(h, 'Z', cublasZtpttr, hipmigrate_blas::hipblasZtpttr, cublasZtrttp,
                           hipmigrate_blas::hipblasZtrttp);
  grouped<float>(h, "SgemmGroupedBatched", 1e-5, sgemm);
  grouped<double>(h, "DgemmGroupedBatched", 1e-12, dgemm);
  grouped<float>(h, "GemmGroupedBatchedEx 32F", 1e-5, gemm_ex<float>);
  grouped<double>(h, "GemmGroupedBatchedEx 64F", 1e-12, gemm_ex<double>);
  // 8-bit complex input, which cuBLAS takes: the block says not supported
  float one = 1, zero = 0;
  cublasStatus_t s = hipmigrate_blas::hipblasCherkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 7, 5, &one, nullptr,
                                                     CUDA_C_8I, 9, &zero, nullptr, CUDA_C_32F, 8);
  report("CherkEx, 8-bit complex A: not supported", s == CUBLAS_STATUS_NOT_SUPPORTED, 0, 0, s);
  cublasDestroy(h);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
