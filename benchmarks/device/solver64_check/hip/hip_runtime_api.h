// For benchmarks/device/solver64_check.cu: the few HIP runtime names migrate/cpp/solver64.h uses (gesvdr's copies
// out of its workspace, on the handle's stream), on CUDA's runtime, whose arguments are HIP's in the same order.
#pragma once
#include <cuda_runtime_api.h>

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
#define hipSuccess cudaSuccess
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemcpy2DAsync cudaMemcpy2DAsync
