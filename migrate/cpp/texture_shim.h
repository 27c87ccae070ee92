#ifndef HIPMIGRATE_TEXTURES_IN_SOFTWARE
#define HIPMIGRATE_TEXTURES_IN_SOFTWARE
// hipmigrate: the targets of this build (gfx940-gfx942, gfx950, gfx1250) have no image hardware that HIP exposes, so
// texture and surface objects and the arrays behind them are written in software, with HIP's own names in namespace
// hipmigrate_tex: an array is plain device memory (rows packed), a fetch is a load, and addressing (wrap, clamp,
// mirror, border), normalized coordinates, normalized reads and linear filtering (weights of 8 fractional bits, as
// CUDA's) are computed. Mipmapped arrays and the driver API's texture calls are not covered.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <cstring>

namespace hipmigrate_tex {

// What a hipArray_t made by hipmigrate_tex::hipMallocArray/hipMalloc3DArray points at (host memory).
struct Array {
  hipChannelFormatDesc desc;
  size_t width, height, depth;  // in elements, as allocated: 0 where the dimension is unused
  unsigned int flags;
  size_t elem;  // bytes per element
  char* data;   // device memory: element (x, y, z) at ((z * rows + y) * width + x) * elem
};

// What a hipTextureObject_t or hipSurfaceObject_t made here points at (device memory).
struct Texture {
  char* data;
  size_t pitch, slice;       // bytes from one row and from one slice (depth or layer) to the next
  int width, height, depth;  // in elements; 1 where the dimension is unused
  int elem, channels, bits, kind;  // bytes per element; channels of `bits` bits each; hipChannelFormatKind
  int address[3], filter, normalized_read, normalized_coords, linear;
  float border[4];
};

inline Array* array_of(hipArray_const_t a) { return reinterpret_cast<Array*>(const_cast<hipArray*>(a)); }
inline size_t rows_of(const Array* a) { return a->height ? a->height : 1; }
inline size_t pitch_of(const Array* a) { return a->width * a->elem; }

inline hipError_t hipMalloc3DArray(hipArray_t* array, const hipChannelFormatDesc* desc, hipExtent extent,
                                   unsigned int flags = 0) {
  if (array == nullptr || desc == nullptr || extent.width == 0) return hipErrorInvalidValue;
  size_t elem = static_cast<size_t>(desc->x + desc->y + desc->z + desc->w) / 8;
  if (elem == 0) return hipErrorInvalidValue;
  Array* a = new Array{*desc, extent.width, extent.height, extent.depth, flags, elem, nullptr};
  size_t bytes = pitch_of(a) * rows_of(a) * (extent.depth ? extent.depth : 1);
  hipError_t e = hipMalloc(reinterpret_cast<void**>(&a->data), bytes);
  if (e != hipSuccess) {
    delete a;
    return e;
  }
  *array = reinterpret_cast<hipArray_t>(a);
  return hipSuccess;
}

inline hipError_t hipMallocArray(hipArray_t* array, const hipChannelFormatDesc* desc, size_t width,
                                 size_t height = 0, unsigned int flags = 0) {
  return hipmigrate_tex::hipMalloc3DArray(array, desc, make_hipExtent(width, height, 0), flags);
}

inline hipError_t hipFreeArray(hipArray_t array) {
  if (array == nullptr) return hipSuccess;
  Array* a = array_of(array);
  hipError_t e = hipFree(a->data);
  delete a;
  return e;
}

inline hipError_t hipArrayGetInfo(hipChannelFormatDesc* desc, hipExtent* extent, unsigned int* flags,
                                  hipArray_t array) {
  const Array* a = array_of(array);
  if (desc) *desc = a->desc;
  if (extent) *extent = make_hipExtent(a->width, a->height, a->depth);
  if (flags) *flags = a->flags;
  return hipSuccess;
}

inline hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array) {
  *desc = array_of(array)->desc;
  return hipSuccess;
}

// Copies into and out of an array: offsets and widths in bytes, as CUDA's.
inline hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                          size_t spitch, size_t width, size_t height, hipMemcpyKind kind,
                                          hipStream_t stream = 0) {
  Array* a = array_of(dst);
  return hipMemcpy2DAsync(a->data + hOffset * pitch_of(a) + wOffset, pitch_of(a), src, spitch, width, height,
                          kind, stream);
}

