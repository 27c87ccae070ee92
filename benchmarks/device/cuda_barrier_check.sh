#!/bin/sh
# On a machine with an NVIDIA GPU, from the repository root: build the check of the block hipmigrate writes in place of
# libcu++'s barrier, memcpy_async and pipelines (migrate/cpp/cuda_barrier.h, CPP068), compiled by nvcc on CUDA's
# runtime through benchmarks/device/cuda_barrier_check/hip, and run it. A case that deadlocks is reported after 20 s.
set -eu
work=$(mktemp -d)
nvcc -std=c++17 -arch=${ARCH:-sm_90} -Ibenchmarks/device/cuda_barrier_check -Imigrate/cpp -o "$work/check" \
  benchmarks/device/cuda_barrier_check.cu
"$work/check"
