"""Device code or HIP runtime calls in a file that includes no HIP runtime header.

nvcc includes `cuda_runtime.h` implicitly; hipcc does not promise the same for every file and every
platform, so a file with kernels, `__device__` functions, launches or runtime calls gets
`#include <hip/hip_runtime.h>` before its first include (or after its include guard).

A file whose runtime include comes after `<cooperative_groups.h>` gets one before it too: HIP's
hip/hip_cooperative_groups.h uses the runtime without including it (5.2: "use of undeclared identifier
'hipBlockDim_z'"). The later include stays; a header included twice is read once.
"""
import re

from migrate.cpp.conditionals import branches
from migrate.cpp.runtime_use import RUNTIME_HEADERS, hip_includes, needs_runtime
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

# HIP headers that need the runtime included before them, and the CUDA headers CPP023 turns into one of them
RUNTIME_FIRST = {"hip/hip_cooperative_groups.h", "cooperative_groups/reduce.h", "cooperative_groups/scan.h"}
# leading comments (a // comment continues over a line that ends in a backslash) and blank lines
GUARD = re.compile(rb"\A(?:[ \t]*(?://(?:\\\r?\n|[^\n])*|/\*.*?\*/)?[ \t]*\r?\n)*"
                   rb"(?:[ \t]*#[ \t]*pragma[ \t]+once[^\n]*\n"
                   rb"|[ \t]*#[ \t]*ifndef[ \t]+(\w+)[^\n]*\n[ \t]*#[ \t]*define[ \t]+\1\b[^\n]*\n)?", re.S)


class MissingHipRuntimeInclude(CppRule):
    code = "CPP002"
    phase = 1
    examples = [
        Invalid("__global__ void k(float* a) { a[threadIdx.x] = 0; }\n",
                fixed="#include <hip/hip_runtime.h>\n__global__ void k(float* a) { a[threadIdx.x] = 0; }\n",
                line=1),
        Invalid("#include <stdio.h>\nvoid f(float** p) { cudaMalloc(p, 4); }\n",
                fixed="#include <hip/hip_runtime.h>\n#include <stdio.h>\nvoid f(float** p) { hipMalloc(p, 4); }\n"),
        Invalid("#pragma once\n__device__ int twice(int x) { return 2 * x; }\n",
                fixed="#pragma once\n#include <hip/hip_runtime.h>\n__device__ int twice(int x) { return 2 * x; }\n"),
        Invalid("// header\n#ifndef K_H\n#define K_H\n__device__ int one();\n#endif\n",
                fixed="// header\n#ifndef K_H\n#define K_H\n#include <hip/hip_runtime.h>\n__device__ int one();\n#endif\n"),
        Invalid("#include <cooperative_groups.h>\n#include <cuda_runtime.h>\n__global__ void k() {}\n",
                fixed="#include <hip/hip_runtime.h>\n#include <cooperative_groups.h>\n#include <cuda_runtime.h>\n"
                      "__global__ void k() {}\n",  # (CPP001 renames the two includes)
                message="<hip/hip_cooperative_groups.h> needs the HIP runtime included before it"),
        Valid("#include <cuda_runtime.h>\n__global__ void k() {}\n"),
        Valid("#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n__global__ void k() {}\n"),
        Invalid("#include <cooperative_groups/reduce.h>\n#include <cuda_runtime.h>\n__global__ void k() {}\n",
                fixed="#include <hip/hip_runtime.h>\n#include <cooperative_groups/reduce.h>\n#include <cuda_runtime.h>\n"
                      "__global__ void k() {}\n",  # (CPP023 writes HIP's cooperative groups header in its place)
                message="<cooperative_groups/reduce.h> needs the HIP runtime included before it"),
        # the first include is one hipcc skips: the runtime goes before the first one always compiled
        Invalid("#ifndef H_\n#define H_\n#if !defined(__CUDACC__)\n#include <math.h>\n#endif\n#include <stdio.h>\n"
                "__device__ float twice(float x) { return 2.0f * x; }\n#endif\n",
                fixed="#ifndef H_\n#define H_\n#if !defined(__HIPCC__)\n#include <math.h>\n#endif\n"
                      "#include <hip/hip_runtime.h>\n#include <stdio.h>\n__device__ float twice(float x) { return 2.0f * x; }\n#endif\n"),
        Invalid("#ifndef H_\n#define H_\n#if !defined(__CUDACC__)\n#include <math.h>\n#endif\n"
                "__device__ float twice(float x) { return 2.0f * x; }\n#endif\n",
                fixed="#ifndef H_\n#define H_\n#include <hip/hip_runtime.h>\n#if !defined(__HIPCC__)\n#include <math.h>\n"
                      "#endif\n__device__ float twice(float x) { return 2.0f * x; }\n#endif\n"),
        Valid("#include <hip/hip_runtime.h>\n__global__ void k() {}\n"),
        # no device code yet, but CPP023 writes some in place of reduce.h: the runtime goes first at once
        Invalid("#include <cooperative_groups/reduce.h>\n",
                fixed="#include <hip/hip_runtime.h>\n#include <cooperative_groups/reduce.h>\n"),
        # a // comment continued by a backslash: the include goes after the line that ends it, not inside it
        Invalid("// text \\\n   still the comment\n__global__ void k() {}\n",
                fixed="// text \\\n   still the comment\n#include <hip/hip_runtime.h>\n__global__ void k() {}\n"),
        Valid("// a comment about __global__ functions\nint main() { return 0; }\n"),
        Valid('const char* s = "__device__";\n'),
    ]

    def check(self, ctx):
        order = hip_includes(ctx)
        runtime = next((i for i, (_, name) in enumerate(order) if name in RUNTIME_HEADERS), None)
        line = f"#include <hip/hip_runtime.h>{ctx.newline}"
        if runtime is not None:
            early = next(((m, name) for m, name in order[:runtime] if name in RUNTIME_FIRST), None)
            if early is not None:
                at = early[0].start()
                yield self.finding(ctx, at, at, f"<{early[1]}> needs the HIP runtime included before it",
                                   edits=[Edit(at, at, line)], title="Include <hip/hip_runtime.h> before it")
            return
        if not needs_runtime(ctx) and not any(name in RUNTIME_FIRST for _, name in order):
            return
        # before the first include that is always compiled (not one inside an #if after the guard), else after the guard
        after_guard = GUARD.match(ctx.data).end()
        branch = branches(ctx).at
        top = branch(after_guard)
        at = next((m.start() for m, _ in order if branch(m.start()) == top), after_guard)
        yield self.finding(ctx, at, at, "device code or HIP runtime calls without a HIP runtime include",
                           edits=[Edit(at, at, line)], title="Include <hip/hip_runtime.h>")
