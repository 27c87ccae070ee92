// For benchmarks/device/texture_check.cu: migrate/cpp/texture_shim.h's <hip/hip_fp16.h>, under nvcc (see hip_runtime.h).
#pragma once
#include <cuda_fp16.h>