inline hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                     size_t spitch, size_t width, size_t height, hipMemcpyKind kind) {
  Array* a = array_of(dst);
  return hipMemcpy2D(a->data + hOffset * pitch_of(a) + wOffset, pitch_of(a), src, spitch, width, height, kind);
}

inline hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, hipMemcpyKind kind) {
  const Array* a = array_of(src);
  return hipMemcpy2D(dst, dpitch, a->data + hOffset * pitch_of(a) + wOffset, pitch_of(a), width, height, kind);
}

inline hipError_t hipMemcpy2DArrayToArray(hipArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                          hipArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                          size_t height, hipMemcpyKind kind = hipMemcpyDeviceToDevice) {
  Array* d = array_of(dst);
  const Array* s = array_of(src);
  return hipMemcpy2D(d->data + hOffsetDst * pitch_of(d) + wOffsetDst, pitch_of(d),
                     s->data + hOffsetSrc * pitch_of(s) + wOffsetSrc, pitch_of(s), width, height, kind);
}

inline hipError_t hipMemcpyToArray(hipArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                                   hipMemcpyKind kind) {
  Array* a = array_of(dst);
  return hipMemcpy(a->data + hOffset * pitch_of(a) + wOffset, src, count, kind);
}

inline hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     hipMemcpyKind kind) {
  const Array* a = array_of(src);
  return hipMemcpy(dst, a->data + hOffset * pitch_of(a) + wOffset, count, kind);
}

// A 3D copy with an array on either side becomes a copy between pitched pointers (the array's rows are packed).
inline hipMemcpy3DParms pitched(const hipMemcpy3DParms* p) {
  hipMemcpy3DParms q = *p;
  size_t elem = 1;
  if (p->srcArray != nullptr) {
    Array* a = array_of(p->srcArray);
    elem = a->elem;
    q.srcPtr = make_hipPitchedPtr(a->data, pitch_of(a), a->width, rows_of(a));
    q.srcPos.x *= elem;
    q.srcArray = nullptr;
  }
  if (p->dstArray != nullptr) {
    Array* a = array_of(p->dstArray);
    elem = a->elem;
    q.dstPtr = make_hipPitchedPtr(a->data, pitch_of(a), a->width, rows_of(a));
    q.dstPos.x *= elem;
    q.dstArray = nullptr;
  }
  if (p->srcArray != nullptr || p->dstArray != nullptr) q.extent.width *= elem;  // elements of the array, in bytes
  if (q.extent.height == 0) q.extent.height = 1;
  if (q.extent.depth == 0) q.extent.depth = 1;
  return q;
}

inline hipError_t hipMemcpy3D(const hipMemcpy3DParms* p) {
  hipMemcpy3DParms q = pitched(p);
  return ::hipMemcpy3D(&q);
}

inline hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms* p, hipStream_t stream = 0) {
  hipMemcpy3DParms q = pitched(p);
  return ::hipMemcpy3DAsync(&q, stream);
}

inline int channels_of(const hipChannelFormatDesc& d) { return (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0); }

inline hipError_t describe(Texture* t, const hipResourceDesc* res) {
  *t = Texture{};
  hipChannelFormatDesc desc;
  if (res->resType == hipResourceTypeArray) {
    const Array* a = array_of(res->res.array.array);
    desc = a->desc;
    t->data = a->data;
    t->width = static_cast<int>(a->width);
    t->height = static_cast<int>(rows_of(a));
    t->depth = static_cast<int>(a->depth ? a->depth : 1);
    t->pitch = pitch_of(a);
  } else if (res->resType == hipResourceTypeLinear) {
    desc = res->res.linear.desc;
    t->data = static_cast<char*>(res->res.linear.devPtr);
    t->elem = (desc.x + desc.y + desc.z + desc.w) / 8;
    t->width = t->elem ? static_cast<int>(res->res.linear.sizeInBytes / t->elem) : 0;
    t->height = t->depth = 1;
    t->pitch = res->res.linear.sizeInBytes;
    t->linear = 1;
  } else if (res->resType == hipResourceTypePitch2D) {
    desc = res->res.pitch2D.desc;
    t->data = static_cast<char*>(res->res.pitch2D.devPtr);
    t->width = static_cast<int>(res->res.pitch2D.width);
    t->height = static_cast<int>(res->res.pitch2D.height);
    t->depth = 1;
    t->pitch = res->res.pitch2D.pitchInBytes;
  } else {
    return hipErrorNotSupported;  // mipmapped arrays: not in the software path
  }
  t->elem = (desc.x + desc.y + desc.z + desc.w) / 8;
  t->channels = channels_of(desc);
  t->bits = desc.x;
  t->kind = desc.f;
  t->slice = t->pitch * t->height;
  return t->elem > 0 ? hipSuccess : hipErrorInvalidValue;
}

