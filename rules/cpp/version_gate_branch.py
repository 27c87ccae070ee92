"""A `#if CUDART_VERSION >= N` gate whose branch a HIP build takes cannot compile: the other branch is opened to hipcc.

hipcc defines neither `CUDA_VERSION` nor `CUDART_VERSION`; in a whole `#if NAME >= N` (or `>`, `<`, `<=`) the name
reads as 0 and a HIP build takes the branch for a CUDA older than N, which nvcc never compiled. Where that branch does
not parse or names the macro as a value (cuda-samples' simpleZeroCopy: a stray comma in its branch for CUDA before
2.2, and `CUDART_VERSION / 1000` in a message), the build would stop there; the condition is rewritten so that hipcc
takes the branch nvcc compiled: `defined(__HIPCC__) || CUDART_VERSION >= 2020`, `!defined(__HIPCC__) &&
CUDART_VERSION < 4000`. The file's other gates on versions up to that one's go with it, so that a HIP build takes
one path (simpleZeroCopy allocates its buffers behind `>= 2020` and `>= 4000` gates). So are gates on CUDA 10.0
(10000) or older, whatever their branches hold: every nvcc in use takes their newer branch, and HIP has the runtime
API CUDA had then (threadFenceReduction's branch for CUDA before 2.2 calls a function no file defines). nvcc's choice
does not change. Gates on newer versions are a decision HAZ018 reports.
"""
from migrate.cpp.version_gate import condition, opened
from migrate.edits import decoded
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

MAPPED = "#if CUDART_VERSION >= 2020\nint mapped = 1;\n#else\nint mapped = f(1, , 2);\n#endif\n"
OLD = ('#include <cstdio>\nint main() {\n#if CUDART_VERSION < 4000\n  printf("%d\\n", CUDART_VERSION / 1000);\n'
       "  return 1;\n#endif\n  return 0;\n}\n")


class VersionGateBranch(CppRule):
    code = "CPP074"
    examples = [
        Invalid(MAPPED, line=1, fixed=MAPPED.replace("CUDART_VERSION >= 2020",
                                                     "defined(__HIPCC__) || CUDART_VERSION >= 2020"),
                message="hipcc does not define CUDART_VERSION: in 'CUDART_VERSION >= 2020' it reads as 0, and the "
                        "branch a HIP build takes, which nvcc never compiled, does not compile; 'defined(__HIPCC__) "
                        "|| CUDART_VERSION >= 2020' takes the branch for the newer CUDA"),
        Invalid(OLD, line=3, fixed=OLD.replace("#if CUDART_VERSION < 4000",
                                               "#if !defined(__HIPCC__) && CUDART_VERSION < 4000")),
        # the file's other gates on versions as old go with it, so that a HIP build takes one path
        Invalid("#if CUDART_VERSION >= 2020\nint mapped;\n#endif\n" + OLD + "#if CUDART_VERSION >= 12000\nint newest;\n"
                "#endif\n", line=1,
                fixed="#if defined(__HIPCC__) || CUDART_VERSION >= 2020\nint mapped;\n#endif\n"
                      + OLD.replace("#if CUDART_VERSION < 4000", "#if !defined(__HIPCC__) && CUDART_VERSION < 4000")
                      + "#if CUDART_VERSION >= 12000\nint newest;\n#endif\n",
                message="hipcc does not define CUDART_VERSION: in 'CUDART_VERSION >= 2020' it reads as 0, and the gate "
                        "at line 6, on a version as old, cannot compile for HIP: the file's code for older CUDA is not "
                        "what nvcc compiled; 'defined(__HIPCC__) || CUDART_VERSION >= 2020' takes the branch for the "
                        "newer CUDA"),
        # the branch a HIP build takes compiles: which one it needs is HAZ018's question
        Valid("#if CUDA_VERSION >= 11000\n#include <cuda_bf16.h>\n#else\nint no_bf16;\n#endif\n"),
        Valid("#if CUDA_VERSION < 11000\nint old_api;\n#endif\n"),
        # a gate on CUDA 10.0 or older: every nvcc in use takes the newer branch
        Invalid("#if CUDART_VERSION >= 9000\n#include <cooperative_groups.h>\n#else\n#error too old\n#endif\n",
                line=1, fixed="#if defined(__HIPCC__) || CUDART_VERSION >= 9000\n#include <cooperative_groups.h>\n"
                              "#else\n#error too old\n#endif\n",
                message="hipcc does not define CUDART_VERSION: in 'CUDART_VERSION >= 9000' it reads as 0, and every "
                        "nvcc in use takes the branch for the newer CUDA, whose runtime API HIP has: the older branch "
                        "is not what nvcc compiles; 'defined(__HIPCC__) || CUDART_VERSION >= 9000' takes the branch "
                        "for the newer CUDA"),
        Valid(MAPPED.replace("CUDART_VERSION >= 2020", "defined(__HIPCC__) || CUDART_VERSION >= 2020")),
    ]

    def check(self, ctx):
        if b"_VERSION" not in ctx.data:
            return
        for comparison, first in sorted(opened(ctx.tree.root_node).values(), key=lambda g: g[0].start_byte):
            shown = " ".join(decoded(comparison.text).split())
            name = decoded(comparison.child_by_field_name("left").text)
            new = condition(comparison)
            if first is None:
                why = "the branch a HIP build takes, which nvcc never compiled, does not compile"
            elif first:
                why = (f"the gate at line {first}, on a version as old, cannot compile for HIP: the file's code for "
                       "older CUDA is not what nvcc compiled")
            else:
                why = ("every nvcc in use takes the branch for the newer CUDA, whose runtime API HIP has: the older "
                       "branch is not what nvcc compiles")
            yield self.finding(ctx, comparison.start_byte, comparison.end_byte,
                               f"hipcc does not define {name}: in '{shown}' it reads as 0, and {why}; '{new}' takes "
                               "the branch for the newer CUDA", edits=[Edit(comparison.start_byte, comparison.end_byte,
                                                                             new)], title=f"Write '{new}'")
