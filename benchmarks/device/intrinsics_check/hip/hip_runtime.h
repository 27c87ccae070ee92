// For benchmarks/device/intrinsics_check.cu: lets migrate/cpp/intrinsics_shim.h compile under nvcc, so that its
// intrinsics can be checked against CUDA's own. The shim needs nothing of HIP but what CUDA's runtime declares.
#pragma once
#include <cuda_runtime.h>