template <class Object>
inline hipError_t publish(Object* object, const Texture& t) {
  Texture* d = nullptr;
  hipError_t e = hipMalloc(reinterpret_cast<void**>(&d), sizeof(Texture));
  if (e != hipSuccess) return e;
  e = hipMemcpy(d, &t, sizeof(Texture), hipMemcpyHostToDevice);
  if (e != hipSuccess) {
    (void)hipFree(d);
    return e;
  }
  *object = reinterpret_cast<Object>(d);
  return hipSuccess;
}

inline hipError_t hipCreateTextureObject(hipTextureObject_t* texture, const hipResourceDesc* res,
                                         const hipTextureDesc* desc, const hipResourceViewDesc* view = nullptr) {
  (void)view;
  if (texture == nullptr || res == nullptr || desc == nullptr) return hipErrorInvalidValue;
  Texture t;
  hipError_t e = describe(&t, res);
  if (e != hipSuccess) return e;
  for (int i = 0; i < 3; ++i) t.address[i] = desc->addressMode[i];
  for (int i = 0; i < 4; ++i) t.border[i] = desc->borderColor[i];
  t.normalized_read = desc->readMode == hipReadModeNormalizedFloat && t.kind != hipChannelFormatKindFloat;
  if (t.normalized_read && t.bits < 32) {  // the hardware stores the border color in the texel's format
    float most = static_cast<float>((1 << (t.kind == hipChannelFormatKindSigned ? t.bits - 1 : t.bits)) - 1);
    float least = t.kind == hipChannelFormatKindSigned ? -1.0f : 0.0f;
    for (int i = 0; i < 4; ++i) {
      float b = t.border[i] < least ? least : (t.border[i] > 1.0f ? 1.0f : t.border[i]);
      t.border[i] = ceilf(b * most - 0.5f) / most;  // to the nearest, halves down (0.5 -> 127/255)
    }
  }
  t.filter = desc->filterMode;
  t.normalized_coords = desc->normalizedCoords;
  return publish(texture, t);
}

inline hipError_t hipDestroyTextureObject(hipTextureObject_t texture) { return hipFree(texture); }

inline hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* surface, const hipResourceDesc* res) {
  if (surface == nullptr || res == nullptr || res->resType != hipResourceTypeArray) return hipErrorInvalidValue;
  Texture t;
  hipError_t e = describe(&t, res);
  return e == hipSuccess ? publish(surface, t) : e;
}

inline hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surface) { return hipFree(surface); }

// ---- device side ----

__device__ inline const Texture& texture_of(const void* object) { return *static_cast<const Texture*>(object); }

// One channel of the element at `p`, as a float: converted from its integer type, normalized when asked.
__device__ inline float channel(const Texture& t, const char* p) {
  if (t.kind == hipChannelFormatKindFloat) {
    if (t.bits == 16) return __half2float(*reinterpret_cast<const __half*>(p));
    return *reinterpret_cast<const float*>(p);
  }
  bool sign = t.kind == hipChannelFormatKindSigned;
  if (t.bits == 8) {
    if (sign) {
      float v = *reinterpret_cast<const signed char*>(p);
      return t.normalized_read ? fmaxf(v / 127.0f, -1.0f) : v;
    }
    float v = *reinterpret_cast<const unsigned char*>(p);
    return t.normalized_read ? v / 255.0f : v;
  }
  if (t.bits == 16) {
    if (sign) {
      float v = *reinterpret_cast<const short*>(p);
      return t.normalized_read ? fmaxf(v / 32767.0f, -1.0f) : v;
    }
    float v = *reinterpret_cast<const unsigned short*>(p);
    return t.normalized_read ? v / 65535.0f : v;
  }
  return sign ? static_cast<float>(*reinterpret_cast<const int*>(p))
              : static_cast<float>(*reinterpret_cast<const unsigned int*>(p));
}

