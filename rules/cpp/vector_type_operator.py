"""A project's own operator on CUDA's vector types (`float2`, `float4`, `int2`, ...): the helper_math.h idiom.

CUDA's vector types are plain structs, so projects define their arithmetic themselves. HIP's are
`HIP_vector_type<T, n>`, which already define element-wise `+ - * / %`, the bitwise and shift operators, their
compound assignments (with a vector or a scalar on the right), unary `-`, `~`, `++` and `--`. Beside the project's
definitions, calls become ambiguous ("use of overloaded operator '+=' is ambiguous" with HIP 5.2 and 6.4; `*` on two
`float4` with 6.4). Where the project's operator means what HIP's does (its body works component by component:
`make_float2(a.x + b.x, a.y + b.y)`, `a.x += s; a.y += s;`), the definition is kept for CUDA builds only
(`#if !defined(__HIP_PLATFORM_AMD__)`) and HIP's is used on AMD. Where it means something else (a `*` that returns
a dot product, a `+` on two different vector types, `==` or `<`), it is reported: calls may be ambiguous or pick
HIP's meaning, so rename it.
"""
import re

from migrate.cpp import parse
from migrate.edits import decoded
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

DIMENSIONS = {"1": "x", "2": "xy", "3": "xyz", "4": "xyzw"}
VECTOR = re.compile(r"(?:u?char|u?short|u?int|u?long|u?longlong|float|double)([1-4])")
SCALARS = {"float", "double", "int", "unsigned", "unsigned int", "long", "unsigned long", "short", "char",
           "long long", "unsigned long long", "size_t"}
