"""Numeric values of CUDA error and enum codes, and `__threadfence_system()`.

`hipError_t` and the memory-type enums do not keep CUDA's numbering (only success is 0 in both), so
comparing an error or enum against a literal other than 0 tests for a different condition on AMD: compare
against the named value. `__threadfence_system()` orders memory but does not flush the GPU's L2 to the host
on AMD: host-visible data needs fine-grained (coherent) host memory.
"""
from migrate.cpp import parse
from migrate.cpp.parse import Context
from migrate.model import RuleKind, Severity
from migrate.rule import CppRule, Invalid, Valid

ENUM_TYPES = {b"cudaError_t", b"hipError_t", b"cudaError", b"CUresult", b"hipMemoryType", b"cudaMemoryType"}
COMPARISON = parse.query("(binary_expression left: (_) @left right: (_) @right) @cmp")
FENCE = "__threadfence_system"
MESSAGE = "'{text}' compares an error or enum code with a number: HIP numbers these values differently; " \
          "compare with the named value"
FENCE_MESSAGE = ("__threadfence_system() does not flush the GPU's L2 to the host on AMD: data the host reads "
                 "must live in fine-grained (coherent) host memory")


class ErrorEnumValue(CppRule):
    code = "HAZ014"
    kind = RuleKind.HAZARD
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("void f() { hipError_t err = hipMalloc(&p, 4);\n  if (err == 2) retry(); }\n", line=2,
                message=MESSAGE.format(text="err == 2")),
        Invalid("__global__ void publish(int* flag) { *flag = 1; __threadfence_system(); }\n",
                message=FENCE_MESSAGE),
        Valid("void f() { hipError_t err = hipMalloc(&p, 4); if (err != 0) abort(); }\n"),
        Valid("void f() { hipError_t err = hipMalloc(&p, 4); if (err == hipErrorOutOfMemory) retry(); }\n"),
        Valid("int g(int count) { return count == 2; }\n"),
    ]

    def check(self, ctx):
        at = ctx.data.find(FENCE.encode())
        while at >= 0:
            end = at + len(FENCE)
            if ctx.locate(at, end)[0] in (Context.CODE, Context.MACRO) and ctx.data[end:end + 1] != b"_":
                yield self.finding(ctx, at, end, FENCE_MESSAGE)
            at = ctx.data.find(FENCE.encode(), end)
        if not any(t in ctx.data for t in ENUM_TYPES):
            return
        names = parse.declared_names(ctx.tree.root_node, ENUM_TYPES)
        for m in parse.matches(COMPARISON, ctx.tree.root_node):
            cmp = m["cmp"][0]
            op = cmp.child_by_field_name("operator")
            if op is None or op.type not in ("==", "!=", "<", ">", "<=", ">="):
                continue
            sides = [cmp.child_by_field_name("left"), cmp.child_by_field_name("right")]
            if any(s is not None and s.type == "identifier" and s.text in names for s in sides) and any(
                    s is not None and s.type == "number_literal" and s.text not in (b"0",) for s in sides):
                yield self.finding(ctx, cmp.start_byte, cmp.end_byte, MESSAGE.format(text=cmp.text.decode()))
