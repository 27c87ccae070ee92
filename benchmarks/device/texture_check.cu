// Checks on an NVIDIA GPU that hipmigrate's software textures and surfaces (migrate/cpp/texture_shim.h, namespace
// hipmigrate_tex, the HIP code hipmigrate writes for gfx942) give what CUDA's hardware gives: each resource is made
// twice from the same data, as a CUDA texture or surface object and as a hipmigrate_tex one, and both are sampled at
// the same coordinates (fractional, negative, out of range), for element formats, resources, filters, address modes
// and coordinate normalization. Built by benchmarks/device/texture_check.sh, with the HIP names of the shim mapped
// onto CUDA by benchmarks/device/texture_check/hip/hip_runtime.h. One line per configuration: name, samples, largest
// absolute difference, mismatches (point sampling and gathers must be exact; linear filtering within 1e-6 of the
// range of the values), then "N passed, M failed"; the exit status is 1 on any failure. With TEXTURE_CHECK_DUMP=file,
// the mismatching samples (and every sample of the probe configurations) are written there.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "texture_shim.h"

#define CHECK(x)                                                                                       \
  do {                                                                                                 \
    cudaError_t e_ = (x);                                                                              \
    if (e_ != cudaSuccess) {                                                                           \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));              \
      exit(2);                                                                                         \
    }                                                                                                  \
  } while (0)

// ---- device: the same call on both objects ----

enum Fn { FETCH, T1D, T2D, T3D, T1DL, T2DL, CUBE, GATHER, LOD2D };
static const char* FN_NAME[] = {"tex1Dfetch", "tex1D", "tex2D", "tex3D", "tex1DLayered", "tex2DLayered",
                                "texCubemap", "tex2Dgather", "tex2DLod"};

template <class R>
__global__ void sample_both(int fn, int comp, cudaTextureObject_t c, hipTextureObject_t h, const float4* p, int n,
                            R* rc, R* rh) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 q = p[i];
  R a{}, b{};
  switch (fn) {
    case FETCH: a = tex1Dfetch<R>(c, (int)q.x); b = hipmigrate_tex::tex1Dfetch<R>(h, (int)q.x); break;
    case T1D: a = tex1D<R>(c, q.x); b = hipmigrate_tex::tex1D<R>(h, q.x); break;
    case T2D: a = tex2D<R>(c, q.x, q.y); b = hipmigrate_tex::tex2D<R>(h, q.x, q.y); break;
    case T3D: a = tex3D<R>(c, q.x, q.y, q.z); b = hipmigrate_tex::tex3D<R>(h, q.x, q.y, q.z); break;
    case T1DL: a = tex1DLayered<R>(c, q.x, (int)q.w); b = hipmigrate_tex::tex1DLayered<R>(h, q.x, (int)q.w); break;
    case T2DL:
      a = tex2DLayered<R>(c, q.x, q.y, (int)q.w);
      b = hipmigrate_tex::tex2DLayered<R>(h, q.x, q.y, (int)q.w);
      break;
    case CUBE: a = texCubemap<R>(c, q.x, q.y, q.z); b = hipmigrate_tex::texCubemap<R>(h, q.x, q.y, q.z); break;
    case GATHER:
      if constexpr (std::is_same<R, float4>::value) {
        a = tex2Dgather<R>(c, q.x, q.y, comp);
        b = hipmigrate_tex::tex2Dgather<R>(h, q.x, q.y, comp);
      }
      break;
    case LOD2D: a = tex2DLod<R>(c, q.x, q.y, q.w); b = hipmigrate_tex::tex2DLod<R>(h, q.x, q.y, q.w); break;
  }
  rc[i] = a;
  rh[i] = b;
}

// Surfaces: every (x, y) of a grid larger than the array writes its value (out of range: dropped), then reads back.
template <class T> __host__ __device__ T surf_value(int x, int y);
template <> __host__ __device__ float surf_value<float>(int x, int y) { return x * 100.0f + y + 0.25f; }
template <> __host__ __device__ uchar4 surf_value<uchar4>(int x, int y) {
  return make_uchar4(x & 255, y & 255, (x * 7 + y * 3) & 255, 200);
}

