"""`__grid_constant__` on a kernel parameter: removed.

CUDA 11.7's `__grid_constant__` marks a `const` kernel parameter whose address may be taken without the
compiler copying it to local memory. No HIP release (5.2 to 6.4) defines it, so a migrated kernel does not build
("unknown type name '__grid_constant__'"; NVIDIA's LargeKernelParameter sample). On AMD, kernel arguments are
already read from a read-only argument buffer, so the parameter keeps its meaning without it: the qualifier
goes, with the blanks after it. A project's own `#define __grid_constant__` and `#if` tests of it stay.
"""
import re

from migrate.cpp import parse
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

QUALIFIER = re.compile(rb"\b(__grid_constant__)\b[ \t]*")


class GridConstantQualifier(CppRule):
    code = "CPP017"
    examples = [
        Invalid("struct Big { int v[1000]; };\n__global__ void k(__grid_constant__ const Big b, int* o) { o[0] = b.v[0]; }\n",
                fixed="struct Big { int v[1000]; };\n__global__ void k(const Big b, int* o) { o[0] = b.v[0]; }\n",
                line=2, message="__grid_constant__ is not defined by HIP; AMD kernels read their arguments from a "
                                "read-only buffer already: removed"),
        Invalid("#define PARAM const __grid_constant__ Params\n", fixed="#define PARAM const Params\n"),
        Invalid("#define QUALIFIED const __grid_constant__\n", fixed="#define QUALIFIED const\n"),  # no blank left
        Valid("#ifndef __grid_constant__\n#define __grid_constant__\n#endif\n"),
        Valid('// __grid_constant__ params\nconst char* s = "__grid_constant__";\n'),
        Valid("#defin __grid_constant__\n"),  # a mistyped directive's text is not code
    ]

    def check(self, ctx):
        if b"__grid_constant__" not in ctx.data:
            return
        for m, token in ctx.code_matches(QUALIFIER):
            if parse.defined_or_tested(token.node):
                continue
            start = m.start()
            if ctx.data[m.end():m.end() + 1] in (b"\n", b"\r", b""):  # it ends the line: no blank is left there
                while start > 0 and ctx.data[start - 1] in b" \t":
                    start -= 1
            yield self.finding(ctx, token.start, token.end,
                               "__grid_constant__ is not defined by HIP; AMD kernels read their arguments from a "
                               "read-only buffer already: removed", edits=[Edit(start, m.end(), "")],
                               title="Remove __grid_constant__")
