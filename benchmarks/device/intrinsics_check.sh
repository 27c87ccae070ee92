#!/bin/sh
# On a machine with an NVIDIA GPU, from the repository root: build the check of the intrinsics hipmigrate writes for
# the ones HIP lacks (migrate/cpp/intrinsics_shim.h, CPP060) against CUDA's own, and run it. The shim's
# __double2half and its system-scope atomics are left out: they are written with clang's _Float16 and AMD GPU
# builtins, which nvcc does not have.
set -eu
work=$(mktemp -d)
python3 - migrate/cpp/intrinsics_shim.h > "$work/intrinsics_shim.h" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
# the functions nvcc cannot compile: a line, or a line and a body of one statement
print(re.sub(r"\n__(?:host__ __device__|device__) inline [^\n]*(?:__double2half|atomicInc_system|atomicDec_system)"
             r"\([^\n]*\n(?:  [^\n]*\n\})?", "\n", text))
PY
nvcc -std=c++17 -arch=${ARCH:-sm_90} -Ibenchmarks/device/intrinsics_check -I"$work" -o "$work/check" \
  benchmarks/device/intrinsics_check.cu
"$work/check"
