"""`min`/`max` in device code over two integers of different types: both become the type C++ would compare them in.

CUDA declares `min` and `max` for every mix of int, unsigned int, long, unsigned long, long long and unsigned long
long, so `min(n - 1, threadIdx.x)` is `umin` and gives an unsigned int. HIP's device headers declare only `T
min(T, T)`, `int min(int, int)` and the float and double ones: with two integer types the call resolves to the
float overload, so an index through it stops the build ("array subscript is not an integer", checked with HIP 6.4
and 7.2 for gfx942) and a value above 2^24 through it is rounded. `threadIdx.x`, `blockDim.x` and their relatives
are unsigned int, so the mix is common in kernels. The fix (safe) casts both arguments to the type of the usual
arithmetic conversions, the one CUDA's overload compares in, so that HIP's `T min(T, T)` takes them:
`min((unsigned int)(n - 1), (unsigned int)threadIdx.x)` (casting one is not enough: `threadIdx.x` is a proxy
object, ambiguous for HIP 5.2, and `min<unsigned int>(a, 4)` reaches HIP's two-type overload, which returns double;
checked with HIP 5.2, 6.4 and 7.2). Only where both types can be told (literals, plainly declared variables and parameters, the built-in
coordinates, casts and arithmetic over them). In host code (and `__host__ __device__` functions) HIP has no `T
min(T, T)` to cast for: its host overloads for mixed types come only with `__HIP_DEFINE_MIXED_HOST_MIN_MAX__`, so
the call takes HIP's host `min(int, int)` and compiles, comparing signed where CUDA compares unsigned: it is reported
(a warning) with what to write, `std::min<unsigned int>(a, b)` from `<algorithm>`.
"""
import re

from migrate.cpp import parse
from migrate.cpp.int_types import Types, cast, common, file_scope
from migrate.cpp.nodes import arguments
from migrate.model import Severity
from migrate.rule import CppRule, Invalid, Valid

MAYBE = re.compile(rb"\b(?:min|max)\s*\(")
DEVICE = re.compile(rb"\b__(?:device|global)__\b")
CALLS = parse.query('((call_expression function: (identifier) @f arguments: (argument_list)) @call '
                    '(#match? @f "^(min|max)$"))')


def message(name: str, types: tuple[str, str], to: str) -> str:
    return (f"{name}({types[0]}, {types[1]}) has no HIP device overload: it resolves to the float one (an index "
            f"through it does not compile, large values are rounded); compare in {to}, as CUDA's overload does")


def host_message(name: str, types: tuple[str, str], to: str) -> str:
    return (f"{name}({types[0]}, {types[1]}) in host code takes HIP's {name}(int, int) (HIP defines mixed overloads "
            f"only with __HIP_DEFINE_MIXED_HOST_MIN_MAX__), which compares differently from CUDA's: write "
            f"std::{name}<{to}>(...) from <algorithm>, which compares in {to} as CUDA's overload does")


class MixedSignMinMax(CppRule):
    code = "CPP044"
    severity = Severity.ERROR
    examples = [
        Invalid("__global__ void k(float* y, const float* x, int C) {\n"
                "    int i = threadIdx.x;\n    y[min(C - 1, i + 4 * blockDim.x)] = x[i];\n}\n",
                fixed="__global__ void k(float* y, const float* x, int C) {\n"
                      "    int i = threadIdx.x;\n    y[min((unsigned int)(C - 1), (unsigned int)(i + 4 * blockDim.x))] = x[i];\n}\n",
                line=3, message=message("min", ("int", "unsigned int"), "unsigned int")),
        Invalid("__device__ long last(long n, size_t s) { return max(n, s); }\n",
                fixed="__device__ long last(long n, size_t s) { return max((unsigned long)n, (unsigned long)s); }\n"),
        Invalid("__global__ void k(int* p, int n) { p[min(threadIdx.x, 31)] = n; }\n",
                fixed="__global__ void k(int* p, int n) { p[min((unsigned int)threadIdx.x, (unsigned int)31)] = n; }\n"),
        # the same types, unknown types, host code, std:: and members
        Valid("__global__ void k(int* p, int n, int m, unsigned u) { p[min(n, m)] = max(u, 2u * u); }\n"),
        Valid("template <typename T> __device__ T f(T a, int b) { return min(a, b); }\n"),
        # host code: reported, for std::min
        Invalid("int h(int n, unsigned u) { return min(n, u); }\n",
                message=host_message("min", ("int", "unsigned int"), "unsigned int")),
        Invalid("__host__ __device__ int hd(int n, unsigned u) { return max(n, u); }\n"),
        Valid("__device__ int f(int n, unsigned u) { return std::min<int>(n, u) + s.min(n, u); }\n"),
        Valid("__global__ void k(float* p, float v, int n) { p[0] = min(v, n); }\n"),
    ]

    def check(self, ctx):
        if not MAYBE.search(ctx.data) or not (DEVICE.search(ctx.data) or ctx.tokens):
            return  # no CUDA here: a plain C++ file's own min is no business of this rule (and no tree to parse)
        root = ctx.tree.root_node
        functions, file_names = {}, None
        for m in parse.matches(CALLS, root):
            call = m["call"][0]
            args = arguments(call)
            function = _function(call)
            if len(args) != 2 or function is None:
                continue
            if function.id not in functions:
                file_names = file_names if file_names is not None else file_scope(root)
                functions[function.id] = Types(function, file_names)
            types = functions[function.id]
            kinds = types.of(args[0]), types.of(args[1])
            if None in kinds or kinds[0] == kinds[1]:
                continue
            to = common(*kinds)
            name = m["f"][0].text.decode("utf-8", "surrogateescape")
            device_only = parse.in_device_function(call) and not any(c.type == "__host__" for c in function.children)
            if not device_only:  # the host side has no T min(T, T) to cast for
                yield self.finding(ctx, call.start_byte, call.end_byte, host_message(name, kinds, to),
                                   severity=Severity.WARNING)  # it builds
                continue
            edits = [cast(arg, to) for arg in args]
            yield self.finding(ctx, call.start_byte, call.end_byte, message(name, kinds, to), edits=edits,
                               title=f"Compare in {to}")


def _function(node):
    while node is not None and node.type != "function_definition":
        node = node.parent
    return node

