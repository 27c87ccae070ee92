"""`= {}` assigned to a half or bfloat16 variable: HIP's types have several assignment operators that `{}` matches.

CUDA code zeroes a `half2` (or `__half`, `__nv_bfloat16`, ...) with `x = {};` (GPTQ's quantized matrix product, in
HeCBench's quant3MatMul). HIP's `__half`, `__half2` and `__hip_bfloat16` (and, before HIP 7, `__hip_bfloat162`) have a
copy, a move and a raw-value assignment, and an empty brace list converts to each: "use of overloaded operator '='
is ambiguous". Where the file declares the variable or field with one of these types (not as a pointer, reference
or array), the braces get the type's HIP name, `x = __half2{};`: the same value-initialized zero. Declarations
(`half2 x = {};`) are initializations and compile as they are.
"""
import re

from migrate.cpp import parse
from migrate.cpp.declared import declared_with
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

TYPES = ("half", "half2", "__half", "__half2", "__nv_bfloat16", "__nv_bfloat162", "nv_bfloat16", "nv_bfloat162",
         "__hip_bfloat16", "__hip_bfloat162")
ASSIGNED = re.compile(rb"(?<![\w$])([A-Za-z_]\w*)\s*=\s*(\{\s*\})")


class HalfAssignedEmptyBraces(CppRule):
    code = "CPP061"
    examples = [
        Invalid("#include <cuda_fp16.h>\n__global__ void k(half2* out) {\n    half2 sum;\n    sum = {};\n"
                "    out[0] = sum;\n}\n", line=4,
                fixed="#include <cuda_fp16.h>\n__global__ void k(half2* out) {\n    half2 sum;\n    sum = half2{};\n"
                      "    out[0] = sum;\n}\n",
                message="{} assigned to the half2 sum: HIP's half2 has several assignment operators that an empty "
                        "brace list matches; half2{} is the same zero"),
        Invalid("#include <cuda_bf16.h>\nstruct Acc { __nv_bfloat16 v; };\n__device__ void reset(Acc& a) { a.v = {}; }\n",
                fixed="#include <cuda_bf16.h>\nstruct Acc { __hip_bfloat16 v; };\n"
                      "__device__ void reset(Acc& a) { a.v = __hip_bfloat16{}; }\n"),
        # an initialization, a pointer, another type
        Valid("#include <cuda_fp16.h>\n__device__ void f(float* o) { half2 h = {}; half* p; p = {}; float x; x = {}; }\n"),
    ]

    def check(self, ctx):
        if b"{}" not in ctx.data.replace(b" ", b""):
            return
        by_name = ctx.once("half_typed_names", _plain_names)
        for m in ASSIGNED.finditer(ctx.data):
            kind = by_name.get(m.group(1))
            if kind is None or ctx.locate(m.start(1), m.end(1))[0] not in (parse.Context.CODE, parse.Context.MEMBER):
                continue
            node = ctx.node_at(m.start(2), m.end(2))
            if node.parent is None or node.parent.type != "assignment_expression":
                continue
            mapping = ctx.packs.names.get(kind)
            hip = ctx.hip_name(mapping) if mapping is not None else kind
            name = m.group(1).decode()
            yield self.finding(ctx, m.start(2), m.end(2), f"{{}} assigned to the {kind} {name}: HIP's {hip} has several "
                               f"assignment operators that an empty brace list matches; {hip}{{}} is the same zero",
                               edits=[Edit(m.start(2), m.start(2), hip)], title=f"Write {hip}{{}}")


def _plain_names(ctx) -> dict[bytes, str]:
    """Variable and field names declared with one of TYPES as the value itself (pointers, references, arrays left out)."""
    found = {}
    for kind in TYPES:
        for name in declared_with(ctx, frozenset({kind.encode()})):
            if _declared_plainly(ctx.data, kind.encode(), name):
                found[name] = kind
    return found


def _declared_plainly(data: bytes, kind: bytes, name: bytes) -> bool:
    """Whether some declaration `KIND ..., NAME` has NAME without *, & or [ ]."""
    pattern = re.compile(rb"(?<![\w$])" + re.escape(kind) + rb"\s+(?:[^;(){}]*?,\s*)?" + re.escape(name) + rb"\s*(?=[;,=({])")
    return pattern.search(data) is not None
