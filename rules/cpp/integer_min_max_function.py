"""`umin`, `umax`, `llmin`, `llmax`, `ullmin`, `ullmax`: CUDA device functions HIP does not declare.

CUDA's math API has them for unsigned int, long long and unsigned long long; HIP's device headers have the
template `T min(T, T)` and `T max(T, T)` instead (clang's __clang_hip_math.h), so `umin(a, b)` does not compile
("use of undeclared identifier 'umin'", NVIDIA's mergeSort sample). The fix (safe) names the template with the type
CUDA's function takes, both arguments cast to it, `min((unsigned int)(a), (unsigned int)(b))`: they convert as
they did to CUDA's parameters, and the template returns that type (checked with HIP 5.2, 6.4 and 7.2; naming the
type as a template argument instead, `min<unsigned int>(a, 4)`, reaches HIP's two-type overload, which returns
double).
"""
from migrate.cpp.int_types import cast
from migrate.cpp.integer_min_max import TYPES
from migrate.cpp.nodes import arguments
from migrate.cpp.parse import Context, declares
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid


class IntegerMinMaxFunction(CppRule):
    code = "CPP047"
    examples = [
        Invalid("__device__ unsigned f(unsigned a, unsigned b) { return umin(a, b) + umax(a, 4); }\n",
                fixed="__device__ unsigned f(unsigned a, unsigned b) { return min((unsigned int)a, (unsigned int)b) + "
                      "max((unsigned int)a, (unsigned int)4); }\n", line=1,
                message="umin is not declared by HIP: HIP's device template min over two unsigned int compares the same"),
        Invalid("__device__ long long g(long long a, int b) { return llmax(a, b + 1); }\n",
                fixed="__device__ long long g(long long a, int b) { return max((long long)a, (long long)(b + 1)); }\n"),
        Valid("__device__ unsigned f(unsigned a, unsigned b) { return min(a, b); }\n"),
        Valid("struct S { int umin(int a, int b); };\nint g(S& s) { return s.umin(1, 2); }\n"),
        Valid("int umin(int a, int b) { return a < b ? a : b; }\nint g() { return umin(1, 2); }\n"),
        # a braced list cannot be cast: reported, left as it is (a fuzz find: `(unsigned int)({a})` did not parse)
        Invalid("__device__ unsigned f(unsigned a) { return umax({a}, 4u); }\n", line=1,
                message="umax is not declared by HIP: HIP's device template max over two unsigned int compares the "
                        "same: an argument is a braced list, which a cast cannot take: call max with both arguments "
                        "of type unsigned int by hand"),
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
            message = f"{token.name} is not declared by HIP: HIP's device template {name} over two {kind} compares the same"
            if any(arg.type == "initializer_list" for arg in arguments(call)):  # (T)({...}) is no cast: a fuzz find
                yield self.finding(ctx, token.start, token.end, f"{message}: an argument is a braced list, which a "
                                   f"cast cannot take: call {name} with both arguments of type {kind} by hand",
                                   severity=Severity.ERROR)
                continue
            edits = [Edit(token.start, token.end, name), *(cast(arg, kind) for arg in arguments(call))]
            yield self.finding(ctx, token.start, token.end, message, edits=edits, title=f"Use {name} over {kind}")
