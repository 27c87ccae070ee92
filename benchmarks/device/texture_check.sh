#!/bin/sh
# On a machine with an NVIDIA GPU, from the repository root: build the check of hipmigrate's software textures and
# surfaces (migrate/cpp/texture_shim.h, compiled by nvcc through the HIP-to-CUDA prelude in
# benchmarks/device/texture_check/hip) against CUDA's hardware ones, and run it. Set
# TEXTURE_CHECK_DUMP=file to have the differing samples written there.
set -eu
work=$(mktemp -d)
nvcc -std=c++17 -arch=${ARCH:-sm_90} -Ibenchmarks/device/texture_check -Imigrate/cpp -o "$work/check" \
  benchmarks/device/texture_check.cu
"$work/check"
