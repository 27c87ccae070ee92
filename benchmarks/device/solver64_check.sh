#!/bin/sh
# On a machine with an NVIDIA GPU, from the repository root: build the check of the 64-bit eigensolvers and SVDs
# hipmigrate writes on the typed ones (migrate/cpp/solver64.h, CPP064: Xsyevd, Xsyevdx, Xgesvd, Xgesvdp, Xgesvdr),
# compiled by nvcc on cuSOLVER's typed functions and CUDA's runtime through benchmarks/device/solver64_check/hipsolver
# and .../hip, against cuSOLVER's own 64-bit functions, and run it.
set -eu
work=$(mktemp -d)
nvcc -std=c++17 -arch=${ARCH:-sm_90} -Ibenchmarks/device/solver64_check -Imigrate/cpp -o "$work/check" \
  benchmarks/device/solver64_check.cu -lcusolver
"$work/check"
