"""The `register` storage class: removed.

C++17 removed `register`; clang, which hipcc runs, rejects it in C++17 and later ("ISO C++17 does not allow
'register' storage class specifier", an error by default), while nvcc accepts it with a warning. It has long been a
hint compilers ignore, so the keyword goes with the blanks after it and the code means the same. Older CUDA code
(and NVIDIA's own early samples) declares loop counters and accumulators `register`.
"""
import re

from migrate.cpp import parse
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

KEYWORD = re.compile(rb"\b(register)\b[ \t]*")


class RegisterStorageClass(CppRule):
    code = "CPP021"
    examples = [
        Invalid("__global__ void k(float* p) {\n    register float acc = 0;\n    for (register int i = 0; i < 4; ++i) "
                "acc += p[i];\n    p[0] = acc;\n}\n",
                fixed="__global__ void k(float* p) {\n    float acc = 0;\n    for (int i = 0; i < 4; ++i) "
                      "acc += p[i];\n    p[0] = acc;\n}\n",
                line=2, message="'register' is not C++17 (clang rejects it; it has long been only a hint): removed"),
        Invalid("int twice(register int a) { return 2 * a; }\n", fixed="int twice(int a) { return 2 * a; }\n"),
        Invalid("#define ACC register float acc\n", fixed="#define ACC float acc\n"),
        Valid("int register_count = 0;  // register in a comment\nconst char* s = \"register\";\n"),
        Valid("struct R { int registers; };\nvoid register_kernel();\n"),
        Valid("#ifndef register\n#define register\n#endif\n"),  # old code's way to silence the warning
        # every `register` of a macro body in one pass, however the body parses (a fuzz find: one in two a run)
        Invalid("#define ACC register ne ACC register ne ACC register [float acc\n",
                fixed="#define ACC ne ACC ne ACC [float acc\n"),
        # a macro body that is only the keyword: the blanks before it go too, leaving an empty body (a fuzz find)
        Invalid("#ifndef STORAGE\n#define STORAGE register\n#endif\n",
                fixed="#ifndef STORAGE\n#define STORAGE\n#endif\n"),
    ]

    def check(self, ctx):
        if b"register" not in ctx.data:
            return
        for m, token in ctx.code_matches(KEYWORD):
            # a keyword (C++17 reserves it), so every one in code is the storage class, whatever tree-sitter's
            # recovery made of the line: only a macro of that name (`#define register`, to silence it) stays
            if parse.defined_or_tested(token.node):
                continue
            # at a line's end the blanks before it go too: the engine's layout pass (migrate/cpp/continuations.py)
            yield self.finding(ctx, token.start, token.end,
                               "'register' is not C++17 (clang rejects it; it has long been only a hint): removed",
                               edits=[Edit(m.start(), m.end(), "")], title="Remove register")
