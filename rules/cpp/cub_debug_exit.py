"""CUB's `CubDebugExit(call)`, which hipCUB does not define: the same test on hipCUB's `HipcubDebug`.

CUB's `util_debug.cuh` defines `CubDebugExit(e)` as `if (CubDebug(e)) { exit(1); }`: print the error of a CUDA call
with its file and line, and end the program. hipCUB defines `HipcubDebug` (the `CubDebug` counterpart, which the
cub pack maps) but no `CubDebugExit` (hipCUB 5.2 to 7.2): "use of undeclared identifier" (HeCBench's rle; CUB's own
examples call it on every allocation). `CubDebugExit(call)` becomes `(HipcubDebug(call) ? exit(1) : (void)0)`, one
expression, which also stands where CUB's `if` would take a following `else`.
"""
from migrate.cpp.calls import api_arguments
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

ALLOC = ("#include <cub/cub.cuh>\nvoid run(int** d, size_t n) {\n"
         "    CubDebugExit(cudaMalloc((void**)d, n * sizeof(int)));\n}\n")


class CubDebugExit(CppRule):
    code = "CPP076"
    examples = [
        Invalid(ALLOC, line=3, fixed=ALLOC.replace(
            "CubDebugExit(cudaMalloc((void**)d, n * sizeof(int)));",
            "(HipcubDebug(hipMalloc((void**)d, n * sizeof(int))) ? exit(1) : (void)0);"),
                message="hipCUB has no CubDebugExit: HipcubDebug reports the error, and exit(1) ends the program "
                        "as CUB's macro does"),
        Valid("#include <hipcub/hipcub.hpp>\nvoid run(int** d) { HipcubDebug(hipMalloc((void**)d, 4)); }\n"),
    ]

    def check(self, ctx):
        if b"CubDebugExit" not in ctx.data:
            return
        for token, arg in api_arguments(ctx, {"CubDebugExit": 0}):
            if token.base:
                continue  # in a macro body
            call = arg.parent.parent
            arguments = call.child_by_field_name("arguments")
            yield self.finding(ctx, token.start, token.end, "hipCUB has no CubDebugExit: HipcubDebug reports the "
                               "error, and exit(1) ends the program as CUB's macro does",
                               edits=[Edit(token.start, token.end, "(HipcubDebug"),
                                      Edit(arguments.end_byte, arguments.end_byte, " ? exit(1) : (void)0)")],
                               title="Test HipcubDebug and exit")
