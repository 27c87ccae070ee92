"""A cooperative-groups shuffle of a CUDA vector value (`float4`, `int2`, ...), which HIP's groups cannot shuffle.

CUDA's `thread_block_tile` and `coalesced_group` shuffles (`shfl`, `shfl_up`, `shfl_down`, `shfl_xor`) take any
trivially copyable value of up to 32 bytes. HIP's (5.2 to 6.4) take only integer and floating-point values: a
`float4` does not build ("Neither an integer or float type", or no matching `__shfl`). The fix shuffles each
component and rebuilds the vector: `g.shfl_xor(v, m)` becomes
`make_float4(g.shfl_xor(v.x, m), g.shfl_xor(v.y, m), g.shfl_xor(v.z, m), g.shfl_xor(v.w, m))`. It is safe when
the group, the value and the other arguments are plain names, literals, members, elements and arithmetic, which
may be evaluated once per component; a call or an assignment among them makes the fix unsafe (applied with
--unsafe-fixes). The value is a variable or parameter the file declares with a vector type (a reference to one,
or an element `p[i]`, `*p` of a pointer or array of them), or such a member of a struct the file declares; a
name the file declares with several types is read from the declaration in the same function (migrate.cpp.typed).
A whole struct of the project's own shuffled at once is not checked: it needs the same treatment by hand.
"""
import re

from migrate.cpp import parse, typed
from migrate.edits import decoded
from migrate.model import Applicability, Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

SHUFFLES = {"shfl", "shfl_up", "shfl_down", "shfl_xor"}
MEMBER_SHUFFLE = re.compile(rb"(?:\.|->)\s*shfl(?:_up|_down|_xor)?\s*\(")
COMPONENTS = ("x", "y", "z", "w")
BASES = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong", "float",
         "double")
VECTOR_TYPES = {f"{base}{n}".encode(): n for base in BASES for n in range(1, 5)}
CALLS = parse.query("(call_expression function: (field_expression argument: (_) @group field: (field_identifier) @method)"
                    " arguments: (argument_list) @args) @call")
# expressions that may be evaluated once per component
PLAIN = {"identifier", "number_literal", "field_expression", "subscript_expression", "pointer_expression",
         "parenthesized_expression", "binary_expression", "qualified_identifier", "field_identifier", "true", "false",
         "subscript_argument_list", "template_function", "template_argument_list", "type_descriptor",
         "primitive_type", "type_identifier", "namespace_identifier"}
K = "__device__ float4 f(cg::thread_block_tile<32> g, float4 v, int m) {\n  return g.shfl_xor(v, m);\n}\n"


