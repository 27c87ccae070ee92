"""`extern "C"__global__`: a linkage string glued to a CUDA keyword reads as a user-defined literal in clang.

nvcc accepts `extern "C"__global__ void saxpy(...)` (NVIDIA's grcuda sample). Since C++11, a string literal followed
at once by an identifier is one token, a string with a user-defined suffix, and the preprocessor never sees
`__global__` as the macro HIP defines it to be: "string literal with user-defined suffix cannot be used here". The
fix puts a space between the linkage string and a CUDA execution-space or inlining keyword (`__global__`,
`__device__`, `__host__`, `__forceinline__`, `__noinline__`, `__launch_bounds__`).
"""
import re

from migrate.cpp import parse
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

GLUED = re.compile(rb'\bextern\s*"C(?:\+\+)?"(__(?:global|device|host|forceinline|noinline|launch_bounds)__)')


class LinkageStringGluedToKeyword(CppRule):
    code = "CPP063"
    examples = [
        Invalid('extern "C"__global__\nvoid saxpy(int n, float a, float* x, float* y) { x[0] = a * y[0]; }\n', line=1,
                fixed='extern "C" __global__\nvoid saxpy(int n, float a, float* x, float* y) { x[0] = a * y[0]; }\n',
                message='"C"__global__ is one token in C++ (a string with a user-defined suffix), so clang never sees '
                        'the __global__ macro: a space separates them'),
        Valid('extern "C" __global__ void k(int* p) { p[0] = 1; }\n'),
        Valid('const char* s = "extern \\"C\\"__global__";\n'),
    ]

    def check(self, ctx):
        if b'"__' not in ctx.data:
            return
        for m in GLUED.finditer(ctx.data):
            if ctx.locate(m.start(), m.start() + 6)[0] is not parse.Context.CODE:
                continue
            keyword = m.group(1).decode()
            yield self.finding(ctx, m.start(1) - 1, m.end(1), f'"C"{keyword} is one token in C++ (a string with a '
                               f"user-defined suffix), so clang never sees the {keyword} macro: a space separates them",
                               edits=[Edit(m.start(1), m.start(1), " ")], title="Separate the keyword")
