"""Host code that gates on the CUDA compute capability.

`prop.major >= 8` or `cudaDevAttrComputeCapabilityMajor` pick code paths by NVIDIA architecture
generation. HIP fills these fields from the AMD architecture (gfx90a reports 9.0, gfx942 9.4), so such a
check takes the wrong path on AMD GPUs. Test `gcnArchName` (the gfx name) or a feature attribute instead
(for example hipDeviceAttributeCooperativeLaunch, or the warp size from `warpSize`).
"""
import re

from migrate.cpp.declared import declared_with
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

PROP_TYPES = frozenset({b"cudaDeviceProp", b"hipDeviceProp_t", b"hipDeviceProp"})
ATTRIBUTES = {"cudaDevAttrComputeCapabilityMajor", "cudaDevAttrComputeCapabilityMinor",
              "hipDeviceAttributeComputeCapabilityMajor", "hipDeviceAttributeComputeCapabilityMinor",
              "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR", "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR"}
FIELD = re.compile(rb"(?:\.|->)\s*(major|minor)\b")
OPERATORS = {"<", "<=", ">", ">=", "==", "!="}
MESSAGE = ("compute-capability gate '{text}': HIP reports numbers derived from the AMD architecture (gfx90a "
           "gives 9.0), so this picks the wrong path on AMD; test gcnArchName or a feature attribute")


class ComputeCapabilityCheck(HazardRule):
    code = "HAZ007"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("void f(hipDeviceProp_t prop) {\n  if (prop.major >= 8) use_tf32();\n}\n", line=2,
                message=MESSAGE.format(text="prop.major >= 8")),
        Invalid("void g(const hipDeviceProp_t* p) { bool old = p->major < 7 || p->minor == 0; }\n"),
        Invalid("int h(int dev) { int v; hipDeviceGetAttribute(&v, hipDeviceAttributeComputeCapabilityMajor, dev);"
                " return v; }\n"),
        Valid("struct Version { int major; };\nbool newer(Version v) { return v.major >= 8; }\n"),
        Valid("void f(hipDeviceProp_t prop) { size_t bytes = prop.totalGlobalMem; }\n"),
        Valid('const char* note = "prop.major >= 8";\n'),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"major" in data or b"minor" in data:
            yield from self._comparisons(ctx)
        for token in ctx.code_tokens():
            if token.name in ATTRIBUTES:
                yield self.finding(ctx, token.start, token.end, MESSAGE.format(text=token.name))

    def _comparisons(self, ctx):
        props = declared_with(ctx, PROP_TYPES)
        if not props:
            return
        seen: set[int] = set()
        for m in FIELD.finditer(ctx.data):  # each .major/.minor, up to the comparison it is a side of
            field = ctx.node_at(m.start(1), m.end(1))
            access = field.parent
            cmp = access.parent if access is not None and access.type == "field_expression" else None
            if cmp is None or cmp.type != "binary_expression" or cmp.start_byte in seen:
                continue
            op = cmp.child_by_field_name("operator")
            if op is None or op.type not in OPERATORS:
                continue
            sides = [cmp.child_by_field_name("left"), cmp.child_by_field_name("right")]
            if access not in sides or not any(s is not None and s.type == "number_literal" for s in sides):
                continue
            owner = access.child_by_field_name("argument")
            if field.type == "field_identifier" and owner is not None and owner.text in props:
                seen.add(cmp.start_byte)
                text = cmp.text.decode("utf-8", "surrogateescape")
                yield self.finding(ctx, cmp.start_byte, cmp.end_byte, MESSAGE.format(text=text))