ELEMENTWISE = {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"}  # binary, and each with `=` compounded
UNARY = {"-", "~"}
# every operator HIP_vector_type has (HIP 5.2 and 6.4): the element-wise ones, their compound assignments, ==, !=
HIP_DEFINES = ELEMENTWISE | {f"{op}=" for op in ELEMENTWISE} | UNARY | {"==", "!=", "++", "--"}
GUARD = "__HIP_PLATFORM_AMD__"
DEFINITIONS = parse.query("(function_definition declarator: (function_declarator declarator: (operator_name) @op "
                          "parameters: (parameter_list) @params)) @def")


def param_types(params) -> list[tuple[str, str]]:
    """(type, name) of each parameter, the type without const, & or *."""
    out = []
    for p in params.named_children:
        if p.type != "parameter_declaration":
            return []
        kind = p.child_by_field_name("type")
        name = p.child_by_field_name("declarator")
        while name is not None and name.type in ("reference_declarator", "pointer_declarator"):
            if name.type == "pointer_declarator":
                return []
            name = name.named_children[-1] if name.named_children else None
        if kind is None or name is None:
            return []
        out.append((" ".join(decoded(kind.text).split()), decoded(name.text)))
    return out


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def elementwise(symbol: str, types: list[tuple[str, str]], body: str) -> bool:
    """The body works component by component: `a.x OP b.x` (or with a scalar `s`: `a.x OP s`, `s OP a.x`) for every
    component, or `a.x OP= ...` for a compound assignment, or `OP a.x` for a unary operator."""
    vectors = [VECTOR.fullmatch(t) for t, _ in types]
    size = next(m.group(1) for m in vectors if m)
    text = squeeze(body)
    terms = []
    for c in DIMENSIONS[size]:
        if len(types) == 1:
            terms.append(f"{symbol}{types[0][1]}.{c}")
            continue
        (ta, a), (tb, b) = types
        left = f"{a}.{c}" if vectors[0] else a
        right = f"{b}.{c}" if vectors[1] else b
        terms.append(f"{left}{symbol}{right}")
    return all(term in text for term in terms)


def same_meaning(symbol: str, types: list[tuple[str, str]]) -> bool:
    """HIP defines this operator for these operand types: one vector type (and scalars of any arithmetic type)."""
    vector_types = {t for t, _ in types if VECTOR.fullmatch(t)}
    if len(vector_types) != 1 or any(not VECTOR.fullmatch(t) and t not in SCALARS for t, _ in types):
        return False
    if len(types) == 1:
        return symbol in UNARY
    base = symbol[:-1] if symbol.endswith("=") and symbol not in ("==", "!=", "<=", ">=") else symbol
    if symbol.endswith("=") and base != symbol and not VECTOR.fullmatch(types[0][0]):
        return False  # a compound assignment assigns to the vector on the left
    return base in ELEMENTWISE


def guarded(node) -> bool:
    """The definition already stands in a block that AMD builds skip (or only AMD builds compile)."""
    parent = node.parent
    while parent is not None:
        if parent.type.startswith("preproc_if") and GUARD in (parent.text[:200].decode("utf-8", "replace")):
            return True
        parent = parent.parent
    return False


class VectorTypeOperator(CppRule):
    code = "CPP022"
    severity = Severity.WARNING
    examples = [
        Invalid("inline __host__ __device__ float2 operator+(float2 a, float2 b) {\n"
                "    return make_float2(a.x + b.x, a.y + b.y);\n}\n"
                "__global__ void k(float2* p) { p[0] = p[0] + p[1]; }\n",
                fixed="#if !defined(__HIP_PLATFORM_AMD__)\n"
                      "inline __host__ __device__ float2 operator+(float2 a, float2 b) {\n"
                      "    return make_float2(a.x + b.x, a.y + b.y);\n}\n#endif\n"
                      "__global__ void k(float2* p) { p[0] = p[0] + p[1]; }\n",
                line=1, message="operator+ on float2 is defined by HIP too (HIP_vector_type, element by element): "
                                "kept for CUDA builds only, HIP's is used on AMD"),
        Invalid("inline __host__ __device__ void operator+=(float4 &a, float s) {\n"
                "    a.x += s; a.y += s; a.z += s; a.w += s;\n}\n"
                "__global__ void k(float4* p) { p[0] += 1.0f; }\n",
                fixed="#if !defined(__HIP_PLATFORM_AMD__)\n"
                      "inline __host__ __device__ void operator+=(float4 &a, float s) {\n"
                      "    a.x += s; a.y += s; a.z += s; a.w += s;\n}\n#endif\n"
                      "__global__ void k(float4* p) { p[0] += 1.0f; }\n"),
        Invalid("inline __device__ float3 operator-(const float3 &a) { return make_float3(-a.x, -a.y, -a.z); }\n",
                fixed="#if !defined(__HIP_PLATFORM_AMD__)\n"
                      "inline __device__ float3 operator-(const float3 &a) { return make_float3(-a.x, -a.y, -a.z); }\n"
                      "#endif\n"),
        Invalid("inline __host__ __device__ float operator*(float4 a, float4 b) {\n"
                "    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;\n}\n",
                message="operator* on float4 means something other than HIP's element-wise operator* (HIP_vector_type "
                        "defines it): calls may be ambiguous or take HIP's meaning on AMD; rename it"),
        Valid("#if !defined(__HIP_PLATFORM_AMD__)\n"
              "inline __host__ __device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, "
              "a.y + b.y); }\n#endif\n"),
        Valid("struct V { float x, y; };\ninline V operator+(V a, V b) { return {a.x + b.x, a.y + b.y}; }\n"),
        Valid("inline __device__ float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }\n"),
        Valid("inline __host__ __device__ float2 make_float2(float s) { return make_float2(s, s); }\n"),
    ]

    def check(self, ctx):
        if b"operator" not in ctx.data or not re.search(rb"(?:float|int|double|char|short|long)[1-4]\b", ctx.data):
            return
        for m in parse.matches(DEFINITIONS, ctx.tree.root_node):
            definition, op, params = m["def"][0], m["op"][0], m["params"][0]
            symbol = decoded(op.text)[len("operator"):].strip()
            types = param_types(params)
            if (not types or len(types) > 2 or not any(VECTOR.fullmatch(t) for t, _ in types)
                    or symbol not in HIP_DEFINES or guarded(definition)):
                continue
            vector = next(t for t, _ in types if VECTOR.fullmatch(t))
            body = definition.child_by_field_name("body")
            start = definition.start_byte
            line_start = ctx.data.rfind(b"\n", 0, start) + 1
            returns = definition.child_by_field_name("type")
            returns = " ".join(decoded(returns.text).split()) if returns is not None else ""
            compound = symbol.endswith("=") and symbol not in ("==", "!=")
            if (same_meaning(symbol, types) and body is not None and (compound or returns == vector)
                    and elementwise(symbol, types, decoded(body.text))
                    and not ctx.data[line_start:start].strip()):
                nl = ctx.newline
                yield self.finding(ctx, start, op.end_byte,
                                   f"operator{symbol} on {vector} is defined by HIP too (HIP_vector_type, element by "
                                   "element): kept for CUDA builds only, HIP's is used on AMD",
                                   severity=Severity.INFO,
                                   edits=[Edit(line_start, line_start, f"#if !defined({GUARD}){nl}"),
                                          Edit(definition.end_byte, definition.end_byte, f"{nl}#endif")],
                                   title="Keep it for CUDA builds only")
                continue
            yield self.finding(ctx, start, op.end_byte,
                               f"operator{symbol} on {vector} means something other than HIP's element-wise "
                               f"operator{symbol} (HIP_vector_type defines it): calls may be ambiguous or take HIP's "
                               "meaning on AMD; rename it")
