"""`.x`/`.y` member access on a `__half2`/`half2` value.

CUDA's `__half2` exposes its two halves as `.x` and `.y` of type `__half`; HIP's `__half2` is laid out
differently across releases (a vector of two `_Float16` behind a union), so member access does not mean
the same everywhere. `__low2half(v)`/`__high2half(v)` and `__halves2half2(lo, hi)` work on both. A write
(`h.x = v`) is worse: in HIP 5.2 the member is an `unsigned short`, so a float or `__half` stored there is
converted as a number (0.1 becomes 0), and the build says nothing; the half is set with
`h = __halves2half2(v, __high2half(h))`.
"""
import re

from migrate.cpp import parse
from migrate.cpp.declared import declared_with
from migrate.edits import decoded
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

HALF2_TYPES = frozenset({b"__half2", b"half2", b"__nv_half2"})
MEMBERS = parse.query("(field_expression argument: (identifier) @owner field: (field_identifier) @field) @access")
MEMBER = re.compile(rb"\w\s*\.\s*[xy]\b")  # a cheap pre-check
MESSAGE = "'{text}' reads a half of a __half2 by member: HIP lays __half2 out differently; use {fix}"
WRITE = ("'{text}' writes a half of a __half2 by member: HIP lays __half2 out differently (in HIP 5.2 the member is "
         "an unsigned short, so the value is converted as a number); use {fix}")


class Half2MemberAccess(HazardRule):
    code = "HAZ017"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("__device__ float first(__half2 v) { return __half2float(v.x); }\n", line=1,
                message=MESSAGE.format(text="v.x", fix="__low2half(v)")),
        Invalid("__device__ void f(const __half2* p) { __half2 h = p[0]; float s = __half2float(h.y); }\n",
                message=MESSAGE.format(text="h.y", fix="__high2half(h)")),
        Valid("__device__ float first(__half2 v) { return __low2float(v); }\n"),
        Valid("__device__ float g(float2 v) { return v.x + v.y; }\n"),
        Invalid("__device__ float two(__half2 a, __half2 b) { __half2 c = a, d = b; return __half2float(d.y); }\n",
                message=MESSAGE.format(text="d.y", fix="__high2half(d)")),
        Invalid("__device__ __half2 set(__half2 h, __half v) { h.x = v; h.y += v; return h; }\n",
                message=WRITE.format(text="h.x", fix="h = __halves2half2(v, __high2half(h))")),
        Invalid("__device__ __half2 set(__half2 h, __half v) { h.y += v; return h; }\n",
                message=WRITE.format(text="h.y", fix="h = __halves2half2(__low2half(h), __high2half(h) + v)")),
    ]

    def check(self, ctx):
        if b"half2" not in ctx.data:
            return
        names = declared_with(ctx, HALF2_TYPES)
        if not names or not MEMBER.search(ctx.data):
            return
        for m in parse.matches(MEMBERS, ctx.tree.root_node):
            access, owner, field = m["access"][0], m["owner"][0], m["field"][0]
            if field.text not in (b"x", b"y"):
                continue
            if owner.text in names:
                yield self._finding(ctx, access, decoded(owner.text), field.text == b"x")

    def _finding(self, ctx, access, own: str, low: bool):
        parent = access.parent
        if parent is not None and parent.type == "assignment_expression" and parent.child_by_field_name("left") == access:
            op = decoded(parent.child_by_field_name("operator").text)
            value = decoded(parent.child_by_field_name("right").text)
            half = f"__low2half({own})" if low else f"__high2half({own})"
            if op != "=":
                value = f"{half} {op[:-1]} {value}"
            pair = f"{value}, __high2half({own})" if low else f"__low2half({own}), {value}"
            return self.finding(ctx, access.start_byte, access.end_byte,
                                WRITE.format(text=decoded(access.text), fix=f"{own} = __halves2half2({pair})"))
        fix = f"__low2half({own})" if low else f"__high2half({own})"
        return self.finding(ctx, access.start_byte, access.end_byte, MESSAGE.format(text=decoded(access.text), fix=fix))
