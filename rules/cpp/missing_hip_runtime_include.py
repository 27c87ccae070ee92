"""Device code or HIP runtime calls in a file that includes no HIP runtime header.

nvcc includes `cuda_runtime.h` implicitly; hipcc does not promise the same for every file and every
platform, so a file with kernels, `__device__` functions, launches or runtime calls gets
`#include <hip/hip_runtime.h>` before its first include (or after its include guard).
"""
import re

from migrate.cpp.includes import includes
from migrate.cpp.parse import Context
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

DEVICE = re.compile(rb"(?<![\w$])(?:__global__|__device__|__shared__|__constant__|threadIdx|blockIdx|blockDim|gridDim)"
                    rb"(?![\w$])|<<<")
RUNTIME_HEADERS = {"hip/hip_runtime.h", "hip/hip_runtime_api.h", "hip_runtime.h", "hip/hip_runtime.hpp"}
NEEDS_RUNTIME = {"runtime", "driver", "device", "cooperative_groups"}
GUARD = re.compile(rb"\A(?:[ \t]*(?://[^\n]*|/\*.*?\*/)?[ \t]*\r?\n)*"  # leading comments and blank lines
                   rb"(?:[ \t]*#[ \t]*pragma[ \t]+once[^\n]*\n"
                   rb"|[ \t]*#[ \t]*ifndef[ \t]+(\w+)[^\n]*\n[ \t]*#[ \t]*define[ \t]+\1\b[^\n]*\n)?", re.S)


def needs_runtime(ctx) -> bool:
    for m in DEVICE.finditer(ctx.data):
        if ctx.locate(m.start(), m.end())[0] in (Context.CODE, Context.MACRO):
            return True
    names = ctx.packs.names
    return any(names[t.name].family in NEEDS_RUNTIME for t in ctx.code_tokens() if t.name in names)


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
        Valid("#include <cuda_runtime.h>\n__global__ void k() {}\n"),
        Valid("#include <hip/hip_runtime.h>\n__global__ void k() {}\n"),
        Valid("// a comment about __global__ functions\nint main() { return 0; }\n"),
        Valid('const char* s = "__device__";\n'),
    ]

    def check(self, ctx):
        headers = ctx.packs.headers
        present = set()
        for _, name in includes(ctx):
            present.add(headers[name].hip_for(ctx.target_tuple) if name in headers else name)
        if present & RUNTIME_HEADERS or not needs_runtime(ctx):
            return
        first = next(includes(ctx), None)
        at = first[0].start() if first else GUARD.match(ctx.data).end()
        line = f"#include <hip/hip_runtime.h>{ctx.newline}"
        yield self.finding(ctx, at, at, "device code or HIP runtime calls without a HIP runtime include",
                           edits=[Edit(at, at, line)], title="Include <hip/hip_runtime.h>")
