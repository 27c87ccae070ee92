"""Two definitions of one function whose parameter types differ in CUDA and become the same HIP type.

HIP has one type where CUDA has two: the runtime's `cudaError_t` and the driver's `CUresult` both become
`hipError_t`, and so do `cudaStream_t`/`CUstream`, `cudaEvent_t`/`CUevent`, `cudaGraph_t`/`CUgraph` and their
relatives. NVIDIA's `helper_cuda.h`, copied into many projects, defines `_cudaGetErrorEnum(cudaError_t)` and
`_cudaGetErrorEnum(CUresult)`; after renaming a unit that compiles both stops with "redefinition of
'_cudaGetErrorEnum'". Reported (an error) at the later definition, with the one it repeats. The fix defines a
macro after the earlier definition and compiles the later one only where it is not defined, so a unit gets the
earlier one where it has it and the later one otherwise. It is safe where the two stand under different `#if`s
(helper_cuda.h's `#ifdef __DRIVER_TYPES_H__` and `#ifdef CUDA_DRIVER_API`): a unit that compiles only one keeps
it, and one that compiles both could not be built any other way, since in HIP every call passes the one type.
Where both are always compiled it is unsafe: the bodies may differ (here in the names they print) and calls meant
for the later one then reach the earlier; merge them by hand. Definitions in branches of one `#if` that exclude each
other do not collide; nor do templates, class members and functions in other namespaces.
"""
from __future__ import annotations

import hashlib
import re

from migrate.cpp import parse
from migrate.cpp.conditionals import branches
from migrate.cpp.definitions import DEFINITIONS, at_namespace_scope, function_declarator, parameter_types, scope
from migrate.edits import line_start, next_line
from migrate.model import Applicability, Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

WORD = re.compile(r"[A-Za-z_]\w*")
UNSAFE = (("unsafe_fixes", True),)
GUARDED = """\
#ifdef __DRIVER_TYPES_H__
static const char *_cudaGetErrorEnum(cudaError_t error) { return "runtime"; }
#endif
#ifdef CUDA_DRIVER_API
static const char *_cudaGetErrorEnum(CUresult error) { return "driver"; }
#endif
"""
HELPER = """\
#include <cuda.h>
#include <cuda_runtime.h>
static const char *_cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }
static const char *_cudaGetErrorEnum(CUresult error) {
  const char *ret = nullptr;
  cuGetErrorName(error, &ret);
  return ret ? ret : "<unknown>";
}
"""


def renamed(text: str) -> str:
    """An example as the pack renames leave it."""
    for cuda, hip in (("__DRIVER_TYPES_H__", "HIP_INCLUDE_HIP_DRIVER_TYPES_H"), ("cudaError_t", "hipError_t"),
                      ("CUresult", "hipError_t"), ("cudaGetErrorName", "hipGetErrorName"),
                      ("cuGetErrorName", "hipDrvGetErrorName"), ("cudaStream_t", "hipStream_t"), ("CUstream", "hipStream_t")):
        text = text.replace(cuda, hip)
    return text


def message(name: str, cuda: str, hip: str, line: int) -> str:
    return (f"{name}({cuda}) becomes {name}({hip}) after migration, the signature of the definition at line {line}: "
            "a redefinition, because HIP has one type where CUDA has two; keep one definition (or guard one)")


