"""A float stored into a bfloat16 variable by `=`, migrated for a HIP older than 5.7.

CUDA's `__nv_bfloat16` converts from float implicitly. For a target before HIP 5.7 the type becomes
`hip_bfloat16` (hip/hip_bfloat16.h), whose constructor from float is `explicit`: `__nv_bfloat16 z = 0.f;`,
`out[i] = v;` and `acc += v;` do not build ("no viable conversion from 'float' to 'hip_bfloat16'"; found in
llm.c). The fix writes the conversion: `hip_bfloat16 z = hip_bfloat16(0.f);`, `out[i] = hip_bfloat16(v);`.
It rounds to nearest even, as CUDA's implicit conversion does. The variable is one the file declares with a
bfloat16 type (an element `p[i]` or `*p` of a pointer or array of them, too); a value that is already
bfloat16 (such a variable, a cast or a `__float2bfloat16*` call) is left alone. Conversions that a template
or a function argument makes (llm.c's `Packed128<floatX>::constant(0.f)`) are not seen: CPP005 says, once per
file, that hip_bfloat16 converts only explicitly.
"""
from migrate.cpp import parse, typed
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

OLD = (("hip_version", "5.2"),)
NEW = (("hip_version", "6.2"),)
BF16_TYPES = {b"__nv_bfloat16", b"nv_bfloat16"}
STORES = parse.query("[(assignment_expression left: (_) @target right: (_) @value)"
                     " (init_declarator declarator: (identifier) @target value: (_) @value)]")
MAKERS = ("__hadd", "__hsub", "__hmul", "__hdiv", "__hneg", "__hfma", "__habs", "__hmax", "__hmin")
K = "__global__ void k(__nv_bfloat16* out, float v) {\n  __nv_bfloat16 z = 0.f;\n  out[threadIdx.x] = v * 2;\n  z += v;\n}\n"


class Bf16FromFloatBeforeHip57(CppRule):
    code = "CPP016"
    severity = Severity.WARNING
    examples = [
        Invalid(K, fixed=K.replace("__nv_bfloat16", "hip_bfloat16").replace("= 0.f", "= hip_bfloat16(0.f)")
                .replace("= v * 2", "= hip_bfloat16(v * 2)").replace("+= v", "+= hip_bfloat16(v)"), line=2,
                options=OLD, message="hip_bfloat16, the bfloat16 type before HIP 5.7 (target 5.2), converts from "
                                     "float only explicitly: hip_bfloat16(0.f)"),
        Valid(K, options=NEW),
        Valid("__global__ void k(__nv_bfloat16* out, __nv_bfloat16 a, float v) {\n  out[0] = a;\n"
              "  out[1] = __float2bfloat16(v);\n  out[2] = (__nv_bfloat16)v;\n  __nv_bfloat16 w(v), q{v};\n"
              "  float f = v;\n  out[3] = __nv_bfloat16(v);\n  out[4] = static_cast<__nv_bfloat16>(v);\n}\n",
              options=OLD),
        Valid("__global__ void k(__nv_bfloat16** rows, float v) { rows[0] = nullptr; }", options=OLD),
        Invalid("__device__ void f(__nv_bfloat16* p, double d) { *p = (float)d; }",
                fixed="__device__ void f(hip_bfloat16* p, double d) { *p = hip_bfloat16((float)d); }", options=OLD),
    ]

    def check(self, ctx):
        bf16 = ctx.packs.names.get("__nv_bfloat16")
        if bf16 is None or not bf16.older or not ctx.too_new(bf16) or b"bfloat16" not in ctx.data:
            return
        names = typed.declared(ctx)
        if not any(t in BF16_TYPES for entries in names.values() for t, _, _ in entries):
            return
        name = bf16.older
        for m in parse.matches(STORES, ctx.tree.root_node):
            target, value = m["target"][0], m["value"][0]
            if typed.value_type(target, names) not in BF16_TYPES or _already_bf16(value, names):
                continue
            text = value.text.decode("utf-8", "surrogateescape")
            yield self.finding(ctx, value.start_byte, value.end_byte,
                               f"{name}, the bfloat16 type before HIP {bf16.since} (target {ctx.target}), converts "
                               f"from float only explicitly: {name}({text})",
                               edits=[Edit(value.start_byte, value.start_byte, f"{name}("),
                                      Edit(value.end_byte, value.end_byte, ")")], title=f"Convert with {name}(...)")


def _already_bf16(value, names) -> bool:
    if value.type in ("initializer_list", "argument_list"):
        return True
    if value.type == "cast_expression":
        kind = value.child_by_field_name("type")
        return kind is not None and kind.text in BF16_TYPES
    if value.type == "call_expression":
        callee = value.child_by_field_name("function")
        text = callee.text.decode("utf-8", "surrogateescape") if callee is not None else ""
        # __float2bfloat16(v), __nv_bfloat16(v), static_cast<__nv_bfloat16>(v), __hmul(a, b)
        return "bfloat16" in text or text.startswith(MAKERS)
    return typed.value_type(value, names) in BF16_TYPES
