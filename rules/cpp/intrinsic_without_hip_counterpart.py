"""A CUDA intrinsic that HIP's headers lack, and that hipmigrate writes in plain arithmetic: the call is qualified.

HIP has none of CUDA's SIMD-in-a-word intrinsics (`__vadd4`, `__vmaxs2`, `__vcmpgtu4`, `__vsadu4`, ...: 82 functions
that treat an unsigned int as two 16-bit or four 8-bit lanes), nor the dot products of bytes and halfwords (`__dp4a`,
`__dp2a_lo`, `__dp2a_hi`), nor `__double2half`, nor `atomicInc_system`/`atomicDec_system` (HIP 6.4 and 7.2 alike:
"use of undeclared identifier"). Each is a few integer operations per lane or one builtin, so the first call in a
file gets, after the includes before it, a block of them (migrate/cpp/intrinsics_shim.h, namespace
`hipmigrate_intrinsics`, CUDA's names and results: wrapping and saturating lanes, averages rounded as CUDA's, the
dot products' signed, unsigned and vector overloads; `__double2half` is one conversion to `_Float16`, to the nearest
even; the atomics are the AMD GPU builtins of HIP's own `atomicInc`/`atomicDec`, at system scope), and every call is
qualified with the namespace. benchmarks/device/intrinsics_check.sh compares the arithmetic ones with CUDA's on an
NVIDIA GPU: all 88 bit for bit on a million words (an H200, 2026-12-06). CUDA 12's DPX functions
(`__viaddmax_s32`, `__vimax3_s16x2`, ...) are not in the block: CPP006 reports them.
"""
from migrate.cpp import blocks
from migrate.cpp.intrinsics import CALL, MARKER, NAMES, NAMESPACE, block
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

RELU = ("#include <cuda_runtime.h>\n"
        "__global__ void relu(const int* in, int* out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) out[i] = __vmaxs4(in[i], 0);\n}\n")


class IntrinsicWithoutHipCounterpart(CppRule):
    code = "CPP060"
    examples = [
        Invalid(RELU, line=4,
                fixed=("#include <cuda_runtime.h>\n" + block() + "\n" + RELU.split("\n", 1)[1])
                .replace("__vmaxs4(", "hipmigrate_intrinsics::__vmaxs4("),
                message="__vmaxs4 is not in HIP's headers: hipmigrate_intrinsics::__vmaxs4 computes it as CUDA does"),
        Invalid("#include <cuda_fp16.h>\n__device__ int dot(int a, int b, double d, __half* h) {\n"
                "    *h = __double2half(d);\n    return __dp4a(a, b, 0);\n}\n", line=3,
                fixed=("#include <cuda_fp16.h>\n" + block() + "\n__device__ int dot(int a, int b, double d, __half* h) {\n"
                       "    *h = hipmigrate_intrinsics::__double2half(d);\n"
                       "    return hipmigrate_intrinsics::__dp4a(a, b, 0);\n}\n")),
        # the last include before the call is in a branch the call is outside of: the block goes after the one before
        Invalid("#include <cuda_fp16.h>\n#if defined(__linux__)\n#include <unistd.h>\n#else\n#include <intrin.h>\n#endif\n"
                "__device__ __half f(double d) { return __double2half(d); }\n", line=7,
                fixed="#include <cuda_fp16.h>\n" + block() + "\n#if defined(__linux__)\n#include <unistd.h>\n#else\n"
                      "#include <intrin.h>\n#endif\n"
                      "__device__ __half f(double d) { return hipmigrate_intrinsics::__double2half(d); }\n"),
        Invalid("__global__ void count(unsigned* n) { atomicInc_system(n, 100u); }\n",
                fixed=block() + "\n__global__ void count(unsigned* n) { hipmigrate_intrinsics::atomicInc_system(n, 100u); }\n"),
        # already qualified; a project's own __dp4a-like member; names in comments
        Valid("__device__ int f(int a) { return hipmigrate_intrinsics::__dp4a(a, a, 0); }"),
        Valid("struct V { int __vadd2(int x) { return x; } };\nint g(V v) { return v.__vadd2(1); }  // __vadd4(a, b)\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"__v" not in data and b"__dp" not in data and b"__double2half" not in data and b"_system" not in data:
            return
        present, found = blocks.sites(ctx, CALL, MARKER)
        sites = [m for m in found if m.group(1).decode() in NAMES]
        insert = [] if present or not sites else [blocks.place(ctx, sites[0].start(), block(ctx.newline))]
        for m in sites:
            name = m.group(1).decode()
            yield self.finding(ctx, m.start(1), m.end(1), f"{name} is not in HIP's headers: {NAMESPACE}::{name} computes "
                               "it as CUDA does", edits=[*insert, Edit(m.start(1), m.start(1), f"{NAMESPACE}::")],
                               title=f"Use {NAMESPACE}::{name}")
