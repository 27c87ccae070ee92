"""Host code that gates on the CUDA compute capability.

`prop.major >= 8` or `cudaDevAttrComputeCapabilityMajor` pick code paths by NVIDIA architecture
generation. HIP fills these fields from the AMD architecture (gfx90a reports 9.0, gfx942 9.4), so such a
check takes the wrong path on AMD GPUs. Test `gcnArchName` (the gfx name) or a feature attribute instead
(for example hipDeviceAttributeCooperativeLaunch, or the warp size from `warpSize`).
"""
from migrate.cpp import parse
from migrate.model import RuleKind, Severity
from migrate.rule import CppRule, Invalid, Valid

PROP_TYPES = {b"cudaDeviceProp", b"hipDeviceProp_t", b"hipDeviceProp"}
ATTRIBUTES = {"cudaDevAttrComputeCapabilityMajor", "cudaDevAttrComputeCapabilityMinor",
              "hipDeviceAttributeComputeCapabilityMajor", "hipDeviceAttributeComputeCapabilityMinor",
              "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR", "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR"}
COMPARISON = parse.query("(binary_expression left: (_) @left right: (_) @right) @cmp")
OPERATORS = {"<", "<=", ">", ">=", "==", "!="}
MESSAGE = ("compute-capability gate '{text}': HIP reports numbers derived from the AMD architecture (gfx90a "
           "gives 9.0), so this picks the wrong path on AMD; test gcnArchName or a feature attribute")


class ComputeCapabilityCheck(CppRule):
    code = "HAZ007"
    kind = RuleKind.HAZARD
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
        props = None
        caps = parse.captures(COMPARISON, ctx.tree.root_node)
        for cmp in caps.get("cmp", []):
            op = cmp.child_by_field_name("operator")
            if op is None or op.type not in OPERATORS:
                continue
            sides = [cmp.child_by_field_name("left"), cmp.child_by_field_name("right")]
            fields = [s for s in sides if s is not None and s.type == "field_expression"]
            numbers = [s for s in sides if s is not None and s.type == "number_literal"]
            if not fields or not numbers:
                continue
            field = fields[0].child_by_field_name("field")
            owner = fields[0].child_by_field_name("argument")
            if field is None or owner is None or field.text not in (b"major", b"minor"):
                continue
            if props is None:
                props = parse.declared_names(ctx.tree.root_node, PROP_TYPES)
            if owner.text in props:
                text = cmp.text.decode("utf-8", "replace")
                yield self.finding(ctx, cmp.start_byte, cmp.end_byte, MESSAGE.format(text=text))
