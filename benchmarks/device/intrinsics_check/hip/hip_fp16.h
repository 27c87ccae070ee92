// For benchmarks/device/intrinsics_check.cu (see hip_runtime.h here).
#pragma once
#include <cuda_fp16.h>