class TileShuffleOfVector(CppRule):
    code = "CPP012"
    severity = Severity.ERROR
    examples = [
        Invalid(K, fixed=K.replace("g.shfl_xor(v, m)", "make_float4(g.shfl_xor(v.x, m), g.shfl_xor(v.y, m), "
                                   "g.shfl_xor(v.z, m), g.shfl_xor(v.w, m))"), line=2,
                message="HIP's cooperative groups shuffle only integer and floating-point values, not float4: "
                        "shuffle each component"),
        Invalid("__global__ void k(int2* p, int i) {\n  auto t = cg::tiled_partition<16>(cg::this_thread_block());\n"
                "  p[i] = t.shfl_down(p[i], 1);\n}\n",
                fixed="__global__ void k(int2* p, int i) {\n  auto t = cg::tiled_partition<16>(cg::this_thread_block());\n"
                      "  p[i] = make_int2(t.shfl_down(p[i].x, 1), t.shfl_down(p[i].y, 1));\n}\n", line=3),
        # a reference parameter, and a pointer read through *q
        Invalid("__device__ void r(cg::coalesced_group g, const double2& a, double2* q) { *q = g.shfl(*q, 0) + a.x; }",
                fixed="__device__ void r(cg::coalesced_group g, const double2& a, double2* q) "
                      "{ *q = make_double2(g.shfl((*q).x, 0), g.shfl((*q).y, 0)) + a.x; }"),
        # a member of a struct of the file's own (cuda-samples' shfl_scan)
        Invalid("struct packed { uint4 x, y; };\n__device__ void f(cg::thread_block_tile<32> t, packed& r) {\n"
                "  r.y = t.shfl_xor(r.y, 1);\n}\n",
                fixed="struct packed { uint4 x, y; };\n__device__ void f(cg::thread_block_tile<32> t, packed& r) {\n"
                      "  r.y = make_uint4(t.shfl_xor(r.y.x, 1), t.shfl_xor(r.y.y, 1), t.shfl_xor(r.y.z, 1), "
                      "t.shfl_xor(r.y.w, 1));\n}\n", line=3),
        # `r` is a float4 in this function and an int array in another: the function's own declaration decides
        Invalid("__device__ void g() { int r[4]; }\n__device__ float4 f(cg::thread_block_tile<32> t, float4 r) "
                "{ return t.shfl(r, 0); }\n",
                fixed="__device__ void g() { int r[4]; }\n__device__ float4 f(cg::thread_block_tile<32> t, float4 r) "
                      "{ return make_float4(t.shfl(r.x, 0), t.shfl(r.y, 0), t.shfl(r.z, 0), t.shfl(r.w, 0)); }\n"),
        # a call among the repeated parts: the fix would call it once per component, so it is unsafe
        Invalid("__device__ uint4 u(cg::thread_block_tile<32> g, uint4 v) { return g.shfl(v, lane()); }",
                fixed="__device__ uint4 u(cg::thread_block_tile<32> g, uint4 v) { return g.shfl(v, lane()); }"),
        Valid("__device__ float f(cg::thread_block_tile<32> g, float4 v, int m) { return g.shfl_xor(v.x, m); }"),
        Valid("__device__ float4* f(cg::thread_block_tile<32> g, float4* p) { return g.shfl(p, 0); }"),
        Valid("__device__ int f(cg::thread_block_tile<32> g, int v) { return g.shfl_xor(v, 1); }"),
        # `v` is a float4 in one function and an int in another: which one this is, is not known
        Valid("__device__ int f(cg::thread_block_tile<32> g, int v) { return g.shfl_xor(v, 1); }\n"
              "__device__ float4 h(float4 v) { return v; }\n"),
    ]

    def check(self, ctx):
        if MEMBER_SHUFFLE.search(ctx.data) is None:
            return
        if not any(name in ctx.data for name in (b"char", b"short", b"int", b"long", b"float", b"double")):
            return
        names = typed.declared(ctx)
        for m in parse.matches(CALLS, ctx.tree.root_node):
            if decoded(m["method"][0].text) not in SHUFFLES:
                continue
            args = [c for c in m["args"][0].named_children if c.type != "comment"]
            vector = typed.value_type(args[0], names) if args else None
            if vector is None and args:  # result.y of a struct { uint4 x, y, z, w; } (cuda-samples' shfl_scan)
                vector = typed.member_type(args[0], names, typed.fields(ctx))
            if vector not in VECTOR_TYPES:
                continue
            yield self._finding(ctx, m["call"][0], m["group"][0], m["method"][0], args, vector)

    def _finding(self, ctx, call, group, method, args, vector: bytes):
        name = decoded(vector)
        value, rest = _text(ctx, args[0]), [_text(ctx, a) for a in args[1:]]
        if args[0].type not in ("identifier", "subscript_expression", "field_expression"):
            value = f"({value})"
        shuffles = [f"{_text(ctx, group)}.{_text(ctx, method)}({', '.join([f'{value}.{c}', *rest])})"
                    for c in COMPONENTS[:VECTOR_TYPES[vector]]]
        fixed = f"make_{name}({', '.join(shuffles)})"
        plain = all(_plain(n) for n in (group, *args))
        return self.finding(ctx, call.start_byte, call.end_byte,
                            f"HIP's cooperative groups shuffle only integer and floating-point values, not {name}: "
                            "shuffle each component", edits=[Edit(call.start_byte, call.end_byte, fixed)],
                            title=f"Shuffle each component of the {name}",
                            applicability=None if plain else Applicability.UNSAFE)


def _text(ctx, node) -> str:
    return decoded(ctx.data[node.start_byte:node.end_byte])


def _plain(node) -> bool:
    """No call, assignment or increment anywhere in `node`."""
    return node.type in PLAIN and all(_plain(c) for c in node.named_children)