template <class T>
__global__ void surf_write_both(cudaSurfaceObject_t c, hipSurfaceObject_t h, int w, int hgt, int margin) {
  int x = (int)(blockIdx.x * blockDim.x + threadIdx.x) - margin, y = (int)blockIdx.y - margin;
  if (x >= w + margin) return;
  T v = surf_value<T>(x, y);
  surf2Dwrite<T>(v, c, x * (int)sizeof(T), y, cudaBoundaryModeZero);
  hipmigrate_tex::surf2Dwrite<T>(v, h, x * (int)sizeof(T), y, cudaBoundaryModeZero);
}

template <class T>
__global__ void surf_read_both(cudaSurfaceObject_t c, hipSurfaceObject_t h, int w, int hgt, int margin,
                               cudaSurfaceBoundaryMode mode, T* rc, T* rh) {
  int x = (int)(blockIdx.x * blockDim.x + threadIdx.x) - margin, y = (int)blockIdx.y - margin;
  if (x >= w + margin) return;
  int i = (y + margin) * (w + 2 * margin) + x + margin;
  rc[i] = surf2Dread<T>(c, x * (int)sizeof(T), y, mode);
  rh[i] = hipmigrate_tex::surf2Dread<T>(h, x * (int)sizeof(T), y, mode);
}

// ---- host: results as four floats, comparison, report ----

static float4 as4(float v) { return make_float4(v, 0, 0, 0); }
static float4 as4(float4 v) { return v; }
static float4 as4(unsigned char v) { return make_float4(v, 0, 0, 0); }
static float4 as4(uchar4 v) { return make_float4(v.x, v.y, v.z, v.w); }

static int passed = 0, failed = 0;
static FILE* dump = nullptr;

static void report(const std::string& name, int n, double max_diff, int bad) {
  bool ok = bad == 0;
  (ok ? passed : failed) += 1;
  printf("%-64s %6d samples  max|diff| %-11.4g %6d mismatches  %s\n", name.c_str(), n, max_diff, bad,
         ok ? "ok" : "FAILED");
  fflush(stdout);
}

template <class R>
static void compare(const std::string& name, const std::vector<float4>& at, const std::vector<R>& ref,
                    const std::vector<R>& mine, float tol) {
  bool probe = name.rfind("probe", 0) == 0;
  double max_diff = 0;
  int bad = 0, dumped = 0;
  for (size_t i = 0; i < at.size(); ++i) {
    float4 a = as4(ref[i]), b = as4(mine[i]);
    float d[4] = {fabsf(a.x - b.x), fabsf(a.y - b.y), fabsf(a.z - b.z), fabsf(a.w - b.w)};
    float worst = 0;
    bool nan = false;
    for (float e : d) {
      if (e != e) nan = true;
      worst = std::max(worst, e);
    }
    max_diff = std::max<double>(max_diff, worst);
    bool wrong = nan || worst > tol;
    bad += wrong;
    if (dump && (probe || (wrong && dumped < 200))) {
      ++dumped;
      fprintf(dump, "%s | %.9g %.9g %.9g %.9g | cuda %.9g %.9g %.9g %.9g | shim %.9g %.9g %.9g %.9g%s\n", name.c_str(),
              at[i].x, at[i].y, at[i].z, at[i].w, a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, wrong ? " *" : "");
    }
  }
  report(name, (int)at.size(), max_diff, bad);
}

