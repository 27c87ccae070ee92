"""`__trap()`: CUDA's device intrinsic that aborts the kernel, which HIP does not declare.

nvcc's `__trap()` executes a trap instruction, so the kernel stops and the host sees a launch failure. HIP has no
`__trap` ("use of undeclared identifier '__trap'"; hipify-perl leaves it, unsupported), and HIP's own device
`abort()` is defined as `__builtin_trap()`, the clang builtin that does the same on AMD GPUs. The fix (safe) writes
that builtin. The 3D Gaussian splatting rasterizer calls it from its error checks.
"""
from migrate.cpp.device_builtins import BUILTINS
from migrate.cpp.parse import Context, declares
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid


class TrapIntrinsic(CppRule):
    code = "CPP048"
    examples = [
        Invalid("__device__ void check(bool ok) { if (!ok) __trap(); }\n",
                fixed="__device__ void check(bool ok) { if (!ok) __builtin_trap(); }\n", line=1,
                message="__trap is not declared by HIP: __builtin_trap() aborts the kernel the same way"),
        Invalid("#define CHECK(c) do { if (!(c)) { printf(\"%s\\n\", #c); __trap(); } } while (0)\n",
                fixed="#define CHECK(c) do { if (!(c)) { printf(\"%s\\n\", #c); __builtin_trap(); } } while (0)\n"),
        Valid("__device__ void check(bool ok) { if (!ok) __builtin_trap(); }\n"),
        Valid("void __trap() {}\nvoid f() { __trap(); }\n"),  # the project's own
        Valid('// __trap() stops the kernel\nconst char* s = "__trap";\n'),
    ]

    def check(self, ctx):
        if b"__trap" not in ctx.data:
            return
        tokens = [t for t in ctx.code_tokens() if t.name in BUILTINS]
        own = {t.name for t in tokens if declares(t)} | ctx.defined_macros
        for token in tokens:
            if token.name in own or token.context not in (Context.CODE, Context.MACRO):
                continue
            new = BUILTINS[token.name]
            yield self.finding(ctx, token.start, token.end, f"{token.name} is not declared by HIP: {new}() aborts the "
                               "kernel the same way", edits=[Edit(token.start, token.end, new)], title=f"Use {new}")