class OverloadsOneAfterRenaming(CppRule):
    code = "CPP045"
    severity = Severity.ERROR
    applicability = Applicability.UNSAFE
    examples = [
        # both always compiled: the fix is unsafe, not applied by default (the renames only)
        Invalid(HELPER, fixed=renamed(HELPER), line=4,
                message=message("_cudaGetErrorEnum", "CUresult", "hipError_t", 3)),
        # each under an #if of its own, as in helper_cuda.h: the fix is safe
        Invalid(GUARDED, fixed=renamed(GUARDED).replace("#endif\n#ifdef CUDA_DRIVER_API\n",
                "#define HIPMIGRATE_ONE__cudaGetErrorEnum_a3ea12\n#endif\n#ifdef CUDA_DRIVER_API\n"
                "#ifndef HIPMIGRATE_ONE__cudaGetErrorEnum_a3ea12\n").replace('return "driver"; }\n#endif',
                'return "driver"; }\n#endif\n#endif')),
        Invalid(HELPER, options=UNSAFE, fixed=renamed(HELPER).replace(
            "{ return hipGetErrorName(error); }\n", "{ return hipGetErrorName(error); }\n"
            "#define HIPMIGRATE_ONE__cudaGetErrorEnum_a3ea12\n").replace(
            "static const char *_cudaGetErrorEnum(hipError_t error) {\n  const",
            "#ifndef HIPMIGRATE_ONE__cudaGetErrorEnum_a3ea12\n"
            "static const char *_cudaGetErrorEnum(hipError_t error) {\n  const") + "#endif\n"),
        Invalid("void wait(cudaStream_t s);\nvoid wait(cudaStream_t s) {}\nvoid wait(CUstream s) {}\n", line=3,
                fixed="void wait(hipStream_t s);\nvoid wait(hipStream_t s) {}\nvoid wait(hipStream_t s) {}\n"),
        # branches that exclude each other, other types after renaming, and a pair HIP keeps apart
        Valid("#ifdef DRIVER\nvoid f(CUresult e) {}\n#else\nvoid f(cudaError_t e) {}\n#endif\n"),
        Valid("void f(cudaError_t e) {}\nvoid f(cublasStatus_t s) {}\nvoid f(int x) {}\n"),
        Valid("void f(cudaStream_t s) {}\nnamespace d { void f(CUstream s) {} }\n"),
        Valid("struct S { void f(cudaStream_t s) {} };\nvoid f(CUstream s) {}\n"),
    ]

    def check(self, ctx):
        if not any(t.name in ctx.packs.names for t in ctx.tokens):
            return  # no CUDA name to rename, so no two signatures that become one (and no tree to parse)
        seen: dict[tuple, tuple[str, int, int, int]] = {}  # scope, name, HIP parameters -> CUDA parameters, line,
        #                                                  and where the definition starts and ends
        for m in parse.matches(DEFINITIONS, ctx.tree.root_node):
            function = m["function"][0]
            if not at_namespace_scope(function):
                continue
            declarator = function_declarator(m["declarator"][0])
            if declarator is None:
                continue
            name_node = declarator.child_by_field_name("declarator")
            params = declarator.child_by_field_name("parameters")
            if name_node is None or params is None or name_node.type != "identifier":
                continue
            cuda = parameter_types(params)
            hip = ", ".join(self._renamed(ctx, p) for p in cuda)
            key = (scope(function), name_node.text, hip)
            shown = ", ".join(cuda)
            earlier = seen.get(key)
            if earlier is None:
                seen[key] = (shown, function.start_point[0] + 1, function.start_byte, function.end_byte)
                continue
            if earlier[0] == shown:
                continue  # the same signature twice: the compiler's to judge, not a renaming's
            chains = branches(ctx)
            if chains.exclusive(earlier[2], function.start_byte):
                continue
            guarded = chains.conditional(earlier[2]) or chains.conditional(function.start_byte)
            name = name_node.text.decode("utf-8", "surrogateescape")
            macro = f"HIPMIGRATE_ONE_{name}_{hashlib.sha256(hip.encode()).hexdigest()[:6]}"
            nl = ctx.newline
            after_earlier, before, after = (next_line(ctx.data, earlier[3]), line_start(ctx.data, function.start_byte),
                                            next_line(ctx.data, function.end_byte))
            edits = [Edit(after_earlier, after_earlier, f"#define {macro}{nl}"),
                     Edit(before, before, f"#ifndef {macro}{nl}"), Edit(after, after, f"#endif{nl}")]
            yield self.finding(ctx, name_node.start_byte, name_node.end_byte, message(name, shown, hip, earlier[1]),
                               edits=edits, title=f"Compile it only where the earlier one is not ({macro})",
                               applicability=Applicability.SAFE if guarded else Applicability.UNSAFE)

    @staticmethod
    def _renamed(ctx, parameter: str) -> str:
        names = ctx.packs.names

        def one(m: re.Match) -> str:
            mapping = names.get(m.group())
            return ctx.hip_name(mapping) if mapping is not None and mapping.hip else m.group()
        return WORD.sub(one, parameter)
