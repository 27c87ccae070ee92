#!/bin/sh
# On a machine with an NVIDIA GPU, from the repository root: write the collectives hipmigrate puts in place of
# cooperative_groups/reduce.h and scan.h (CPP023) as a header, build the check against CUDA's own, and run it.
set -eu
work=$(mktemp -d)
python3 -c "import sys; sys.path.insert(0, '.'); from migrate.cpp.cg_collectives import block; print(block())" \
  > "$work/hipmigrate_cg.h"
nvcc -std=c++17 -arch=${ARCH:-sm_90} -I"$work" -o "$work/check" benchmarks/device/cg_collectives_check.cu
"$work/check"
