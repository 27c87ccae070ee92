// CPP064's 64-bit eigensolvers (migrate/cpp/solver64.h) against cuSOLVER's own cusolverDnXsyevd and
// cusolverDnXsyevdx, on an NVIDIA GPU: for each element type (float, double, complex float, complex double) and a
// random symmetric or Hermitian matrix, the eigenvalues of all (syevd) and of the 3rd to the 12th (syevdx, by index),
// with the vectors; the workspace sizes each asks for; info. Prints one line per case and "N passed, M failed".
#include <cmath>
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

static void report(const char* what, bool ok, double diff, size_t bytes_cuda, size_t bytes_shim) {
  printf("%-44s max|diff| %-10.3g workspace %zu / %zu bytes  %s\n", what, diff, bytes_cuda, bytes_shim, ok ? "ok" : "FAILED");
  (ok ? passed : failed)++;
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

int main() {
  cusolverDnHandle_t h;
  cusolverDnParams_t p;
  cusolverDnCreate(&h);
  cusolverDnCreateParams(&p);
  check<float>(h, p, "float", 1e-4);
  check<double>(h, p, "double", 1e-12);
  check<cuFloatComplex>(h, p, "complex float", 1e-4);
  check<cuDoubleComplex>(h, p, "complex double", 1e-12);
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
