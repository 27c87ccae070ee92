"""A half-precision intrinsic called on bfloat16 values, migrated for a HIP older than its bfloat16 intrinsics.

CUDA's cuda_bf16.h overloads `__hadd`, `__hmul`, `__heq`, ... for `__nv_bfloat16`. HIP has them from the
release that brings `__hip_bfloat16` (5.7, hip/hip_bf16.h). For an older target the migrated type is
`hip_bfloat16` (hip/hip_bfloat16.h), which has no intrinsics, so the call does not build; the names exist
for `__half`, which is why the renaming rules cannot see it. `hip_bfloat16` has C++ operators instead: the
fix writes `(a + b)`, `(a == b)`, `(-a)`. It is graded unsafe (applied with --unsafe-fixes): the operators
compute in float and round back like CUDA's intrinsics, but NaN and overflow handling is the library's own.
An argument is a bfloat16 value when it is a variable or parameter declared with a bfloat16 type (an
element `x[i]` or `*p` of one, or such an intrinsic's result, too).
"""
from migrate.cpp import parse
from migrate.cpp.calls import arguments, call_of
from migrate.edits import decoded
from migrate.model import Applicability, Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

OLD = (("hip_version", "5.2"),)
NEW = (("hip_version", "6.2"),)
UNSAFE = (("hip_version", "5.2"), ("unsafe_fixes", True))
BF16_TYPES = {b"__nv_bfloat16", b"nv_bfloat16"}
OPERATORS = {"__hadd": "+", "__hsub": "-", "__hmul": "*", "__hdiv": "/", "__heq": "==", "__hne": "!=",
             "__hlt": "<", "__hle": "<=", "__hgt": ">", "__hge": ">=", "__hneg": "-"}
NO_OPERATOR = {"__hfma", "__habs", "__hmax", "__hmin", "__hadd_sat", "__hsub_sat", "__hmul_sat", "__hisnan",
               "__hisinf"}
ARITHMETIC = {"__hadd", "__hsub", "__hmul", "__hdiv", "__hneg", "__hfma", "__habs", "__hmax", "__hmin", "__hadd_sat",
              "__hsub_sat", "__hmul_sat"}  # the ones that return a value of their arguments' type
K = "__device__ float k(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(__hmul(a, b)); }"


class Bf16IntrinsicBeforeHip57(CppRule):
    code = "CPP008"
    severity = Severity.WARNING
    applicability = Applicability.UNSAFE
    examples = [
        Invalid("__device__ __nv_bfloat16 f(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }",
                fixed="__device__ hip_bfloat16 f(hip_bfloat16 a, hip_bfloat16 b) { return (a + b); }", line=1,
                message="__hadd on bfloat16 values needs HIP 5.7 (target 5.2): hip_bfloat16, the type used before "
                        "5.7, has no intrinsics; it has operators: (a + b)", options=UNSAFE),
        # without --unsafe-fixes: reported, left as it is
        Invalid("__device__ __nv_bfloat16 f(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }",
                fixed="__device__ hip_bfloat16 f(hip_bfloat16 a, hip_bfloat16 b) { return __hadd(a, b); }",
                options=OLD),
        Invalid("__global__ void g(nv_bfloat16* x, nv_bfloat16 s, bool* o) {\n"
                "  x[0] = __hneg(x[0]);\n  o[0] = __hlt(*x, s);\n}\n",
                fixed="__global__ void g(hip_bfloat16* x, hip_bfloat16 s, bool* o) {\n"
                      "  x[0] = (-x[0]);\n  o[0] = (*x < s);\n}\n", line=2, options=UNSAFE),
        Invalid("__device__ __nv_bfloat16 h(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) "
                "{ return __hfma(a, b, c); }",
                fixed="__device__ hip_bfloat16 h(hip_bfloat16 a, hip_bfloat16 b, hip_bfloat16 c) "
                      "{ return __hfma(a, b, c); }",
                message="__hfma on bfloat16 values needs HIP 5.7 (target 5.2): hip_bfloat16, the type used before "
                        "5.7, has no intrinsics; write it with its operators or build with HIP 5.7", options=UNSAFE),
        Valid("__device__ __nv_bfloat16 f(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }", options=NEW),
        Valid("__device__ __half f(__half a, __half b) { return __hadd(a, b); }", options=OLD),
        Valid("__device__ __half f(__half a, __nv_bfloat16 b) { return __hadd(a, a); }", options=OLD),
        Valid(K.replace("__hmul", "mul"), options=OLD),
    ]

    def check(self, ctx):
        bf16 = ctx.packs.names.get("__nv_bfloat16")
        if bf16 is None or not ctx.too_new(bf16) or b"bfloat16" not in ctx.data:
            return
        values = ctx.once("bf16-names", lambda c: parse.declared_names(c.tree.root_node, BF16_TYPES))
        if not values:
            return
        for token in ctx.code_tokens():
            if token.name not in OPERATORS and token.name not in NO_OPERATOR:
                continue
            call = call_of(token)
            args = arguments(call) if call is not None else []
            if not args or not any(_is_value(a, values) for a in args):
                continue
            need = f"{token.name} on bfloat16 values needs HIP {bf16.since} (target {ctx.target}): " \
                   f"{bf16.older}, the type used before {bf16.since}, has no intrinsics"
            base = token.base
            op = OPERATORS.get(token.name)
            if op is None or len(args) != (1 if token.name == "__hneg" else 2):
                yield self.finding(ctx, base + call.start_byte, base + call.end_byte,
                                   f"{need}; write it with its operators or build with HIP {bf16.since}")
                continue
            # the arguments stay as they are written (other rules may rename inside them): only the call around them
            first, last = args[0], args[-1]
            edits = [Edit(base + call.start_byte, base + first.start_byte, "(" if len(args) == 2 else f"({op}"),
                     Edit(base + last.end_byte, base + call.end_byte, ")")]
            if len(args) == 2:
                edits.insert(1, Edit(base + first.end_byte, base + last.start_byte, f" {op} "))
            shown = f"({op}{_text(first)})" if len(args) == 1 else f"({_text(first)} {op} {_text(last)})"
            yield self.finding(ctx, base + call.start_byte, base + call.end_byte, f"{need}; it has operators: {shown}",
                               edits=edits, title=f"Write {shown}")


def _text(node) -> str:
    return " ".join(node.text.decode("utf-8", "surrogateescape").split())


def _is_value(node, names: set[bytes]) -> bool:
    """A bfloat16 value: a variable declared with a bfloat16 type, an element of one (`x[i]`, `*p`), or what one
    of these intrinsics makes of such values (`__hmul(a, b)`), possibly in parentheses."""
    node = parse.element_base(node)
    if node is None:
        return False
    if node.type == "call_expression":
        callee = node.child_by_field_name("function")
        return callee is not None and decoded(callee.text) in ARITHMETIC and \
            any(_is_value(a, names) for a in arguments(node))
    return node.type == "identifier" and node.text in names
