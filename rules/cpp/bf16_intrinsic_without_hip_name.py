"""CUDA bfloat16 conversions that HIP's hip_bf16.h (5.7 to 6.4) does not declare, written with the ones it does.

HIP's bf16 header has `__float2bfloat16` (round to nearest even), `__double2bfloat16`, `__bfloat162float`,
`__halves2bfloat162` and `__bfloat162bfloat162`, but none of CUDA's explicitly rounded spellings:
`__float2bfloat16_rn`, `__floats2bfloat162_rn`, `__float2bfloat162_rn`, the integer conversions
(`__int2bfloat16_rn`, `__bfloat162int_rz`, ...). Transformer code calls them everywhere (llm.c's kernels convert
with `__float2bfloat16_rn`), and the migrated file stops at "use of undeclared identifier". For a target of 5.7 or
later each call becomes the same value through the functions HIP has:

- `__float2bfloat16_rn(x)` -> `__float2bfloat16(x)` (HIP's rounds to nearest even, as `_rn` does);
- `__floats2bfloat162_rn(a, b)` -> `__halves2bfloat162(__float2bfloat16(a), __float2bfloat16(b))`;
- `__float2bfloat162_rn(a)` -> `__bfloat162bfloat162(__float2bfloat16(a))`;
- an integer to bf16 with `_rn` -> `__double2bfloat16((double)(i))` (every 32-bit integer is exact in a double, so
  the one rounding is bf16's); `_rz`/`_rd`/`_ru` are reported (HIP has no directed rounding to bf16);
- bf16 to an integer: the bf16 value is exact in a float, then `_rz` truncates (a C cast), `_rn` rounds with
  `rintf`, `_rd` with `floorf` and `_ru` with `ceilf`. Out-of-range values and NaN, which CUDA saturates, are
  undefined in the C cast: a warning says so.

Before 5.7 HIP has none of these names (the type is `hip_bfloat16`): CPP005 reports them.
"""
from migrate.cpp.bf16_conversions import NAMES, SINCE, replacement
from migrate.cpp.calls import arguments, call_of
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

NEW = (("hip_version", "6.4"),)


class Bf16IntrinsicWithoutHipName(CppRule):
    code = "CPP026"
    examples = [
        Invalid("#include <cuda_bf16.h>\n__global__ void k(__nv_bfloat16* o, const float* x) "
                "{ o[threadIdx.x] = __float2bfloat16_rn(x[threadIdx.x]); }\n",
                fixed="#include <cuda_bf16.h>\n__global__ void k(__hip_bfloat16* o, const float* x) "
                      "{ o[threadIdx.x] = __float2bfloat16(x[threadIdx.x]); }\n", options=NEW,
                message="__float2bfloat16_rn is not in HIP 6.4's hip_bf16.h: __float2bfloat16(x[threadIdx.x]) "
                        "written (HIP's __float2bfloat16 rounds to nearest even, as _rn does)"),
        Invalid("#include <cuda_bf16.h>\n__device__ __nv_bfloat162 pair(float a, float b) "
                "{ return __floats2bfloat162_rn(a, b * 2.0f); }\n",
                fixed="#include <cuda_bf16.h>\n__device__ __hip_bfloat162 pair(float a, float b) "
                      "{ return __halves2bfloat162(__float2bfloat16(a), __float2bfloat16(b * 2.0f)); }\n", options=NEW),
        Invalid("#include <cuda_bf16.h>\n__device__ __nv_bfloat162 both(float a) { return __float2bfloat162_rn(a); }\n",
                fixed="#include <cuda_bf16.h>\n__device__ __hip_bfloat162 both(float a) "
                      "{ return __bfloat162bfloat162(__float2bfloat16(a)); }\n", options=(("hip_version", "5.7"),)),
        Invalid("#include <cuda_bf16.h>\n__device__ int f(__nv_bfloat16 v, int i, __nv_bfloat16* o) "
                "{ o[0] = __int2bfloat16_rn(i); return __bfloat162int_rz(v) + __bfloat162int_rn(v); }\n",
                fixed="#include <cuda_bf16.h>\n__device__ int f(__hip_bfloat16 v, int i, __hip_bfloat16* o) "
                      "{ o[0] = __double2bfloat16((double)(i)); return (int)(__bfloat162float(v)) + "
                      "(int)(rintf(__bfloat162float(v))); }\n", options=NEW),
        Invalid("#include <cuda_bf16.h>\n__device__ __nv_bfloat16 g(int i) { return __int2bfloat16_rz(i); }\n",
                fixed="#include <cuda_bf16.h>\n__device__ __hip_bfloat16 g(int i) { return __int2bfloat16_rz(i); }\n",
                options=NEW, message="__int2bfloat16_rz is not in HIP 6.4's hip_bf16.h: HIP has no directed rounding "
                                     "(rz) to bf16: convert with __double2bfloat16 (nearest even) if that will do"),
        Valid("#include <cuda_bf16.h>\n__device__ __nv_bfloat16 h(float x) { return __float2bfloat16(x); }\n",
              options=NEW),
        Valid("#include <cuda_bf16.h>\n__device__ __nv_bfloat16 h(float x) { return __float2bfloat16_rn(x); }\n",
              options=(("hip_version", "5.2"),)),  # no __hip_bfloat16 at all: CPP005's
    ]

    def check(self, ctx):
        if ctx.target_tuple < SINCE or b"bfloat16" not in ctx.data:
            return
        for m, token in ctx.code_matches(NAMES):
            call = call_of(token)
            if call is None:
                continue
            name = m.group(1).decode()
            args = [a.text.decode("utf-8", "surrogateescape") for a in arguments(call)]
            expression, why = replacement(name, args)
            message = f"{name} is not in HIP {ctx.target}'s hip_bf16.h: "
            if expression is None:
                yield self.finding(ctx, token.start, token.end, message + why, severity=Severity.WARNING)
                continue
            start, end = token.base + call.start_byte, token.base + call.end_byte
            yield self.finding(ctx, token.start, token.end, f"{message}{expression} written ({why})",
                               severity=Severity.WARNING if name.startswith("__bfloat162") else Severity.INFO,
                               edits=[Edit(start, end, expression)], title=f"Write {expression}")