template <class R>
static void sample(const std::string& name, int fn, int comp, cudaTextureObject_t c, hipTextureObject_t h,
                   const std::vector<float4>& at, float tol) {
  int n = (int)at.size();
  float4* p;
  R *rc, *rh;
  CHECK(cudaMalloc(&p, n * sizeof(float4)));
  CHECK(cudaMalloc(&rc, n * sizeof(R)));
  CHECK(cudaMalloc(&rh, n * sizeof(R)));
  CHECK(cudaMemcpy(p, at.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  sample_both<R><<<(n + 127) / 128, 128>>>(fn, comp, c, h, p, n, rc, rh);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<R> ref(n), mine(n);
  CHECK(cudaMemcpy(ref.data(), rc, n * sizeof(R), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(mine.data(), rh, n * sizeof(R), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(p));
  CHECK(cudaFree(rc));
  CHECK(cudaFree(rh));
  compare(name, at, ref, mine, tol);
}

// ---- formats and their data ----

enum Format { FLOAT1, FLOAT4, UCHAR4N, UCHAR1N, UCHAR1, SHORT1N, HALF1, RAMP };
struct FormatInfo {
  const char* name;
  int elem;
  cudaTextureReadMode read;
  float range;  // of the values read (and of the border color), for the tolerance of linear filtering
};
static const FormatInfo FORMATS[] = {
    {"float", 4, cudaReadModeElementType, 8},           {"float4", 16, cudaReadModeElementType, 8},
    {"uchar4 normalized", 4, cudaReadModeNormalizedFloat, 1}, {"uchar normalized", 1, cudaReadModeNormalizedFloat, 1},
    {"uchar", 1, cudaReadModeElementType, 255},         {"short normalized", 2, cudaReadModeNormalizedFloat, 2},
    {"half", 2, cudaReadModeElementType, 8},            {"float ramp", 4, cudaReadModeElementType, 16},
};

static cudaChannelFormatDesc channel_desc(Format f) {
  switch (f) {
    case FLOAT4: return cudaCreateChannelDesc<float4>();
    case UCHAR4N: return cudaCreateChannelDesc<uchar4>();
    case UCHAR1N:
    case UCHAR1: return cudaCreateChannelDesc<unsigned char>();
    case SHORT1N: return cudaCreateChannelDesc<short>();
    case HALF1: return cudaCreateChannelDescHalf();
    default: return cudaCreateChannelDesc<float>();
  }
}

static unsigned int lcg_state = 12345;
static unsigned int lcg() { return lcg_state = lcg_state * 1664525u + 1013904223u, lcg_state >> 8; }

// `count` elements of format f, pseudo-random, with the extremes of the integer formats among them.
static std::vector<unsigned char> make_data(Format f, size_t count) {
  std::vector<unsigned char> out(count * FORMATS[f].elem);
  for (size_t i = 0; i < count; ++i) {
    unsigned char* p = out.data() + i * FORMATS[f].elem;
    auto real = [] { return ((int)(lcg() % 8001) - 4000) / 1000.0f; };
    switch (f) {
      case FLOAT1: { float v = real(); memcpy(p, &v, 4); break; }
      case RAMP: { float v = (float)(i % 16); memcpy(p, &v, 4); break; }
      case FLOAT4: for (int c = 0; c < 4; ++c) { float v = real(); memcpy(p + 4 * c, &v, 4); } break;
      case UCHAR4N: for (int c = 0; c < 4; ++c) p[c] = i % 7 == 0 ? 255 * (c & 1) : lcg() & 255; break;
      case UCHAR1N:
      case UCHAR1: p[0] = i % 7 == 0 ? 255 * (i & 1) : lcg() & 255; break;
      case SHORT1N: {
        short v = i % 5 == 0 ? (i & 1 ? 32767 : -32768) : (short)(lcg() & 0xffff);
        memcpy(p, &v, 2);
        break;
      }
      case HALF1: { __half v = __float2half(real()); memcpy(p, &v, 2); break; }
    }
  }
  return out;
}

// A resource made twice from the same data: CUDA's and the shim's descriptions.
struct Resource {
  cudaResourceDesc c{};
  hipResourceDesc h{};
  cudaArray_t carray = nullptr;
  hipArray_t harray = nullptr;
  void* shared = nullptr;  // linear and pitched memory serve both
  int w = 1, hgt = 1, depth = 1;
  void release() {
    if (carray) CHECK(cudaFreeArray(carray));
    if (harray) CHECK(hipmigrate_tex::hipFreeArray(harray));
    if (shared) CHECK(cudaFree(shared));
  }
};

static Resource make_linear(Format f, int n) {
  Resource r;
  r.w = n;
  std::vector<unsigned char> data = make_data(f, n);
  CHECK(cudaMalloc(&r.shared, data.size()));
  CHECK(cudaMemcpy(r.shared, data.data(), data.size(), cudaMemcpyHostToDevice));
  r.c.resType = cudaResourceTypeLinear;
  r.c.res.linear.devPtr = r.shared;
  r.c.res.linear.desc = channel_desc(f);
  r.c.res.linear.sizeInBytes = data.size();
  r.h.resType = hipResourceTypeLinear;
  r.h.res.linear.devPtr = r.shared;
  r.h.res.linear.desc = channel_desc(f);
  r.h.res.linear.sizeInBytes = data.size();
  return r;
}

static Resource make_pitch2d(Format f, int w, int hgt) {
  Resource r;
  r.w = w, r.hgt = hgt;
  std::vector<unsigned char> data = make_data(f, (size_t)w * hgt);
  size_t row = (size_t)w * FORMATS[f].elem, pitch;
  CHECK(cudaMallocPitch(&r.shared, &pitch, row, hgt));
  CHECK(cudaMemcpy2D(r.shared, pitch, data.data(), row, row, hgt, cudaMemcpyHostToDevice));
  r.c.resType = cudaResourceTypePitch2D;
  r.c.res.pitch2D.devPtr = r.shared;
  r.c.res.pitch2D.desc = channel_desc(f);
  r.c.res.pitch2D.width = w;
  r.c.res.pitch2D.height = hgt;
  r.c.res.pitch2D.pitchInBytes = pitch;
  r.h.resType = hipResourceTypePitch2D;
  r.h.res.pitch2D.devPtr = r.shared;
  r.h.res.pitch2D.desc = channel_desc(f);
  r.h.res.pitch2D.width = w;
  r.h.res.pitch2D.height = hgt;
  r.h.res.pitch2D.pitchInBytes = pitch;
  return r;
}

// An array of w x hgt x depth elements (hgt, depth 0 where unused, as cudaMalloc3DArray takes them); depth is the
// layers of a layered array and 6 for a cube map. CUDA's is filled by CUDA's copies, the shim's by the shim's.
static Resource make_array(Format f, int w, int hgt, int depth, unsigned int flags) {
  Resource r;
  r.w = w, r.hgt = hgt ? hgt : 1, r.depth = depth ? depth : 1;
  std::vector<unsigned char> data = make_data(f, (size_t)r.w * r.hgt * r.depth);
  size_t row = (size_t)w * FORMATS[f].elem;
  cudaChannelFormatDesc desc = channel_desc(f);
  CHECK(cudaMalloc3DArray(&r.carray, &desc, make_cudaExtent(w, hgt, depth), flags));
  CHECK(hipmigrate_tex::hipMalloc3DArray(&r.harray, &desc, make_hipExtent(w, hgt, depth), flags));
  if (depth == 0) {
    CHECK(cudaMemcpy2DToArray(r.carray, 0, 0, data.data(), row, row, r.hgt, cudaMemcpyHostToDevice));
    CHECK(hipmigrate_tex::hipMemcpy2DToArray(r.harray, 0, 0, data.data(), row, row, r.hgt, hipMemcpyHostToDevice));
  } else {
    cudaMemcpy3DParms c = {};
    c.srcPtr = make_cudaPitchedPtr(data.data(), row, w, r.hgt);
    c.dstArray = r.carray;
    c.extent = make_cudaExtent(w, r.hgt, r.depth);
    c.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&c));
    hipMemcpy3DParms h = {};
    h.srcPtr = make_hipPitchedPtr(data.data(), row, w, r.hgt);
    h.dstArray = r.harray;
    h.extent = make_hipExtent(w, r.hgt, r.depth);
    h.kind = hipMemcpyHostToDevice;
    CHECK(hipmigrate_tex::hipMemcpy3D(&h));
  }
  r.c.resType = cudaResourceTypeArray;
  r.c.res.array.array = r.carray;
  r.h.resType = hipResourceTypeArray;
  r.h.res.array.array = r.harray;
  return r;
}

// ---- coordinates ----

// `n` points from lo to hi, then the texel edges and centers of an axis of `size` texels around the array (in
// normalized coordinates when `norm`).
static std::vector<float> axis(bool norm, int size, int n) {
  std::vector<float> v;
  double lo = norm ? -1.55 : -1.5 * size, hi = norm ? 2.45 : 2.5 * size;
  for (int k = 0; k < n; ++k) v.push_back((float)(lo + (hi - lo) * k / (n - 1)));
  for (int k = -2 * size - 2; k <= 4 * size + 2; k += 3) v.push_back(norm ? (float)(k * 0.5 / size) : k * 0.5f);
  return v;
}

static std::vector<float4> grid1d(bool norm, int w, float layers = 0) {
  std::vector<float4> at;
  for (float x : axis(norm, w, 301))
    for (int l = layers ? -1 : 0; l <= (layers ? layers : 0); ++l) at.push_back(make_float4(x, 0, 0, (float)l));
  return at;
}

static std::vector<float4> grid2d(bool norm, int w, int hgt, int nx, int ny, int layers = 0) {
  std::vector<float4> at;
  for (float y : axis(norm, hgt, ny))
    for (float x : axis(norm, w, nx))
      for (int l = layers ? -1 : 0; l <= (layers ? layers : 0); ++l) at.push_back(make_float4(x, y, 0, (float)l));
  return at;
}

static std::vector<float4> grid3d(bool norm, int w, int hgt, int depth) {
  std::vector<float4> at;
  for (float z : axis(norm, depth, 17))
    for (float y : axis(norm, hgt, 19))
      for (float x : axis(norm, w, 23)) at.push_back(make_float4(x, y, z, 0));
  return at;
}

// Filtering weights, finely: from texel center 4 to texel center 5 of a ramp in steps of 1/4096 (and the same in
// normalized coordinates of a 16-texel array, exact in binary).
static std::vector<float4> probe1d(bool norm) {
  std::vector<float4> at;
  for (int k = -64; k <= 4096 + 64; ++k) {
    float x = 4.5f + k / 4096.0f;
    at.push_back(make_float4(norm ? x / 16 : x, 0, 0, 0));
  }
  return at;
}

static std::vector<float4> directions() {
  std::vector<float4> at;
  for (int i = 0; i < 6000; ++i) {
    float x = ((int)(lcg() % 20001) - 10000) / 5000.0f, y = ((int)(lcg() % 20001) - 10000) / 5000.0f,
          z = ((int)(lcg() % 20001) - 10000) / 5000.0f;
    if (x == 0 && y == 0 && z == 0) continue;
    at.push_back(make_float4(x, y, z, 0));
  }
  // Directions exactly between faces: two or three axes equally long, each sign.
  const float tie[] = {0.563f, 1.3046f};
  for (int axes = 3; axes < 8; ++axes) {
    if (axes == 4) continue;  // one axis alone is a face center
    for (int signs = 0; signs < 8; ++signs)
      for (float m : tie) {
        float v[3];
        for (int k = 0; k < 3; ++k) v[k] = (axes >> k & 1 ? m : m * 0.5f) * (signs >> k & 1 ? -1.0f : 1.0f);
        at.push_back(make_float4(v[0], v[1], v[2], 0));
      }
  }
  for (int s = 0; s < 6; ++s) {  // the face centers and a ring near each face's edges
    float v[3] = {0, 0, 0};
    v[s / 2] = s & 1 ? -1.0f : 1.0f;
    at.push_back(make_float4(v[0], v[1], v[2], 0));
  }
  return at;
}

// ---- configurations ----

static const char* MODE_NAME[] = {"wrap", "clamp", "mirror", "border"};

static cudaTextureDesc texture_desc(Format f, cudaTextureAddressMode mode, cudaTextureFilterMode filter, bool norm) {
  cudaTextureDesc d = {};
  for (int i = 0; i < 3; ++i) d.addressMode[i] = mode;
  d.filterMode = filter;
  d.readMode = FORMATS[f].read;
  d.normalizedCoords = norm;
  bool normalized = FORMATS[f].read == cudaReadModeNormalizedFloat;
  const float color[4] = {normalized ? 0.375f : -1.5f, normalized ? 0.5f : 2.25f, normalized ? 0.625f : 3.5f,
                          normalized ? 0.75f : -0.75f};
  for (int i = 0; i < 4; ++i) d.borderColor[i] = f == UCHAR1 ? 7.0f : color[i];
  return d;
}

template <class R>
static void run(const std::string& what, Format f, const Resource& r, int fn, cudaTextureAddressMode mode,
                cudaTextureFilterMode filter, bool norm, const std::vector<float4>& at, int comp = 0) {
  cudaTextureDesc d = texture_desc(f, mode, filter, norm);
  std::string name = what + " " + FORMATS[f].name + " " + FN_NAME[fn];
  if (fn == GATHER) name += " comp" + std::to_string(comp);
  if (fn != FETCH) {
    name += std::string(" ") + (filter == cudaFilterModeLinear ? "linear" : "point");
    name += std::string(" ") + MODE_NAME[mode] + (norm ? " normalized" : " unnormalized");
  }
  cudaTextureObject_t c = 0;
  cudaError_t e = cudaCreateTextureObject(&c, &r.c, &d, nullptr);
  if (e != cudaSuccess) {
    cudaGetLastError();
    printf("%-64s skipped: CUDA refuses it (%s)\n", name.c_str(), cudaGetErrorString(e));
    return;
  }
  hipTextureObject_t h = nullptr;
  CHECK(hipmigrate_tex::hipCreateTextureObject(&h, &r.h, &d));
  // Linear filtering: within one step of the hardware's 8-bit weights (1/256 of the values' range) per filtered
  // dimension; the shim's weights are CUDA's exactly on coordinates of few bits (the probe), and the hardware's
  // coordinate arithmetic moves other ones by a step. Point sampling with normalized coordinates: not on a texel edge, where the
  // hardware's fixed-point coordinate picks either texel (x * size within 1e-3 of a whole number).
  int dims = fn == T3D ? 3 : fn == T1D || fn == T1DL || fn == FETCH ? 1 : 2;
  float tol = filter == cudaFilterModeLinear && fn != GATHER ? dims * FORMATS[f].range / 256.0f : 0.0f;
  std::vector<float4> kept;
  for (const float4& p : at) {
    auto edge = [](float v, int size) { double t = (double)v * size; return fabs(t - floor(t + 0.5)) < 1e-3; };
    bool on_edge = norm && filter == cudaFilterModePoint && fn != FETCH && fn != CUBE &&
                   (edge(p.x, r.w) || (fn != T1D && fn != T1DL && edge(p.y, r.hgt)) || (fn == T3D && edge(p.z, r.depth)));
    if (!on_edge) kept.push_back(p);
  }
  sample<R>(name, fn, comp, c, h, kept, tol);
  CHECK(cudaDestroyTextureObject(c));
  CHECK(hipmigrate_tex::hipDestroyTextureObject(h));
}

// Every filter, address mode and normalization (only point sampling for reads of an integer element type).
template <class R>
static void every_mode(const std::string& what, Format f, const Resource& r, int fn,
                       std::vector<float4> (*coords)(bool norm, const Resource& r)) {
  for (int filter = 0; filter < 2; ++filter) {
    if (filter == cudaFilterModeLinear && f == UCHAR1) continue;
    for (int norm = 0; norm < 2; ++norm) {
      std::vector<float4> at = coords(norm, r);
      for (int mode = 0; mode < 4; ++mode)
        run<R>(what, f, r, fn, (cudaTextureAddressMode)mode, (cudaTextureFilterMode)filter, norm, at);
    }
  }
}

static std::vector<float4> coords1d(bool norm, const Resource& r) { return grid1d(norm, r.w); }
static std::vector<float4> coords1dl(bool norm, const Resource& r) { return grid1d(norm, r.w, r.depth); }
static std::vector<float4> coords2d(bool norm, const Resource& r) { return grid2d(norm, r.w, r.hgt, 53, 47); }
static std::vector<float4> coords2dl(bool norm, const Resource& r) { return grid2d(norm, r.w, r.hgt, 31, 29, r.depth); }
static std::vector<float4> coords3d(bool norm, const Resource& r) { return grid3d(norm, r.w, r.hgt, r.depth); }

// The result type CUDA returns for a format: float for one channel, float4 for four, the element for an integer read.
template <Format F> struct Result { using type = float; };
template <> struct Result<FLOAT4> { using type = float4; };
template <> struct Result<UCHAR4N> { using type = float4; };
template <> struct Result<UCHAR1> { using type = unsigned char; };

template <Format F>
static void formats_on(const char* what, int fn, Resource (*make)(Format),
                       std::vector<float4> (*coords)(bool, const Resource&)) {
  Resource r = make(F);
  every_mode<typename Result<F>::type>(what, F, r, fn, coords);
  r.release();
}

static Resource array1d(Format f) { return make_array(f, 13, 0, 0, 0); }
static Resource array2d(Format f) { return make_array(f, 11, 7, 0, 0); }
static Resource pitch2d(Format f) { return make_pitch2d(f, 10, 6); }
static Resource array3d(Format f) { return make_array(f, 5, 6, 7, 0); }
static Resource layered1d(Format f) { return make_array(f, 9, 0, 4, cudaArrayLayered); }
static Resource layered2d(Format f) { return make_array(f, 9, 5, 4, cudaArrayLayered); }

template <class T>
static void surfaces(const char* name, Format f) {
  const int w = 13, hgt = 9, margin = 3, gw = w + 2 * margin, gh = hgt + 2 * margin;
  Resource r = make_array(f, w, hgt, 0, cudaArraySurfaceLoadStore);
  std::vector<unsigned char> zero((size_t)w * hgt * sizeof(T), 0);
  CHECK(cudaMemcpy2DToArray(r.carray, 0, 0, zero.data(), w * sizeof(T), w * sizeof(T), hgt, cudaMemcpyHostToDevice));
  CHECK(hipmigrate_tex::hipMemcpy2DToArray(r.harray, 0, 0, zero.data(), w * sizeof(T), w * sizeof(T), hgt,
                                           hipMemcpyHostToDevice));
  cudaSurfaceObject_t c = 0;
  hipSurfaceObject_t h = nullptr;
  CHECK(cudaCreateSurfaceObject(&c, &r.c));
  CHECK(hipmigrate_tex::hipCreateSurfaceObject(&h, &r.h));
  surf_write_both<T><<<dim3(1, gh), gw>>>(c, h, w, hgt, margin);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<T> cc(w * hgt), hc(w * hgt);
  CHECK(cudaMemcpy2DFromArray(cc.data(), w * sizeof(T), r.carray, 0, 0, w * sizeof(T), hgt, cudaMemcpyDeviceToHost));
  CHECK(hipmigrate_tex::hipMemcpy2DFromArray(hc.data(), w * sizeof(T), r.harray, 0, 0, w * sizeof(T), hgt,
                                             hipMemcpyDeviceToHost));
  std::vector<float4> cells;
  for (int y = 0; y < hgt; ++y)
    for (int x = 0; x < w; ++x) cells.push_back(make_float4(x, y, 0, 0));
  compare(std::string("surface ") + name + " surf2Dwrite, array contents", cells, cc, hc, 0.0f);
  std::vector<float4> at;
  for (int y = -margin; y < hgt + margin; ++y)
    for (int x = -margin; x < w + margin; ++x) at.push_back(make_float4(x, y, 0, 0));
  for (cudaSurfaceBoundaryMode mode : {cudaBoundaryModeZero, cudaBoundaryModeClamp}) {
    T *rc, *rh;
    CHECK(cudaMalloc(&rc, at.size() * sizeof(T)));
    CHECK(cudaMalloc(&rh, at.size() * sizeof(T)));
    surf_read_both<T><<<dim3(1, gh), gw>>>(c, h, w, hgt, margin, mode, rc, rh);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<T> ref(at.size()), mine(at.size());
    CHECK(cudaMemcpy(ref.data(), rc, at.size() * sizeof(T), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(mine.data(), rh, at.size() * sizeof(T), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(rc));
    CHECK(cudaFree(rh));
    compare(std::string("surface ") + name + " surf2Dread boundary " + (mode == cudaBoundaryModeZero ? "zero" : "clamp"),
            at, ref, mine, 0.0f);
  }
  CHECK(cudaDestroySurfaceObject(c));
  CHECK(hipmigrate_tex::hipDestroySurfaceObject(h));
  r.release();
}

int main() {
  if (const char* path = getenv("TEXTURE_CHECK_DUMP")) dump = fopen(path, "w");
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);

  // The filtering weights, finely, on a ramp.
  {
    Resource r = make_array(RAMP, 16, 0, 0, 0);
    for (int norm = 0; norm < 2; ++norm)
      run<float>("probe weights", RAMP, r, T1D, cudaAddressModeClamp, cudaFilterModeLinear, norm, probe1d(norm));
    r.release();
  }

  // Linear memory: tex1Dfetch, in range and out of it.
  {
    std::vector<float4> at;
    for (int x = -5; x < 37 + 5; ++x) at.push_back(make_float4(x, 0, 0, 0));
    auto fetch = [&](Format f, auto tag) {
      Resource r = make_linear(f, 37);
      run<decltype(tag)>("linear", f, r, FETCH, cudaAddressModeClamp, cudaFilterModePoint, false, at);
      r.release();
    };
    fetch(FLOAT1, 0.0f);
    fetch(FLOAT4, float4{});
    fetch(UCHAR4N, float4{});
    fetch(UCHAR1N, 0.0f);
    fetch(UCHAR1, (unsigned char)0);
    fetch(SHORT1N, 0.0f);
    fetch(HALF1, 0.0f);
  }

  formats_on<FLOAT1>("1D array", T1D, array1d, coords1d);
  formats_on<UCHAR1N>("1D array", T1D, array1d, coords1d);
  formats_on<UCHAR1>("1D array", T1D, array1d, coords1d);
  formats_on<HALF1>("1D array", T1D, array1d, coords1d);

  formats_on<FLOAT1>("2D array", T2D, array2d, coords2d);
  formats_on<FLOAT4>("2D array", T2D, array2d, coords2d);
  formats_on<UCHAR4N>("2D array", T2D, array2d, coords2d);
  formats_on<UCHAR1N>("2D array", T2D, array2d, coords2d);
  formats_on<UCHAR1>("2D array", T2D, array2d, coords2d);
  formats_on<SHORT1N>("2D array", T2D, array2d, coords2d);
  formats_on<HALF1>("2D array", T2D, array2d, coords2d);

  formats_on<FLOAT1>("pitch2D", T2D, pitch2d, coords2d);
  formats_on<UCHAR4N>("pitch2D", T2D, pitch2d, coords2d);

  formats_on<FLOAT1>("3D array", T3D, array3d, coords3d);
  formats_on<UCHAR4N>("3D array", T3D, array3d, coords3d);
  formats_on<SHORT1N>("3D array", T3D, array3d, coords3d);

  formats_on<FLOAT1>("1D layered", T1DL, layered1d, coords1dl);
  formats_on<FLOAT1>("2D layered", T2DL, layered2d, coords2dl);
  formats_on<UCHAR1>("2D layered", T2DL, layered2d, coords2dl);

  // Cube maps: directions of every face, near its edges and corners too.
  {
    std::vector<float4> at = directions();
    Resource r4 = make_array(FLOAT4, 8, 8, 6, cudaArrayCubemap);
    Resource r1 = make_array(UCHAR1N, 8, 8, 6, cudaArrayCubemap);
    for (int filter = 0; filter < 2; ++filter)
      for (int norm = 0; norm < 2; ++norm) {
        run<float4>("cubemap", FLOAT4, r4, CUBE, cudaAddressModeClamp, (cudaTextureFilterMode)filter, norm, at);
        run<float>("cubemap", UCHAR1N, r1, CUBE, cudaAddressModeClamp, (cudaTextureFilterMode)filter, norm, at);
      }
    r4.release();
    r1.release();
  }

  // Gathers, each component, on arrays made for them.
  {
    Resource r4 = make_array(FLOAT4, 11, 7, 0, cudaArrayTextureGather);
    Resource rn = make_array(UCHAR4N, 11, 7, 0, cudaArrayTextureGather);
    Resource r1 = make_array(FLOAT1, 11, 7, 0, cudaArrayTextureGather);
    for (int mode = 0; mode < 4; ++mode)
      for (int norm = 0; norm < 2; ++norm) {
        if (!norm && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) continue;
        std::vector<float4> at = grid2d(norm, 11, 7, 53, 47);
        for (int comp = 0; comp < 4; ++comp)
          run<float4>("gather", FLOAT4, r4, GATHER, (cudaTextureAddressMode)mode, cudaFilterModePoint, norm, at, comp);
        for (int comp = 0; comp < 4; ++comp)
          run<float4>("gather", UCHAR4N, rn, GATHER, (cudaTextureAddressMode)mode, cudaFilterModePoint, norm, at, comp);
        run<float4>("gather", FLOAT1, r1, GATHER, (cudaTextureAddressMode)mode, cudaFilterModePoint, norm, at, 0);
      }
    r4.release();
    rn.release();
    r1.release();
  }

  // A level of detail on an array without mipmaps: the base level.
  {
    Resource r = make_array(FLOAT4, 11, 7, 0, 0);
    for (int filter = 0; filter < 2; ++filter)
      for (int norm = 0; norm < 2; ++norm) {
        std::vector<float4> at;
        for (float4 p : grid2d(norm, 11, 7, 31, 29))
          for (float lod : {-1.0f, 0.0f, 0.5f, 3.0f}) at.push_back(make_float4(p.x, p.y, 0, lod));
        run<float4>("LOD", FLOAT4, r, LOD2D, cudaAddressModeClamp, (cudaTextureFilterMode)filter, norm, at);
      }
    r.release();
  }

  surfaces<float>("float", FLOAT1);
  surfaces<uchar4>("uchar4", UCHAR4N);

  if (dump) fclose(dump);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
