// For benchmarks/device/texture_check.cu: lets migrate/cpp/texture_shim.h compile under nvcc, so that its software
// textures can be checked against CUDA's hardware ones. Each HIP name the shim uses maps onto CUDA's, except the
// handles: hipArray_t, hipTextureObject_t and hipSurfaceObject_t are the shim's own opaque pointers, as in HIP (CUDA's
// texture object is an integer), so the two structures that hold an array, hipResourceDesc and hipMemcpy3DParms, are
// declared here with HIP's field names. Names the shim itself defines (hipMallocArray, hipMemcpy3D in its namespace,
// hipCreateTextureObject, tex2D, ...) must not be macros here.
#pragma once
#include <cuda_runtime.h>

typedef cudaError_t hipError_t;
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorNotSupported cudaErrorNotSupported

typedef cudaStream_t hipStream_t;
typedef cudaMemcpyKind hipMemcpyKind;
#define hipMemcpyHostToHost cudaMemcpyHostToHost
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyDefault cudaMemcpyDefault
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpy2D cudaMemcpy2D
#define hipMemcpy2DAsync cudaMemcpy2DAsync

typedef cudaChannelFormatDesc hipChannelFormatDesc;
#define hipChannelFormatKindSigned cudaChannelFormatKindSigned
#define hipChannelFormatKindUnsigned cudaChannelFormatKindUnsigned
#define hipChannelFormatKindFloat cudaChannelFormatKindFloat

typedef cudaExtent hipExtent;
typedef cudaPos hipPos;
typedef cudaPitchedPtr hipPitchedPtr;
#define make_hipExtent make_cudaExtent
#define make_hipPos make_cudaPos
#define make_hipPitchedPtr make_cudaPitchedPtr

// The handles (driver_types.h, texture_types.h and surface_types.h of HIP).
struct hipArray;
typedef struct hipArray* hipArray_t;
typedef const struct hipArray* hipArray_const_t;
typedef struct __hip_texture* hipTextureObject_t;
typedef struct __hip_surface* hipSurfaceObject_t;

typedef cudaResourceType hipResourceType;
#define hipResourceTypeArray cudaResourceTypeArray
#define hipResourceTypeMipmappedArray cudaResourceTypeMipmappedArray
#define hipResourceTypeLinear cudaResourceTypeLinear
#define hipResourceTypePitch2D cudaResourceTypePitch2D

typedef struct hipResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { hipArray_t array; } array;
    struct { void* mipmap; } mipmap;
    struct { void* devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void* devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
} hipResourceDesc;

// Same fields and names in both.
typedef cudaTextureDesc hipTextureDesc;
typedef cudaResourceViewDesc hipResourceViewDesc;
#define hipAddressModeWrap cudaAddressModeWrap
#define hipAddressModeClamp cudaAddressModeClamp
#define hipAddressModeMirror cudaAddressModeMirror
#define hipAddressModeBorder cudaAddressModeBorder
#define hipFilterModePoint cudaFilterModePoint
#define hipFilterModeLinear cudaFilterModeLinear
#define hipReadModeElementType cudaReadModeElementType
#define hipReadModeNormalizedFloat cudaReadModeNormalizedFloat
#define hipBoundaryModeZero cudaBoundaryModeZero
#define hipBoundaryModeTrap cudaBoundaryModeTrap
#define hipBoundaryModeClamp cudaBoundaryModeClamp

typedef struct hipMemcpy3DParms {
  hipArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  hipArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
} hipMemcpy3DParms;

// The global hipMemcpy3D the shim calls once it has turned its arrays into pitched pointers; a shim array cannot
// reach CUDA, so one still named here is refused.
inline cudaMemcpy3DParms hip_to_cuda(const hipMemcpy3DParms* p) {
  cudaMemcpy3DParms q = {};
  q.srcPos = p->srcPos;
  q.srcPtr = p->srcPtr;
  q.dstPos = p->dstPos;
  q.dstPtr = p->dstPtr;
  q.extent = p->extent;
  q.kind = p->kind;
  return q;
}

inline hipError_t hipMemcpy3D(const hipMemcpy3DParms* p) {
  if (p == nullptr || p->srcArray != nullptr || p->dstArray != nullptr) return cudaErrorInvalidValue;
  cudaMemcpy3DParms q = hip_to_cuda(p);
  return cudaMemcpy3D(&q);
}

inline hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms* p, hipStream_t stream = 0) {
  if (p == nullptr || p->srcArray != nullptr || p->dstArray != nullptr) return cudaErrorInvalidValue;
  cudaMemcpy3DParms q = hip_to_cuda(p);
  return cudaMemcpy3DAsync(&q, stream);
}
