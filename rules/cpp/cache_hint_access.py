"""CUDA's cache-hinted loads and stores (`__ldcs`, `__ldcg`, `__ldca`, `__ldlu`, `__stcs`, `__stcg`, `__stwb`,
`__stwt`), written as plain memory accesses.

CUDA defines them for every scalar and vector type. HIP (5.2 to 6.4) has `__ldca`, `__ldcg` and `__ldcs` for
`__half` and `__half2` only, and none of the others, so `__ldcs(reinterpret_cast<const int4*>(p))` or
`__stcs(out + i, v)` does not build. They read and write the same values as a plain access: the hint says how
to cache the line (streaming, global-only, last use, write-back, write-through), which AMD's caches do not take
in this form, and HIP itself writes its `__half` versions as `*ptr`. The fix: `__ldcs(p)` becomes `*(p)`
(`(*(p))` where a member or element of it is read) and `__stcs(p, v)` becomes `*(p) = v`. `__ldcv` (a load that
must not be cached, as for a flag polled in a loop) is not one of them: a plain load could be hoisted out of the
loop, so it stays reported as having no HIP counterpart.
"""
import re

from migrate.cpp.calls import arguments, call_of
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

LOADS = {"__ldca", "__ldcg", "__ldcs", "__ldlu"}
STORES = {"__stcg", "__stcs", "__stwb", "__stwt"}
HALF_ONLY = {"__ldca", "__ldcg", "__ldcs"}
CALLS = re.compile(rb"(?<![\w$])(" + b"|".join(sorted(n.encode() for n in LOADS | STORES)) + rb")\s*\(")


class CacheHintAccess(CppRule):
    code = "CPP014"
    severity = Severity.WARNING
    examples = [
        Invalid("__global__ void k(const float4* in, float4* out, int i) {\n  float4 v = __ldcs(in + i);\n"
                "  __stcs(out + i, v);\n}\n",
                fixed="__global__ void k(const float4* in, float4* out, int i) {\n  float4 v = *(in + i);\n"
                      "  *(out + i) = v;\n}\n", line=2,
                message="HIP has __ldcs only for __half and __half2: written as a plain load, *(...) (the "
                        "cache hint is dropped; the value is the same)"),
        Invalid("__device__ int4 load(const void* p) { return __ldcg(reinterpret_cast<const int4*>(p)); }",
                fixed="__device__ int4 load(const void* p) { return *(reinterpret_cast<const int4*>(p)); }"),
        Invalid("__device__ float f(const float2* p) { return __ldlu(p).x; }",
                fixed="__device__ float f(const float2* p) { return (*(p)).x; }",
                message="HIP has no __ldlu: written as a plain load, *(...) (the cache hint is dropped; the value "
                        "is the same)"),
        Invalid("#define STORE(p, v) __stwt(p, v)\n", fixed="#define STORE(p, v) *(p) = v\n"),
        Invalid("__device__ void g(float* p, float v) { if (v > 0) __stcg(p, v), p[1] = v; }",
                fixed="__device__ void g(float* p, float v) { if (v > 0) (*(p) = v), p[1] = v; }"),
        Valid("__device__ int f(volatile int* flag) { return __ldcv(flag); }"),
        Valid('// __ldcs(p) streams\nconst char* s = "__stcs(p, v)";\n'),
        Valid("__device__ float my__ldcs(const float* p);\n__device__ float h(const float* p) { return my__ldcs(p); }"),
    ]

    def check(self, ctx):
        if not any(stem in ctx.data for stem in (b"__ldc", b"__ldlu", b"__stc", b"__stw")):
            return
        for _, token in ctx.code_matches(CALLS):
            call = call_of(token)
            args = arguments(call) if call is not None else []
            if len(args) != (1 if token.name in LOADS else 2):
                continue
            yield self._fix(ctx, token.name, call, args, token.base)

    def _fix(self, ctx, name: str, call, args, base: int):
        start, end = base + call.start_byte, base + call.end_byte
        first = args[0]
        which = f"{name} only for __half and __half2" if name in HALF_ONLY else f"no {name}"
        if name in LOADS:
            outer = call.parent is not None and call.parent.type in ("field_expression", "subscript_expression")
            edits = [Edit(start, base + first.start_byte, "(*(" if outer else "*("),
                     Edit(base + first.end_byte, end, "))" if outer else ")")]
            kind = "load, *(...)"
        else:
            statement = call.parent is not None and call.parent.type == "expression_statement"
            value = args[1]
            edits = [Edit(start, base + first.start_byte, "*(" if statement else "(*("),
                     Edit(base + first.end_byte, base + value.start_byte, ") = "),
                     Edit(base + value.end_byte, end, "" if statement else ")")]
            kind = "store, *(...) = ..."
        return self.finding(ctx, start, end, f"HIP has {which}: written as a plain {kind} (the cache hint is "
                            "dropped; the value is the same)", edits=edits, title=f"Write {name} as a plain access")
