"""Numeric values of CUDA error and enum codes, and `__threadfence_system()`.

`hipError_t` and the memory-type enums do not keep CUDA's numbering (only success is 0 in both), so
comparing an error or enum against a literal other than 0 tests for a different condition on AMD: compare
against the named value. `__threadfence_system()` orders memory but does not flush the GPU's L2 to the host
on AMD: host-visible data needs fine-grained (coherent) host memory.
"""
from migrate.cpp.declared import declared_with
from migrate.cpp.parse import Context
from migrate.edits import decoded
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

ENUM_TYPES = frozenset({b"cudaError_t", b"hipError_t", b"cudaError", b"CUresult", b"hipMemoryType",
                        b"cudaMemoryType"})
FENCE = "__threadfence_system"
MESSAGE = "'{text}' compares an error or enum code with a number: HIP numbers these values differently; " \
          "compare with the named value"
FENCE_MESSAGE = ("__threadfence_system() does not flush the GPU's L2 to the host on AMD: data the host reads "
                 "must live in fine-grained (coherent) host memory")


class ErrorEnumValue(HazardRule):
    code = "HAZ014"
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
        names = declared_with(ctx, ENUM_TYPES)
        if not names:
            return
        seen: set[int] = set()
        for start, end in uses(ctx.data, names):  # each use of such a variable, up to its comparison
            node = ctx.node_at(start, end)
            cmp = node.parent
            if node.type != "identifier" or cmp is None or cmp.type != "binary_expression" or cmp.start_byte in seen:
                continue
            op = cmp.child_by_field_name("operator")
            if op is None or op.type not in ("==", "!=", "<", ">", "<=", ">="):
                continue
            sides = [cmp.child_by_field_name("left"), cmp.child_by_field_name("right")]
            if any(s is not None and s.type == "number_literal" and s.text != b"0" for s in sides):
                seen.add(cmp.start_byte)
                yield self.finding(ctx, cmp.start_byte, cmp.end_byte, MESSAGE.format(text=decoded(cmp.text)))


def uses(data: bytes, names: set[bytes]):
    """(start, end) of each whole-word occurrence of one of `names`, not after `.` or `->`, in text order."""
    found = []
    for name in names:
        if not name:  # an empty name (a broken declaration) would be found at every byte, forever
            continue
        at = data.find(name)
        while at >= 0:
            end = at + len(name)
            before, after = data[at - 1:at] if at else b" ", data[end:end + 1]
            member = before == b"." or data[max(0, at - 2):at] == b"->"
            if not (before.isalnum() or before == b"_" or member) and not (after.isalnum() or after == b"_"):
                found.append((at, end))
            at = data.find(name, end)
    return sorted(found)