__device__ inline float4 texel(const Texture& t, const char* p) {
  float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int i = 0; i < t.channels && i < 4; ++i) c[i] = channel(t, p + i * (t.bits / 8));
  return make_float4(c[0], c[1], c[2], c[3]);
}

// The index an address mode makes of `i` along an axis of `n` elements; -1 is the border.
__device__ inline int address(const Texture& t, int axis, int i, int n) {
  int mode = t.address[axis];
  if (!t.normalized_coords && (mode == hipAddressModeWrap || mode == hipAddressModeMirror)) mode = hipAddressModeClamp;
  if (mode == hipAddressModeWrap) return ((i % n) + n) % n;
  if (mode == hipAddressModeMirror) {
    int m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  if (mode == hipAddressModeBorder) return i < 0 || i >= n ? -1 : i;
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

__device__ inline const char* element(const Texture& t, int x, int y, int z) {
  return t.data + static_cast<size_t>(z) * t.slice + static_cast<size_t>(y) * t.pitch + static_cast<size_t>(x) * t.elem;
}

__device__ inline float4 border(const Texture& t) {
  return make_float4(t.border[0], t.border[1], t.border[2], t.border[3]);
}

__device__ inline float4 texel_at(const Texture& t, int x, int y, int z, int layer) {
  x = address(t, 0, x, t.width);
  y = address(t, 1, y, t.height);
  if (layer < 0) z = address(t, 2, z, t.depth); else z = layer < t.depth ? layer : t.depth - 1;
  if (x < 0 || y < 0 || z < 0) return border(t);
  return texel(t, element(t, x, y, z));
}

// Results: a float T, or a vector of floats, takes the channels in order (filtered, normalized or converted); any
// other T is loaded as stored (point sampling, reads of the element type).
template <class T> struct result {
  static constexpr bool floating = false;
  __device__ static T from(float4 v) { return static_cast<T>(v.x); }
};
template <> struct result<float> {
  static constexpr bool floating = true;
  __device__ static float from(float4 v) { return v.x; }
};
template <class V, class E, unsigned int n> struct vector_result {
  static constexpr bool floating = result<E>::floating;
  __device__ static V from(float4 v) {
    V r{};
    E* e = reinterpret_cast<E*>(&r);  // the components are laid out in order
    const float c[4] = {v.x, v.y, v.z, v.w};
    for (unsigned int i = 0; i < n; ++i) e[i] = static_cast<E>(c[i]);
    return r;
  }
};
template <> struct result<float1> : vector_result<float1, float, 1> {};
template <> struct result<float2> : vector_result<float2, float, 2> {};
template <> struct result<float3> : vector_result<float3, float, 3> {};
template <> struct result<float4> : vector_result<float4, float, 4> {};
template <> struct result<char1> : vector_result<char1, signed char, 1> {};
template <> struct result<char2> : vector_result<char2, signed char, 2> {};
template <> struct result<char3> : vector_result<char3, signed char, 3> {};
template <> struct result<char4> : vector_result<char4, signed char, 4> {};
template <> struct result<uchar1> : vector_result<uchar1, unsigned char, 1> {};
template <> struct result<uchar2> : vector_result<uchar2, unsigned char, 2> {};
template <> struct result<uchar3> : vector_result<uchar3, unsigned char, 3> {};
template <> struct result<uchar4> : vector_result<uchar4, unsigned char, 4> {};
template <> struct result<short1> : vector_result<short1, short, 1> {};
template <> struct result<short2> : vector_result<short2, short, 2> {};
template <> struct result<short3> : vector_result<short3, short, 3> {};
template <> struct result<short4> : vector_result<short4, short, 4> {};
template <> struct result<ushort1> : vector_result<ushort1, unsigned short, 1> {};
template <> struct result<ushort2> : vector_result<ushort2, unsigned short, 2> {};
template <> struct result<ushort3> : vector_result<ushort3, unsigned short, 3> {};
template <> struct result<ushort4> : vector_result<ushort4, unsigned short, 4> {};
template <> struct result<int1> : vector_result<int1, int, 1> {};
template <> struct result<int2> : vector_result<int2, int, 2> {};
template <> struct result<int3> : vector_result<int3, int, 3> {};
template <> struct result<int4> : vector_result<int4, int, 4> {};
template <> struct result<uint1> : vector_result<uint1, unsigned int, 1> {};
template <> struct result<uint2> : vector_result<uint2, unsigned int, 2> {};
template <> struct result<uint3> : vector_result<uint3, unsigned int, 3> {};
template <> struct result<uint4> : vector_result<uint4, unsigned int, 4> {};
template <class T> struct loaded { static constexpr bool value = !result<T>::floating; };

template <class T>
__device__ inline T point(const Texture& t, int x, int y, int z, int layer) {
  if (loaded<T>::value && !t.normalized_read && t.kind != hipChannelFormatKindFloat) {
    int ax = address(t, 0, x, t.width), ay = address(t, 1, y, t.height);
    int az = layer < 0 ? address(t, 2, z, t.depth) : (layer < t.depth ? layer : t.depth - 1);
    T v{};  // outside, with the border mode: zero, as the hardware gives for an integer element type
    if (ax >= 0 && ay >= 0 && az >= 0) memcpy(&v, element(t, ax, ay, az), sizeof(T) < 16 ? sizeof(T) : 16);
    return v;
  }
  return result<T>::from(texel_at(t, x, y, z, layer));
}

__device__ inline float weight(float f) { return floorf(f * 256.0f + 0.5f) * (1.0f / 256.0f); }

__device__ inline float4 mix(float4 a, float4 b, float w) {
  return make_float4(a.x + (b.x - a.x) * w, a.y + (b.y - a.y) * w, a.z + (b.z - a.z) * w, a.w + (b.w - a.w) * w);
}

// Sampling at texture coordinates (x, y, z) of `dims` dimensions; `layer` >= 0 for a layered array.
template <class T>
__device__ inline T sample(const Texture& t, float x, float y, float z, int dims, int layer) {
  if (t.normalized_coords) {
    x *= t.width;
    if (dims > 1) y *= t.height;
    if (dims > 2) z *= t.depth;
  }
  if (t.filter != hipFilterModeLinear || loaded<T>::value) {
    return point<T>(t, static_cast<int>(floorf(x)), dims > 1 ? static_cast<int>(floorf(y)) : 0,
                    dims > 2 ? static_cast<int>(floorf(z)) : 0, layer);
  }
  float xb = x - 0.5f, yb = y - 0.5f, zb = z - 0.5f;
  int i = static_cast<int>(floorf(xb)), j = static_cast<int>(floorf(yb)), k = static_cast<int>(floorf(zb));
  float a = weight(xb - i), b = weight(yb - j), c = weight(zb - k);
  if (dims == 1) {
    float4 r = mix(texel_at(t, i, 0, 0, layer), texel_at(t, i + 1, 0, 0, layer), a);
    // the hardware filters a 1D texture as a row at y = 0 between row -1 and row 0: half the border comes in
    if (layer < 0 && t.address[1] == hipAddressModeBorder) r = mix(border(t), r, 0.5f);
    return result<T>::from(r);
  }
  float4 r0 = mix(texel_at(t, i, j, dims > 2 ? k : 0, layer), texel_at(t, i + 1, j, dims > 2 ? k : 0, layer), a);
  float4 r1 = mix(texel_at(t, i, j + 1, dims > 2 ? k : 0, layer), texel_at(t, i + 1, j + 1, dims > 2 ? k : 0, layer), a);
  float4 s = mix(r0, r1, b);
  if (dims == 2) return result<T>::from(s);
  float4 q0 = mix(texel_at(t, i, j, k + 1, -1), texel_at(t, i + 1, j, k + 1, -1), a);
  float4 q1 = mix(texel_at(t, i, j + 1, k + 1, -1), texel_at(t, i + 1, j + 1, k + 1, -1), a);
  return result<T>::from(mix(s, mix(q0, q1, b), c));
}

template <class T>
__device__ inline T tex1Dfetch(hipTextureObject_t object, int x) {
  const Texture& t = texture_of(object);
  if (x < 0 || x >= t.width) return result<T>::from(make_float4(0.0f, 0.0f, 0.0f, 0.0f));
  if (loaded<T>::value && !t.normalized_read && t.kind != hipChannelFormatKindFloat) {
    T v{};
    memcpy(&v, element(t, x, 0, 0), sizeof(T) < 16 ? sizeof(T) : 16);
    return v;
  }
  return result<T>::from(texel(t, element(t, x, 0, 0)));
}
template <class T>
__device__ inline T tex1D(hipTextureObject_t object, float x) { return sample<T>(texture_of(object), x, 0, 0, 1, -1); }
template <class T>
__device__ inline T tex2D(hipTextureObject_t object, float x, float y) {
  return sample<T>(texture_of(object), x, y, 0, 2, -1);
}
template <class T>
__device__ inline T tex3D(hipTextureObject_t object, float x, float y, float z) {
  return sample<T>(texture_of(object), x, y, z, 3, -1);
}
// A layer out of range reads the last layer (the hardware compares it unsigned).
__device__ inline int layer_of(const Texture& t, int layer) {
  return static_cast<unsigned int>(layer) < static_cast<unsigned int>(t.depth) ? layer : t.depth - 1;
}
template <class T>
__device__ inline T tex1DLayered(hipTextureObject_t object, float x, int layer) {
  const Texture& t = texture_of(object);
  return sample<T>(t, x, 0, 0, 1, layer_of(t, layer));
}
template <class T>
__device__ inline T tex2DLayered(hipTextureObject_t object, float x, float y, int layer) {
  const Texture& t = texture_of(object);
  return sample<T>(t, x, y, 0, 2, layer_of(t, layer));
}
// Without mipmaps a level of detail or a gradient selects the base level, as CUDA does for an array.
template <class T>
__device__ inline T tex1DLod(hipTextureObject_t object, float x, float) { return hipmigrate_tex::tex1D<T>(object, x); }
template <class T>
__device__ inline T tex2DLod(hipTextureObject_t object, float x, float y, float) { return hipmigrate_tex::tex2D<T>(object, x, y); }
template <class T>
__device__ inline T tex3DLod(hipTextureObject_t object, float x, float y, float z, float) {
  return hipmigrate_tex::tex3D<T>(object, x, y, z);
}
template <class T>
__device__ inline T tex2DGrad(hipTextureObject_t object, float x, float y, float2, float2) {
  return hipmigrate_tex::tex2D<T>(object, x, y);
}

// A cube map: the face of the major axis, then that face's (s, t) in [0, 1], as in CUDA's table. Where two axes are
// equally long, the later one (z before y before x) gives the face, as the hardware does.
template <class T>
__device__ inline T texCubemap(hipTextureObject_t object, float x, float y, float z) {
  float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, s, u;
  int face;
  if (ax > ay && ax > az) {
    face = x >= 0 ? 0 : 1; m = ax; s = x >= 0 ? -z : z; u = -y;
  } else if (ay > az) {
    face = y >= 0 ? 2 : 3; m = ay; s = x; u = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5; m = az; s = z >= 0 ? x : -x; u = -y;
  }
  Texture t = texture_of(object);
  t.normalized_coords = 1;
  return sample<T>(t, (s / m + 1.0f) * 0.5f, (u / m + 1.0f) * 0.5f, 0, 2, face);
}

// The four texels that bilinear filtering would read, one channel of each: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
template <class T>
__device__ inline T tex2Dgather(hipTextureObject_t object, float x, float y, int comp = 0) {
  const Texture& t = texture_of(object);
  if (t.normalized_coords) {
    x *= t.width;
    y *= t.height;
  }
  int i = static_cast<int>(floorf(x - 0.5f)), j = static_cast<int>(floorf(y - 0.5f));
  float4 q[4] = {texel_at(t, i, j + 1, 0, -1), texel_at(t, i + 1, j + 1, 0, -1), texel_at(t, i + 1, j, 0, -1),
                 texel_at(t, i, j, 0, -1)};
  float v[4];
  for (int n = 0; n < 4; ++n) v[n] = comp == 0 ? q[n].x : comp == 1 ? q[n].y : comp == 2 ? q[n].z : q[n].w;
  T r;
  r.x = v[0]; r.y = v[1]; r.z = v[2]; r.w = v[3];
  return r;
}

// The forms that store through a pointer.
template <class T> __device__ inline void tex1Dfetch(T* r, hipTextureObject_t o, int x) { *r = hipmigrate_tex::tex1Dfetch<T>(o, x); }
template <class T> __device__ inline void tex1D(T* r, hipTextureObject_t o, float x) { *r = hipmigrate_tex::tex1D<T>(o, x); }
template <class T> __device__ inline void tex2D(T* r, hipTextureObject_t o, float x, float y) { *r = hipmigrate_tex::tex2D<T>(o, x, y); }
template <class T>
__device__ inline void tex3D(T* r, hipTextureObject_t o, float x, float y, float z) { *r = hipmigrate_tex::tex3D<T>(o, x, y, z); }

// Surfaces: x in bytes, as CUDA's; out of range, a read gives zero and a write is dropped (clamped with
// hipBoundaryModeClamp).
__device__ inline char* surface_element(const Texture& t, int x_bytes, int y, int z, int boundary) {
  int x = x_bytes / t.elem;
  if (boundary == hipBoundaryModeClamp) {
    x = x < 0 ? 0 : (x >= t.width ? t.width - 1 : x);
    y = y < 0 ? 0 : (y >= t.height ? t.height - 1 : y);
    z = z < 0 ? 0 : (z >= t.depth ? t.depth - 1 : z);
  } else if (x < 0 || x >= t.width || y < 0 || y >= t.height || z < 0 || z >= t.depth) {
    return nullptr;
  }
  return const_cast<char*>(element(t, x, y, z));
}

template <class T>
__device__ inline T surf_read(hipSurfaceObject_t object, int x, int y, int z, int boundary) {
  T v{};
  const char* p = surface_element(texture_of(object), x, y, z, boundary);
  if (p != nullptr) memcpy(&v, p, sizeof(T));
  return v;
}

template <class T>
__device__ inline void surf_write(T v, hipSurfaceObject_t object, int x, int y, int z, int boundary) {
  char* p = surface_element(texture_of(object), x, y, z, boundary);
  if (p != nullptr) memcpy(p, &v, sizeof(T));
}

template <class T>
__device__ inline T surf1Dread(hipSurfaceObject_t s, int x, int boundary = hipBoundaryModeTrap) {
  return surf_read<T>(s, x, 0, 0, boundary);
}
template <class T>
__device__ inline T surf2Dread(hipSurfaceObject_t s, int x, int y, int boundary = hipBoundaryModeTrap) {
  return surf_read<T>(s, x, y, 0, boundary);
}
template <class T>
__device__ inline T surf3Dread(hipSurfaceObject_t s, int x, int y, int z, int boundary = hipBoundaryModeTrap) {
  return surf_read<T>(s, x, y, z, boundary);
}
template <class T>
__device__ inline T surf2DLayeredread(hipSurfaceObject_t s, int x, int y, int layer,
                                      int boundary = hipBoundaryModeTrap) {
  return surf_read<T>(s, x, y, layer, boundary);
}
template <class T>
__device__ inline void surf1Dread(T* r, hipSurfaceObject_t s, int x, int boundary = hipBoundaryModeTrap) {
  *r = surf_read<T>(s, x, 0, 0, boundary);
}
template <class T>
__device__ inline void surf2Dread(T* r, hipSurfaceObject_t s, int x, int y, int boundary = hipBoundaryModeTrap) {
  *r = surf_read<T>(s, x, y, 0, boundary);
}
template <class T>
__device__ inline void surf3Dread(T* r, hipSurfaceObject_t s, int x, int y, int z, int boundary = hipBoundaryModeTrap) {
  *r = surf_read<T>(s, x, y, z, boundary);
}
template <class T>
__device__ inline void surf1Dwrite(T v, hipSurfaceObject_t s, int x, int boundary = hipBoundaryModeTrap) {
  surf_write(v, s, x, 0, 0, boundary);
}
template <class T>
__device__ inline void surf2Dwrite(T v, hipSurfaceObject_t s, int x, int y, int boundary = hipBoundaryModeTrap) {
  surf_write(v, s, x, y, 0, boundary);
}
template <class T>
__device__ inline void surf3Dwrite(T v, hipSurfaceObject_t s, int x, int y, int z, int boundary = hipBoundaryModeTrap) {
  surf_write(v, s, x, y, z, boundary);
}
template <class T>
__device__ inline void surf2DLayeredwrite(T v, hipSurfaceObject_t s, int x, int y, int layer,
                                          int boundary = hipBoundaryModeTrap) {
  surf_write(v, s, x, y, layer, boundary);
}

}  // namespace hipmigrate_tex
#endif  // HIPMIGRATE_TEXTURES_IN_SOFTWARE
