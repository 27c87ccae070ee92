#!/bin/sh
# On a machine with an NVIDIA GPU, from the repository root: build the check of the intrinsics hipmigrate writes for
# the ones HIP lacks (migrate/cpp/intrinsics_shim.h, CPP060) against CUDA's own, and run it. The shim's
# __double2half is left out: it is written with clang's _Float16, which nvcc does not have.
set -eu
work=$(mktemp -d)
sed '/__double2half/d' migrate/cpp/intrinsics_shim.h > "$work/intrinsics_shim.h"
nvcc -std=c++17 -arch=${ARCH:-sm_90} -Ibenchmarks/device/intrinsics_check -I"$work" -o "$work/check" \
  benchmarks/device/intrinsics_check.cu
"$work/check"
