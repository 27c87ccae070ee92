// For benchmarks/device/cuda_barrier_check.cu: lets migrate/cpp/cuda_barrier.h compile under nvcc, so that its
// barrier, copies and pipelines can be run on an NVIDIA GPU. The block uses only what CUDA and HIP share (atomicAdd,
// atomicSub, atomicExch, __threadfence*, uint2 and uint4), so nothing of HIP is needed but what CUDA's runtime declares.
#pragma once
#include <cuda_runtime.h>
