// For benchmarks/device/blas_extensions_check.cu: lets migrate/cpp/blas_extensions.h compile under nvcc on cuBLAS's
// herk, syrk and batched GEMMs and the CUDA runtime's copies, whose arguments are hipBLAS's and HIP's in the same
// order, so that the block can be checked against cuBLAS's own extensions.
#pragma once
#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

typedef cublasHandle_t hipblasHandle_t;
typedef cublasStatus_t hipblasStatus_t;
typedef cublasFillMode_t hipblasFillMode_t;
typedef cublasOperation_t hipblasOperation_t;
typedef cublasPointerMode_t hipblasPointerMode_t;
typedef cublasComputeType_t hipblasComputeType_t;
typedef cudaDataType hipDataType;
typedef cuComplex hipComplex;
typedef cuDoubleComplex hipDoubleComplex;
typedef cudaStream_t hipStream_t;
typedef cudaError_t hipError_t;
#define HIPBLAS_STATUS_SUCCESS CUBLAS_STATUS_SUCCESS
#define HIPBLAS_STATUS_INVALID_VALUE CUBLAS_STATUS_INVALID_VALUE
#define HIPBLAS_STATUS_EXECUTION_FAILED CUBLAS_STATUS_EXECUTION_FAILED
#define HIPBLAS_STATUS_NOT_SUPPORTED CUBLAS_STATUS_NOT_SUPPORTED
#define HIPBLAS_FILL_MODE_UPPER CUBLAS_FILL_MODE_UPPER
#define HIPBLAS_FILL_MODE_LOWER CUBLAS_FILL_MODE_LOWER
#define HIPBLAS_POINTER_MODE_HOST CUBLAS_POINTER_MODE_HOST
#define HIPBLAS_POINTER_MODE_DEVICE CUBLAS_POINTER_MODE_DEVICE
#define HIPBLAS_COMPUTE_16F CUBLAS_COMPUTE_16F
#define HIPBLAS_COMPUTE_16F_PEDANTIC CUBLAS_COMPUTE_16F_PEDANTIC
#define HIPBLAS_COMPUTE_32F CUBLAS_COMPUTE_32F
#define HIPBLAS_COMPUTE_32F_PEDANTIC CUBLAS_COMPUTE_32F_PEDANTIC
#define HIPBLAS_COMPUTE_64F CUBLAS_COMPUTE_64F
#define HIPBLAS_COMPUTE_64F_PEDANTIC CUBLAS_COMPUTE_64F_PEDANTIC
#define HIPBLAS_GEMM_DEFAULT CUBLAS_GEMM_DEFAULT
#define HIP_R_16F CUDA_R_16F
#define HIP_R_16BF CUDA_R_16BF
#define HIP_R_32F CUDA_R_32F
#define HIP_R_64F CUDA_R_64F
#define HIP_C_8I CUDA_C_8I
#define HIP_C_16F CUDA_C_16F
#define HIP_C_16BF CUDA_C_16BF
#define HIP_C_32F CUDA_C_32F
#define HIP_C_64F CUDA_C_64F
#define hipSuccess cudaSuccess
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyAsync cudaMemcpyAsync
#define hipblasGetStream cublasGetStream
#define hipblasGetPointerMode cublasGetPointerMode
#define hipblasSetPointerMode cublasSetPointerMode
#define hipblasCherk cublasCherk
#define hipblasCsyrk cublasCsyrk
#define hipblasSgemmBatched cublasSgemmBatched
#define hipblasDgemmBatched cublasDgemmBatched
#define hipblasGemmBatchedEx cublasGemmBatchedEx
