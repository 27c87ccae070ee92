"""CUDA's calling-convention macros for host callbacks, `CUDART_CB` and `CUDA_CB`: removed.

They expand to `__stdcall` on Windows and to nothing elsewhere. HIP defines no counterpart for AMD (its
`HIPRT_CB` exists only on the NVIDIA platform), so a migrated `void CUDART_CB done(hipStream_t, hipError_t,
void*)` does not build. A stream or host-function callback needs no calling convention on Linux: the macro
goes, with the blanks after it. A project's own `#define CUDART_CB` and `#ifdef` tests of it stay.
"""
import re

from migrate.cpp import parse
from migrate.edits import decoded
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

MACROS = re.compile(rb"\b(" + "|".join(sorted(parse.CALLBACK_MACROS)).encode() + rb")\b[ \t]*")


class CallbackConventionMacro(CppRule):
    code = "CPP010"
    examples = [
        Invalid("void CUDART_CB done(cudaStream_t s, cudaError_t e, void* p) {}\n",
                fixed="void done(hipStream_t s, hipError_t e, void* p) {}\n", line=1),
        Invalid("typedef void (CUDA_CB *host_fn)(void* data);\n", fixed="typedef void (*host_fn)(void* data);\n"),
        Invalid("#define CALLBACK(name) void CUDART_CB name(cudaStream_t, cudaError_t, void*)\n",
                fixed="#define CALLBACK(name) void name(hipStream_t, hipError_t, void*)\n"),
        Valid("#ifndef CUDART_CB\n#define CUDART_CB\n#endif\n"),
        Valid("#if defined(CUDA_CB) && !defined(CUDART_CB)\nint windows_style;\n#endif\n"),
        Valid('// a CUDART_CB callback\nconst char* s = "CUDART_CB";\n'),
        Valid("int MY_CUDART_CB_COUNT = 0;\n"),
        Valid("#pragma message CUDART_CB\n#dfine CUDART_CB\n"),  # directives that are not #define
        # read as a parameter's type (of a function named `void`): no calling-convention place, and without the
        # macro the line would no longer parse
        Valid("garbletypedef void (CUDA_CB *host_fn)(void* data);\n"),
        # read as the name of the function (whose own name is missing)
        Valid("void CUDART_CB (cudaStream_t s, cudaError_t e, void* p) {}\n"),
    ]

    def check(self, ctx):
        if b"_CB" not in ctx.data:
            return
        for m, token in ctx.code_matches(MACROS):
            if parse.defined_or_tested(token.node) or _read_as_a_name(token.node):
                continue
            yield self.finding(ctx, m.start(1), m.end(1), f"{decoded(m.group(1))} (a Windows calling convention, "
                               "empty elsewhere) has no HIP counterpart on AMD: removed",
                               edits=[Edit(m.start(), m.end(), "")], title=f"Remove {decoded(m.group(1))}")


def _read_as_a_name(node) -> bool:
    """Whether the tree reads the macro as a parameter's type or as the name of a function: without it the line
    would no longer parse."""
    parent = node.parent
    if parent is None:
        return False
    field = {"parameter_declaration": "type", "function_declarator": "declarator"}.get(parent.type)
    return field is not None and parent.child_by_field_name(field) == node
