"""A helper function that uses CUDA API with no HIP counterpart, in a header every unit includes.

Shared headers define helpers for the whole library: NVIDIA's `cusolver_utils.h` has
`get_cusolver_refinement_solver()` for iterative refinement. hipSOLVER has none, so every unit that includes the
header stops there, whether it calls the helper or not. The fix (safe) compiles the helper for NVIDIA only, `#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP__)`, with a comment that names the API it
needs, and so the units that never call it compile for AMD; each call that a HIP build still compiles is CPP050's
blocker. Guarded too: header functions that call a guarded helper, and, in any file, a function whose signature
names such API (no unit can even declare it; its definition in a `.cpp` goes with its prototype in the header).
A function elsewhere whose body alone uses such API stays, with CPP006's blocker at the name: guarding it would
only move the error to its caller in the same unit. `main` is never guarded.
"""
from migrate.cpp.guarded_helpers import GUARD, analysis
from migrate.model import Applicability, Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

UTILS = """\
#include <cstddef>
inline int ceildiv(int a, int b) { return (a + b - 1) / b; }
size_t workspace(int m, cudaGraphConditionalHandle control) {
    return control == 0 ? 2 * m : m;
}
"""
UTILS_GUARDED = """\
#include <cstddef>
inline int ceildiv(int a, int b) { return (a + b - 1) / b; }
#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP__)  // hipmigrate CPP049: workspace uses cudaGraphConditionalHandle, which HIP lacks
size_t workspace(int m, cudaGraphConditionalHandle control) {
    return control == 0 ? 2 * m : m;
}
#endif
"""


def guard_line(name: str, why: str, calls: bool) -> str:
    return f"{GUARD}  // hipmigrate CPP049: {name} {'calls' if calls else 'uses'} {why}{'' if calls else ', which HIP lacks'}"


def message(name: str, why: str, calls: bool, line: int, target: str) -> str:
    cause = (f"calls {why} (line {line}), which is compiled for NVIDIA only" if calls else
             f"uses {why} (line {line}), which HIP {target} lacks")
    return (f"{name} {cause}: guarded with {GUARD} so that units which never call it compile for AMD; "
            "each call is a blocker (CPP050): port the helper by hand to use it on AMD")


class HelperWithoutHipApi(CppRule):
    code = "CPP049"
    severity = Severity.ERROR  # until guarded: every unit that includes the header stops here
    applicability = Applicability.SAFE
    examples = [
        Invalid(UTILS, path="utils.h", fixed=UTILS_GUARDED, line=3),
        # a header function that calls the guarded helper goes with it; a template and a prototype too
        Invalid("size_t ws(cudaGraphConditionalHandle s);\ntemplate <typename T>\nT twice(T x) { return x + x; }\n"
                "size_t both(int m) { return ws({}) + m; }\n", path="utils.h",
                fixed="#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP__)  // hipmigrate CPP049: ws uses cudaGraphConditionalHandle, "
                "which HIP lacks\nsize_t ws(cudaGraphConditionalHandle s);\n#endif\ntemplate <typename T>\n"
                "T twice(T x) { return x + x; }\n#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP__)  // hipmigrate CPP049: both calls ws\n"
                "size_t both(int m) { return ws({}) + m; }\n#endif\n", line=1,
                message=message("ws", "cudaGraphConditionalHandle", False, 1, "7.2")),
        # in a source file, a signature that names the API; the body alone is CPP006's
        Invalid("const char *name(cublasLtMatmulTile_t tile) { return \"tile\"; }\n"
                "int main() { cudaDeviceResetPersistingL2Cache(); return 0; }\n",
                fixed="#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP__)  // hipmigrate CPP049: name uses cublasLtMatmulTile_t, "
                "which HIP lacks\nconst char *name(cublasLtMatmulTile_t tile) { return \"tile\"; }\n#endif\n"
                "int main() { cudaDeviceResetPersistingL2Cache(); return 0; }\n"),
        # an overload is guarded, its callers are not: a call may reach the overload HIP compiles (helper_cuda.h)
        Invalid("const char *name(int e) { return \"int\"; }\nconst char *name(cudaGraphConditionalHandle s) { return \"s\"; }\n"
                "template <typename T> const char *check(T r) { return name(r); }\n", path="helper.h",
                fixed="const char *name(int e) { return \"int\"; }\n#if !defined(__HIP_PLATFORM_AMD__) && "
                "!defined(__HIP__)  // hipmigrate CPP049: name uses cudaGraphConditionalHandle, which HIP lacks\n"
                "const char *name(cudaGraphConditionalHandle s) { return \"s\"; }\n#endif\n"
                "template <typename T> const char *check(T r) { return name(r); }\n", line=2),
        Valid("void run() { cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,\n"
              "                                                 cudaFlushGPUDirectRDMAWritesToOwner); }\n"),
        Valid("#include <cuda_runtime.h>\n#ifndef __HIP_PLATFORM_AMD__\nsize_t ws(cudaGraphConditionalHandle s);\n#endif\n",
              path="utils.h"),
        Valid("struct S { size_t ws(cudaGraphConditionalHandle s); };\n", path="utils.h"),
        Valid("int main() { cudaGraphConditionalHandle s; return 0; }\n"),
    ]

    def check(self, ctx):
        nl = ctx.newline
        found = analysis(ctx)
        for h in found.helpers:
            text = message(h.name, h.why, h.calls, h.why_line, ctx.target)
            detail = (h.name, h.why, "calls" if h.calls else "uses", "overloaded" if h.name in found.overloaded else "")
            if h.guarded:
                yield self.finding(ctx, h.name_start, h.name_end, text, severity=Severity.WARNING, detail=detail)
                continue
            close = f"#endif{nl}" if ctx.data[h.end - 1:h.end] == b"\n" else f"{nl}#endif{nl}"
            edits = [Edit(h.start, h.start, guard_line(h.name, h.why, h.calls) + nl), Edit(h.end, h.end, close)]
            yield self.finding(ctx, h.name_start, h.name_end, text, edits=edits, detail=detail,
                               title=f"Compile {h.name} for NVIDIA only")
