"""`umin`, `umax`, `llmin`, `llmax`, `ullmin`, `ullmax`: CUDA device functions HIP does not declare.

CUDA's math API has them for unsigned int, long long and unsigned long long; HIP's device headers have the
template `T min(T, T)` and `T max(T, T)` instead (clang's __clang_hip_math.h), so `umin(a, b)` does not compile
("use of undeclared identifier 'umin'", NVIDIA's mergeSort sample). The fix (safe) names the template with the type
CUDA's function takes, `min<unsigned int>(a, b)`: both arguments convert to it as they did to CUDA's parameters,
and the result is the same (checked with HIP 5.2, 6.4 and 7.2).
"""
from migrate.cpp.integer_min_max import TYPES
from migrate.cpp.parse import Context, declares
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid


class IntegerMinMaxFunction(CppRule):
    code = "CPP047"
    examples = [
        Invalid("__device__ unsigned f(unsigned a, unsigned b) { return umin(a, b) + umax(a, 4); }\n",
                fixed="__device__ unsigned f(unsigned a, unsigned b) { return min<unsigned int>(a, b) + "
                      "max<unsigned int>(a, 4); }\n", line=1,
                message="umin is not declared by HIP: min<unsigned int>(...), HIP's device template, compares the same"),
        Invalid("__device__ long long g(long long a, int b) { return llmax(a, b); }\n",
                fixed="__device__ long long g(long long a, int b) { return max<long long>(a, b); }\n"),
        Valid("__device__ unsigned f(unsigned a, unsigned b) { return min(a, b); }\n"),
        Valid("struct S { int umin(int a, int b); };\nint g(S& s) { return s.umin(1, 2); }\n"),
        Valid("int umin(int a, int b) { return a < b ? a : b; }\nint g() { return umin(1, 2); }\n"),
    ]

    def check(self, ctx):
        tokens = [t for t in ctx.code_tokens() if t.name in TYPES]
        own = {t.name for t in tokens if declares(t)} | ctx.defined_macros  # the project's own umin
        for token in tokens:
            if token.name in own or token.context is not Context.CODE or token.node is None or token.base:
                continue
            call = token.node.parent
            if call is None or call.type != "call_expression" or call.child_by_field_name("function") != token.node:
                continue
            name, kind = TYPES[token.name]
            yield self.finding(ctx, token.start, token.end, f"{token.name} is not declared by HIP: {name}<{kind}>(...), "
                               "HIP's device template, compares the same", edits=[Edit(token.start, token.end,
                                                                                     f"{name}<{kind}>")],
                               title=f"Use {name}<{kind}>")
