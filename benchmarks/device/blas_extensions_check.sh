#!/bin/sh
# On a machine with an NVIDIA GPU, from the repository root: build the check of the cuBLAS extensions hipmigrate
# writes on hipBLAS's functions (migrate/cpp/blas_extensions.h), compiled by nvcc on cuBLAS's functions through
# benchmarks/device/blas_extensions_check/hipblas, against cuBLAS's own extensions, and run it.
set -eu
work=$(mktemp -d)
nvcc -std=c++17 -arch=${ARCH:-sm_90} -Ibenchmarks/device/blas_extensions_check -Imigrate/cpp -o "$work/check" \
  benchmarks/device/blas_extensions_check.cu -lcublas
"$work/check"
