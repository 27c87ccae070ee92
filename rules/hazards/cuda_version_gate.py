"""A preprocessor gate on a macro only nvcc and the CUDA headers define: `CUDA_VERSION`, `CUDART_VERSION`,
`__CUDACC_VER_MAJOR__`/`_MINOR__`/`_BUILD__`, `__NVCC__`.

hipcc defines none of them (no pack renames them: HIP has no macro with their meaning). In `#if CUDA_VERSION >=
11000` an undefined name reads as 0, so AMD silently builds the branch written for the oldest CUDA; under
`#ifdef __NVCC__` the code is left out. Reported, not fixed: what the branch needs on AMD is a decision. Test
`__HIPCC__` or `__HIP_PLATFORM_AMD__` for the compiler and platform, and `HIP_VERSION` (`hip/hip_version.h`) for
a version. Where the gate is a whole `#if NAME >= N` (or `<`) and the branch a HIP build takes cannot compile (nvcc
never compiled it: cuda-samples' simpleZeroCopy has a stray comma in its branch for CUDA before 2.2), or the version
is CUDA 10.0 or older, CPP074 opens the other branch to hipcc. An error finding: `#ifdef __NVCC__` (or `#if defined(__NVCC__)`) around a function that the
rest of the file calls, or, in a header, that only this branch defines (the units that include it call it: HeCBench's
ssim defines `util::trilinear_kernel` so) and that an `#else` replaces with something else: a HIP build has no such
function. Without an `#else`, CPP066 opens the branch to hipcc instead. A condition that also tests a HIP macro
(`__HIPCC__`, `__HIP_PLATFORM_AMD__`, ...) already says what a HIP build takes and is not reported. Uses outside
`#if`/`#elif`/`#ifdef` conditions are reported by CPP006 as CUDA names with no counterpart.
"""
import re

from migrate.cpp import parse
from migrate.cpp.nvcc_branch import HIP_MACROS, branch
from migrate.cpp.version_gate import opened
from migrate.edits import decoded
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

WORDS = re.compile(rb"\b(?:CUDA_VERSION|CUDART_VERSION|__CUDACC_VER_(?:MAJOR|MINOR|BUILD)__|__NVCC__)\b")
ADVICE = "test __HIPCC__ or __HIP_PLATFORM_AMD__, and HIP_VERSION (hip/hip_version.h) for a version"


def defined_message(name: str, shown: str) -> str:
    return f"hipcc does not define {name}: '{shown}' takes the branch for a compiler other than nvcc on AMD; {ADVICE}"


def value_message(name: str, shown: str) -> str:
    return (f"hipcc does not define {name}: in '{shown}' it reads as 0, so AMD builds the branch for the oldest "
            f"CUDA; {ADVICE}")


class CudaVersionGate(HazardRule):
    code = "HAZ018"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("#if CUDA_VERSION >= 11000\n#include <cuda_bf16.h>\n#endif\n", line=1,
                message=value_message("CUDA_VERSION", "CUDA_VERSION >= 11000")),
        Invalid("#ifdef __NVCC__\n#define HOST_DEVICE __host__ __device__\n#else\n#define HOST_DEVICE\n#endif\n",
                message=defined_message("__NVCC__", "__NVCC__")),
        Invalid("#if defined(CUDART_VERSION) && CUDART_VERSION < 12000\nint old_api;\n#endif\n",
                message=defined_message("CUDART_VERSION", "defined(CUDART_VERSION)")),
        # a header's function only nvcc compiles: the units that include it and call it stop
        Invalid("namespace util {\n#ifdef __NVCC__\ntemplate <typename K>\ninline void launch(K k) { k(); }\n#else\n"
                "inline void serial() {}\n#endif\n}\n",
                path="utils.h", line=2,
                message=defined_message("__NVCC__", "__NVCC__") + ", and a HIP build has no launch, which only this "
                                                                   "branch defines: a call of it stops the build"),
        # in a source file: only where the rest of the file calls it
        Invalid("#ifdef __NVCC__\nint twice(int x) { return 2 * x; }\n#else\nint thrice(int x) { return 3 * x; }\n#endif\n"
                "int main() { return twice(1); }\n", line=1,
                message=defined_message("__NVCC__", "__NVCC__") + ", and a HIP build has no twice, which only this "
                                                                   "branch defines: a call of it stops the build"),
        # the branch a HIP build takes was never compiled, and does not parse: CPP074 opens the other one
        Valid("#if CUDART_VERSION >= 2020\nint mapped = 1;\n#else\nint mapped = f(1, , 2);\n#endif\n"),
        Valid("#if HIP_VERSION >= 60000000\nint new_api;\n#endif\n"),
        # a condition that says what a HIP build takes (CPP066 writes this one)
        Valid("#if defined(__NVCC__) || defined(__HIPCC__)\nint twice(int x) { return 2 * x; }\n#endif\n"
              "int main() { return twice(1); }\n"),
        Valid('// #if CUDA_VERSION >= 11000\nconst char* s = "CUDA_VERSION";\n'),
        Valid("#define MY_CUDA_VERSION 11\n#if MY_CUDA_VERSION > 10\nint x;\n#endif\n"),
    ]

    def check(self, ctx):
        opening = None
        for m in WORDS.finditer(ctx.data):
            node = ctx.node_at(m.start(), m.end())
            condition = parse.directive_condition(node) if node.type == "identifier" else None
            if condition is None or HIP_MACROS.search(condition.text):
                continue  # not a condition, or one that already says what a HIP build takes
            name = decoded(m.group())
            parent = node.parent
            if parent.type == "preproc_defined":
                yield self.finding(ctx, parent.start_byte, parent.end_byte,
                                   defined_message(name, " ".join(decoded(parent.text).split())))
            elif parent.type in parse.DIRECTIVES:
                lost, opens = branch(ctx, parent)
                if opens:
                    continue  # CPP066 opens the branch to hipcc
                if lost:
                    yield self.finding(ctx, node.start_byte, node.end_byte, defined_message(name, name) + _lost(lost),
                                       severity=Severity.ERROR)
                else:
                    yield self.finding(ctx, node.start_byte, node.end_byte, defined_message(name, name))
            else:
                shown = parent if parent.type == "binary_expression" else node
                if opening is None:
                    opening = opened(ctx.tree.root_node)
                if shown.start_byte in opening:
                    continue  # CPP074 opens the branch for the newer CUDA
                yield self.finding(ctx, shown.start_byte, shown.end_byte,
                                   value_message(name, " ".join(decoded(shown.text).split())))


def _lost(names: list[str]) -> str:
    shown = ", ".join(names)
    defines = "defines" if len(names) == 1 else "define"
    return (f", and a HIP build has no {shown}, which only this branch {defines}: a call of "
            f"{'it' if len(names) == 1 else 'one'} stops the build")
