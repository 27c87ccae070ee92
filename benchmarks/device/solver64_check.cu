// CPP064's 64-bit eigensolvers and SVDs (migrate/cpp/solver64.h) against cuSOLVER's own cusolverDnXsyevd,
// cusolverDnXsyevdx, cusolverDnXgesvd, cusolverDnXgesvdp and cusolverDnXgesvdr, on an NVIDIA GPU, for each element
// type (float, double, complex float, complex double): for a random symmetric or Hermitian matrix, the eigenvalues of
// all (syevd) and of the 3rd to the 12th (syevdx, by index), with the vectors; for a random 12 x 8 matrix, the
// singular values of gesvd (jobs A,A and S,S) and gesvdp (econ 1 and 0), and A - U S V^H from the block's vectors
// (which may differ from cuSOLVER's in sign or phase), and for gesvdr (k = 3) the k leading singular values and the
// rank-k approximation against cuSOLVER's exact gesvd. Each call of the block gets exactly the workspace its
// bufferSize asks for; the sizes are printed, with info checked. Prints one line per check and "N passed, M failed".
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "solver64.h"

static unsigned state = 2024;
static double rnd() { return (state = state * 1664525u + 1013904223u) / 4294967296.0 - 0.5; }

template <class T> struct Traits;
template <> struct Traits<float> { typedef float R; static const cudaDataType a = CUDA_R_32F, w = CUDA_R_32F; };
template <> struct Traits<double> { typedef double R; static const cudaDataType a = CUDA_R_64F, w = CUDA_R_64F; };
template <> struct Traits<cuFloatComplex> { typedef float R; static const cudaDataType a = CUDA_C_32F, w = CUDA_R_32F; };
template <> struct Traits<cuDoubleComplex> { typedef double R; static const cudaDataType a = CUDA_C_64F, w = CUDA_R_64F; };

template <class T> static T make(double re, double im);
template <> float make<float>(double re, double) { return (float)re; }
template <> double make<double>(double re, double) { return re; }
template <> cuFloatComplex make<cuFloatComplex>(double re, double im) { return make_cuFloatComplex((float)re, (float)im); }
template <> cuDoubleComplex make<cuDoubleComplex>(double re, double im) { return make_cuDoubleComplex(re, im); }

static int passed = 0, failed = 0;

static void report(const char* what, bool ok, double diff, size_t bytes_cuda, size_t bytes_shim, bool counted = true) {
  printf("%-44s max|diff| %-10.3g workspace %zu / %zu bytes  %s\n", what, diff, bytes_cuda, bytes_shim,
         counted ? (ok ? "ok" : "FAILED") : (ok ? "ok (not counted)" : "off (not counted)"));
  if (counted) (ok ? passed : failed)++;
}

