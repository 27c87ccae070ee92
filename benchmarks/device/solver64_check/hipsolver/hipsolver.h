// For benchmarks/device/solver64_check.cu: lets migrate/cpp/solver64.h compile under nvcc on cuSOLVER's
// typed eigensolvers, whose arguments are hipSOLVER's in the same order, so that the block can be checked against
// cuSOLVER's own 64-bit functions.
#pragma once
#include <cuComplex.h>
#include <cusolverDn.h>

typedef cusolverDnHandle_t hipsolverHandle_t;
typedef cusolverDnParams_t hipsolverDnParams_t;
typedef cusolverStatus_t hipsolverStatus_t;
typedef cusolverEigMode_t hipsolverEigMode_t;
typedef cusolverEigRange_t hipsolverEigRange_t;
typedef cublasFillMode_t hipblasFillMode_t;
typedef cudaDataType hipDataType;
typedef cuFloatComplex hipFloatComplex;
typedef cuDoubleComplex hipDoubleComplex;
#define HIPSOLVER_STATUS_INVALID_VALUE CUSOLVER_STATUS_INVALID_VALUE
#define HIP_R_32F CUDA_R_32F
#define HIP_R_64F CUDA_R_64F
#define HIP_C_32F CUDA_C_32F
#define HIP_C_64F CUDA_C_64F
#define hipsolverDnSsyevd_bufferSize cusolverDnSsyevd_bufferSize
#define hipsolverDnDsyevd_bufferSize cusolverDnDsyevd_bufferSize
#define hipsolverDnCheevd_bufferSize cusolverDnCheevd_bufferSize
#define hipsolverDnZheevd_bufferSize cusolverDnZheevd_bufferSize
#define hipsolverDnSsyevd cusolverDnSsyevd
#define hipsolverDnDsyevd cusolverDnDsyevd
#define hipsolverDnCheevd cusolverDnCheevd
#define hipsolverDnZheevd cusolverDnZheevd
#define hipsolverDnSsyevdx_bufferSize cusolverDnSsyevdx_bufferSize
#define hipsolverDnDsyevdx_bufferSize cusolverDnDsyevdx_bufferSize
#define hipsolverDnCheevdx_bufferSize cusolverDnCheevdx_bufferSize
#define hipsolverDnZheevdx_bufferSize cusolverDnZheevdx_bufferSize
#define hipsolverDnSsyevdx cusolverDnSsyevdx
#define hipsolverDnDsyevdx cusolverDnDsyevdx
#define hipsolverDnCheevdx cusolverDnCheevdx
#define hipsolverDnZheevdx cusolverDnZheevdx