template <class T>
static void check(cusolverDnHandle_t h, cusolverDnParams_t p, const char* name, double tolerance) {
  typedef typename Traits<T>::R R;
  const int n = 48;
  std::vector<T> a(n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      double re = rnd(), im = i == j ? 0.0 : rnd();
      a[i + j * n] = make<T>(re, im);
      a[j + i * n] = make<T>(re, -im);
    }
  T *da, *db;
  R *wa, *wb;
  int* info;
  cudaMalloc(&da, sizeof(T) * n * n);
  cudaMalloc(&db, sizeof(T) * n * n);
  cudaMalloc(&wa, sizeof(R) * n);
  cudaMalloc(&wb, sizeof(R) * n);
  cudaMalloc(&info, 2 * sizeof(int));
  for (int x = 0; x < 2; ++x) {  // 0: syevd, every eigenvalue; 1: syevdx, the 3rd to the 12th by index
    cudaMemcpy(da, a.data(), sizeof(T) * n * n, cudaMemcpyHostToDevice);
    cudaMemcpy(db, a.data(), sizeof(T) * n * n, cudaMemcpyHostToDevice);
    cudaMemset(wa, 0, sizeof(R) * n);
    cudaMemset(wb, 0, sizeof(R) * n);
    size_t dev_a = 0, host_a = 0, dev_b = 0, host_b = 0;
    int64_t found_a = 0, found_b = 0;
    R vl = 0, vu = 0;
    cusolverStatus_t sa, sb;
    if (x == 0) {
      cusolverDnXsyevd_bufferSize(h, p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, Traits<T>::a, da, n,
                                  Traits<T>::w, wa, Traits<T>::a, &dev_a, &host_a);
      hipmigrate_solver::hipsolverDnXsyevd_bufferSize(h, p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n,
                                                      Traits<T>::a, db, n, Traits<T>::w, wb, Traits<T>::a, &dev_b, &host_b);
    } else {
      cusolverDnXsyevdx_bufferSize(h, p, CUSOLVER_EIG_MODE_VECTOR, CUSOLVER_EIG_RANGE_I, CUBLAS_FILL_MODE_LOWER, n,
                                   Traits<T>::a, da, n, &vl, &vu, 3, 12, &found_a, Traits<T>::w, wa, Traits<T>::a,
                                   &dev_a, &host_a);
      hipmigrate_solver::hipsolverDnXsyevdx_bufferSize(h, p, CUSOLVER_EIG_MODE_VECTOR, CUSOLVER_EIG_RANGE_I,
                                                       CUBLAS_FILL_MODE_LOWER, n, Traits<T>::a, db, n, &vl, &vu, 3, 12,
                                                       &found_b, Traits<T>::w, wb, Traits<T>::a, &dev_b, &host_b);
    }
    void *bufa, *bufb, *hosta = host_a ? malloc(host_a) : nullptr;
    cudaMalloc(&bufa, dev_a ? dev_a : 1);
    cudaMalloc(&bufb, dev_b ? dev_b : 1);
    if (x == 0) {
      sa = cusolverDnXsyevd(h, p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, Traits<T>::a, da, n,
                            Traits<T>::w, wa, Traits<T>::a, bufa, dev_a, hosta, host_a, info);
      sb = hipmigrate_solver::hipsolverDnXsyevd(h, p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n,
                                                Traits<T>::a, db, n, Traits<T>::w, wb, Traits<T>::a, bufb, dev_b,
                                                nullptr, 0, info + 1);
    } else {
      sa = cusolverDnXsyevdx(h, p, CUSOLVER_EIG_MODE_VECTOR, CUSOLVER_EIG_RANGE_I, CUBLAS_FILL_MODE_LOWER, n,
                             Traits<T>::a, da, n, &vl, &vu, 3, 12, &found_a, Traits<T>::w, wa, Traits<T>::a, bufa,
                             dev_a, hosta, host_a, info);
      sb = hipmigrate_solver::hipsolverDnXsyevdx(h, p, CUSOLVER_EIG_MODE_VECTOR, CUSOLVER_EIG_RANGE_I,
                                                 CUBLAS_FILL_MODE_LOWER, n, Traits<T>::a, db, n, &vl, &vu, 3, 12,
                                                 &found_b, Traits<T>::w, wb, Traits<T>::a, bufb, dev_b, nullptr, 0,
                                                 info + 1);
    }
    cudaDeviceSynchronize();
    std::vector<R> ea(n), eb(n);
    int infos[2];
    cudaMemcpy(ea.data(), wa, sizeof(R) * n, cudaMemcpyDeviceToHost);
    cudaMemcpy(eb.data(), wb, sizeof(R) * n, cudaMemcpyDeviceToHost);
    cudaMemcpy(infos, info, sizeof(infos), cudaMemcpyDeviceToHost);
    int count = x == 0 ? n : (int)found_a;
    double diff = 0, scale = 0;
    for (int i = 0; i < count; ++i) {
      diff = fmax(diff, fabs((double)ea[i] - (double)eb[i]));
      scale = fmax(scale, fabs((double)ea[i]));
    }
    bool ok = sa == CUSOLVER_STATUS_SUCCESS && sb == CUSOLVER_STATUS_SUCCESS && infos[0] == 0 && infos[1] == 0 &&
              found_a == found_b && diff <= tolerance * fmax(scale, 1.0) && host_b == 0;
    char what[64];
    snprintf(what, sizeof(what), "%s %s (%d eigenvalues)", name, x == 0 ? "Xsyevd" : "Xsyevdx 3..12", count);
    report(what, ok, diff, dev_a, dev_b);
    cudaFree(bufa);
    cudaFree(bufb);
    free(hosta);
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(wa);
  cudaFree(wb);
  cudaFree(info);
}

static std::complex<double> cx(float x) { return x; }
static std::complex<double> cx(double x) { return x; }
static std::complex<double> cx(cuFloatComplex x) { return {cuCrealf(x), cuCimagf(x)}; }
static std::complex<double> cx(cuDoubleComplex x) { return {cuCreal(x), cuCimag(x)}; }

// entry (i, j) of the sum over l < r of s[l] U(:, l) W(l, :): W is v itself where vt (gesvd's VT, already V^H), else
// v^H (gesvdj's V); the leading dimensions are m for u and n for v
template <class T, class R>
static std::complex<double> usv(const std::vector<R>& s, const std::vector<T>& u, const std::vector<T>& v, bool vt,
                                int m, int n, int r, int i, int j) {
  std::complex<double> x = 0;
  for (int l = 0; l < r; ++l)
    x += (double)s[l] * cx(u[i + l * m]) * (vt ? cx(v[l + j * n]) : std::conj(cx(v[j + l * n])));
  return x;
}

enum Svd { GESVD_A, GESVD_S, GESVDP_ECON, GESVDP_FULL, GESVDR };

// one SVD case on a random 12 x 8 matrix: [0] cuSOLVER (Xgesvd, Xgesvdp; for gesvdr its exact Xgesvd), [1] the block,
// [2] cuSOLVER's own Xgesvdr (gesvdr only). U is m x m and V n x n in every case, leading dimensions m and n.
template <class T>
static void svd_check(cusolverDnHandle_t h, cusolverDnParams_t p, const char* name, double tolerance, Svd kind) {
  typedef typename Traits<T>::R R;
  const cudaDataType ta = Traits<T>::a, tw = Traits<T>::w;
  const int m = 12, n = 8, k = 3, runs = kind == GESVDR ? 3 : 2;  // gesvdr: k = 3, p = 2, niters = 2
  const signed char job = kind == GESVD_A ? 'A' : 'S';
  const int econ = kind != GESVDP_FULL;
  const bool jacobi = kind == GESVDP_ECON || kind == GESVDP_FULL;
  std::vector<T> a(m * n);
  for (int i = 0; i < m * n; ++i) {
    double re = rnd(), im = rnd();
    a[i] = make<T>(re, im);
  }
  T *da[3], *du[3], *dv[3];
  R* ds[3];
  void* buf[3];
  void* host[3] = {nullptr, nullptr, nullptr};
  size_t dev_bytes[3] = {0, 0, 0}, host_bytes[3] = {0, 0, 0};
  cusolverStatus_t st[3] = {CUSOLVER_STATUS_SUCCESS, CUSOLVER_STATUS_SUCCESS, CUSOLVER_STATUS_SUCCESS};
  int* info;
  cudaMalloc(&info, 3 * sizeof(int));
  cudaMemset(info, 0xff, 3 * sizeof(int));  // -1 until a call writes it
  for (int x = 0; x < runs; ++x) {
    cudaMalloc(&da[x], sizeof(T) * m * n);
    cudaMalloc(&du[x], sizeof(T) * m * m);
    cudaMalloc(&dv[x], sizeof(T) * n * n);
    cudaMalloc(&ds[x], sizeof(R) * n);
    cudaMemcpy(da[x], a.data(), sizeof(T) * m * n, cudaMemcpyHostToDevice);
    cudaMemset(du[x], 0, sizeof(T) * m * m);
    cudaMemset(dv[x], 0, sizeof(T) * n * n);
    cudaMemset(ds[x], 0, sizeof(R) * n);
  }
  if (jacobi) {
    cusolverDnXgesvdp_bufferSize(h, p, CUSOLVER_EIG_MODE_VECTOR, econ, m, n, ta, da[0], m, tw, ds[0], ta, du[0], m, ta,
                                 dv[0], n, ta, &dev_bytes[0], &host_bytes[0]);
    st[1] = hipmigrate_solver::hipsolverDnXgesvdp_bufferSize(h, p, CUSOLVER_EIG_MODE_VECTOR, econ, m, n, ta, da[1], m,
                                                             tw, ds[1], ta, du[1], m, ta, dv[1], n, ta, &dev_bytes[1],
                                                             &host_bytes[1]);
  } else {
    cusolverDnXgesvd_bufferSize(h, p, job, job, m, n, ta, da[0], m, tw, ds[0], ta, du[0], m, ta, dv[0], n, ta,
                                &dev_bytes[0], &host_bytes[0]);
    if (kind == GESVDR) {
      st[1] = hipmigrate_solver::hipsolverDnXgesvdr_bufferSize(h, p, 'S', 'S', m, n, k, 2, 2, ta, da[1], m, tw, ds[1],
                                                               ta, du[1], m, ta, dv[1], n, ta, &dev_bytes[1],
                                                               &host_bytes[1]);
      cusolverDnXgesvdr_bufferSize(h, p, 'S', 'S', m, n, k, 2, 2, ta, da[2], m, tw, ds[2], ta, du[2], m, ta, dv[2], n,
                                   ta, &dev_bytes[2], &host_bytes[2]);
    } else {
      st[1] = hipmigrate_solver::hipsolverDnXgesvd_bufferSize(h, p, job, job, m, n, ta, da[1], m, tw, ds[1], ta, du[1],
                                                              m, ta, dv[1], n, ta, &dev_bytes[1], &host_bytes[1]);
    }
  }
  for (int x = 0; x < runs; ++x) {  // exactly what each asked for; the block is given no host workspace
    cudaMalloc(&buf[x], dev_bytes[x] ? dev_bytes[x] : 1);
    if (x != 1 && host_bytes[x]) host[x] = malloc(host_bytes[x]);
  }
  double err_sigma = -1, err_sigma_cuda = -1;
  if (st[1] == CUSOLVER_STATUS_SUCCESS) {
    if (jacobi) {
      st[0] = cusolverDnXgesvdp(h, p, CUSOLVER_EIG_MODE_VECTOR, econ, m, n, ta, da[0], m, tw, ds[0], ta, du[0], m, ta,
                                dv[0], n, ta, buf[0], dev_bytes[0], host[0], host_bytes[0], info, &err_sigma_cuda);
      st[1] = hipmigrate_solver::hipsolverDnXgesvdp(h, p, CUSOLVER_EIG_MODE_VECTOR, econ, m, n, ta, da[1], m, tw,
                                                    ds[1], ta, du[1], m, ta, dv[1], n, ta, buf[1], dev_bytes[1],
                                                    nullptr, 0, info + 1, &err_sigma);
    } else {
      st[0] = cusolverDnXgesvd(h, p, job, job, m, n, ta, da[0], m, tw, ds[0], ta, du[0], m, ta, dv[0], n, ta, buf[0],
                               dev_bytes[0], host[0], host_bytes[0], info);
      if (kind == GESVDR) {
        st[1] = hipmigrate_solver::hipsolverDnXgesvdr(h, p, 'S', 'S', m, n, k, 2, 2, ta, da[1], m, tw, ds[1], ta,
                                                      du[1], m, ta, dv[1], n, ta, buf[1], dev_bytes[1], nullptr, 0,
                                                      info + 1);
        st[2] = cusolverDnXgesvdr(h, p, 'S', 'S', m, n, k, 2, 2, ta, da[2], m, tw, ds[2], ta, du[2], m, ta, dv[2], n, ta,
                                  buf[2], dev_bytes[2], host[2], host_bytes[2], info + 2);
      } else {
        st[1] = hipmigrate_solver::hipsolverDnXgesvd(h, p, job, job, m, n, ta, da[1], m, tw, ds[1], ta, du[1], m, ta,
                                                     dv[1], n, ta, buf[1], dev_bytes[1], nullptr, 0, info + 1);
      }
    }
  }
  cudaDeviceSynchronize();
  std::vector<R> s[3];
  std::vector<T> u[3], v[3];
  int infos[3];
  cudaMemcpy(infos, info, sizeof(infos), cudaMemcpyDeviceToHost);
  for (int x = 0; x < runs; ++x) {
    s[x].resize(n);
    u[x].resize(m * m);
    v[x].resize(n * n);
    cudaMemcpy(s[x].data(), ds[x], sizeof(R) * n, cudaMemcpyDeviceToHost);
    cudaMemcpy(u[x].data(), du[x], sizeof(T) * m * m, cudaMemcpyDeviceToHost);
    cudaMemcpy(v[x].data(), dv[x], sizeof(T) * n * n, cudaMemcpyDeviceToHost);
  }
  // the singular values (all, or gesvdr's k against the exact ones), then the block's A - U S V^H (gesvdr: its rank-k
  // approximation against the one of cuSOLVER's exact SVD, the best there is)
  const int count = kind == GESVDR ? k : n;
  const double scale = fmax((double)s[0][0], 1.0);
  double diff = 0, recon = 0, rand_diff = 0;
  for (int i = 0; i < count; ++i) {
    diff = fmax(diff, fabs((double)s[0][i] - (double)s[1][i]));
    if (kind == GESVDR) rand_diff = fmax(rand_diff, fabs((double)s[0][i] - (double)s[2][i]));
  }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      std::complex<double> want = kind == GESVDR ? usv(s[0], u[0], v[0], true, m, n, k, i, j) : cx(a[i + j * m]);
      recon = fmax(recon, std::abs(want - usv(s[1], u[1], v[1], !jacobi && kind != GESVDR, m, n, count, i, j)));
    }
  bool ran = st[0] == CUSOLVER_STATUS_SUCCESS && st[1] == CUSOLVER_STATUS_SUCCESS && infos[0] == 0 && infos[1] == 0 &&
             host_bytes[1] == 0 && (!jacobi || err_sigma == 0);
  const char* label[] = {"Xgesvd A,A", "Xgesvd S,S", "Xgesvdp econ=1", "Xgesvdp econ=0", "Xgesvdr k=3"};
  char what[64];
  snprintf(what, sizeof(what), "%s %s (%d values)", name, label[kind], count);
  report(what, ran && diff <= tolerance * scale, diff, dev_bytes[kind == GESVDR ? 2 : 0], dev_bytes[1]);
  snprintf(what, sizeof(what), "%s %s: %s", name, label[kind], kind == GESVDR ? "rank-3 approx." : "A - U S V^H");
  report(what, ran && recon <= tolerance * scale, recon, dev_bytes[kind == GESVDR ? 2 : 0], dev_bytes[1]);
  if (kind == GESVDR) {
    // cuSOLVER's own gesvdr is randomized: with p = 2 and 2 power iterations on a random matrix, whose spectrum decays
    // slowly, its values need not come within the tight tolerance of the exact ones, nor even 1e-2; a line to read,
    // not counted, that shows how far the randomized values are from what the block returns
    snprintf(what, sizeof(what), "%s Xgesvdr k=3: cuSOLVER's own", name);
    report(what, st[2] == CUSOLVER_STATUS_SUCCESS && infos[2] == 0 && rand_diff <= 1e-2 * scale, rand_diff,
           dev_bytes[2], dev_bytes[1], false);
  }
  for (int x = 0; x < runs; ++x) {
    cudaFree(da[x]);
    cudaFree(du[x]);
    cudaFree(dv[x]);
    cudaFree(ds[x]);
    cudaFree(buf[x]);
    free(host[x]);
  }
  cudaFree(info);
}

int main() {
  cusolverDnHandle_t h;
  cusolverDnParams_t p;
  cusolverDnCreate(&h);
  cusolverDnCreateParams(&p);
  check<float>(h, p, "float", 1e-4);
  check<double>(h, p, "double", 1e-12);
  check<cuFloatComplex>(h, p, "complex float", 1e-4);
  check<cuDoubleComplex>(h, p, "complex double", 1e-12);
  for (int kind = GESVD_A; kind <= GESVDR; ++kind) {
    svd_check<float>(h, p, "float", 1e-4, (Svd)kind);
    svd_check<double>(h, p, "double", 1e-12, (Svd)kind);
    svd_check<cuFloatComplex>(h, p, "complex float", 1e-4, (Svd)kind);
    svd_check<cuDoubleComplex>(h, p, "complex double", 1e-12, (Svd)kind);
  }
  // a pair of types cuSOLVER refuses: the block says invalid value
  size_t d = 0, hb = 0;
  double* any = nullptr;
  cusolverStatus_t s = hipmigrate_solver::hipsolverDnXsyevd_bufferSize(h, p, CUSOLVER_EIG_MODE_VECTOR,
                                                                      CUBLAS_FILL_MODE_LOWER, 8, CUDA_R_64F, any, 8,
                                                                      CUDA_R_32F, any, CUDA_R_64F, &d, &hb);
  report("double matrix, float eigenvalues: refused", s == CUSOLVER_STATUS_INVALID_VALUE, 0, 0, 0);
  cusolverDnDestroyParams(p);
  cusolverDnDestroy(h);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
