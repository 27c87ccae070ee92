"""A preprocessor gate on `__CUDA_ARCH__`: a device-compilation check or a compute-capability test.

hipcc does not define `__CUDA_ARCH__`. A device-compilation check (`#ifdef __CUDA_ARCH__`,
`defined(__CUDA_ARCH__)`, a bare `#if __CUDA_ARCH__`) is therefore false on AMD, in device code too:
the device branch silently disappears. HIP's spelling is `__HIP_DEVICE_COMPILE__`, and the fix
(SAFE) renames the macro when every `__CUDA_ARCH__` in the condition is of that plain form.

A numeric comparison (`__CUDA_ARCH__ >= 700`, `__CUDA_ARCH__ < 800`) tests an NVIDIA compute
capability, which AMD GPUs do not have: it is reported, not fixed; test a feature macro or a target
macro such as `__gfx90a__` instead. When such a comparison shares a condition with a `defined()`
check (`!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600`), the `defined()` is not rewritten either,
because that would flip which branch AMD device code takes.
"""
import re

from migrate.cpp import parse
from migrate.model import Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

ARCH = re.compile(rb"\b__CUDA_ARCH__\b")
HIP = "__HIP_DEVICE_COMPILE__"
DIRECTIVES = parse.DIRECTIVES
COMPARISONS = {"<", "<=", ">", ">=", "==", "!="}
DEVICE_MESSAGE = ("hipcc does not define __CUDA_ARCH__, so this device-compilation check is false on AMD: "
                  "test __HIP_DEVICE_COMPILE__")

OTHER_MESSAGE = ("hipcc does not define __CUDA_ARCH__, so this use has no value on AMD: use __HIP_DEVICE_COMPILE__ "
                 "or a target macro such as __gfx90a__")


def numeric_message(text: str) -> str:
    return (f"compute-capability check '{text}' has no meaning on AMD: hipcc does not define __CUDA_ARCH__ and AMD "
            "GPUs have no compute-capability numbers; test __HIP_DEVICE_COMPILE__, a feature macro or a target "
            "macro such as __gfx90a__")


class CudaArchGate(HazardRule):
    code = "HAZ006"
    severity = Severity.WARNING
    examples = [
        Invalid("#ifdef __CUDA_ARCH__\nint on_device;\n#endif\n",
                fixed="#ifdef __HIP_DEVICE_COMPILE__\nint on_device;\n#endif\n", line=1, message=DEVICE_MESSAGE),
        Invalid("#if defined(__CUDA_ARCH__)\nint a;\n#else\nint b;\n#endif\n",
                fixed="#if defined(__HIP_DEVICE_COMPILE__)\nint a;\n#else\nint b;\n#endif\n"),
        Invalid("#ifndef __CUDA_ARCH__\nint host_only;\n#endif\n",
                fixed="#ifndef __HIP_DEVICE_COMPILE__\nint host_only;\n#endif\n"),
        Invalid("int x;\n#if __CUDA_ARCH__ >= 700\nint fast;\n#endif\n", line=2,
                message=numeric_message("__CUDA_ARCH__ >= 700")),
        Invalid("#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600\n#else\n__device__ double atomicAdd(double*, double);\n"
                "#endif\n", message=numeric_message("__CUDA_ARCH__ >= 600")),
        Invalid("#if __CUDA_ARCH__ >= 800\nint a;\n#elif defined(__CUDA_ARCH__)\nint b;\n#endif\n",
                fixed="#if __CUDA_ARCH__ >= 800\nint a;\n#elif defined(__HIP_DEVICE_COMPILE__)\nint b;\n#endif\n"),
        Invalid("#define ARCH_OK (__CUDA_ARCH__ >= 700)\n", message=OTHER_MESSAGE),
        Valid("#ifdef __HIP_DEVICE_COMPILE__\nint on_device;\n#endif\n"),
        Valid('// #if __CUDA_ARCH__ >= 700\nconst char* s = "__CUDA_ARCH__";\n'),
        Valid("#if defined(__gfx90a__)\nint mi200;\n#endif\n"),
    ]

    def check(self, ctx):
        if b"__CUDA_ARCH__" not in ctx.data:
            return
        uses = []
        for m in ARCH.finditer(ctx.data):
            node = ctx.node_at(m.start(), m.end())
            if parse.classify(node) in (parse.Context.COMMENT, parse.Context.STRING):
                continue
            uses.append((node, m.start()))
        by_condition: dict[tuple[int, int], list] = {}
        for node, start in uses:
            condition = parse.directive_condition(node)
            key = (condition.start_byte, condition.end_byte) if condition is not None else (start, -1)
            by_condition.setdefault(key, []).append((node, start))
        for group in by_condition.values():
            forms = [self._form(node) for node, _ in group]
            fixable = all(kind == "device" for kind, _ in forms)
            for (node, start), (kind, shown) in zip(group, forms):
                if kind == "device":
                    edits = [Edit(node.start_byte, node.end_byte, HIP)] if fixable and node.type == "identifier" else []
                    yield self.finding(ctx, shown.start_byte, shown.end_byte, DEVICE_MESSAGE, edits=edits,
                                       title=f"Use {HIP}")
                elif kind == "other":
                    yield self.finding(ctx, start, start + len("__CUDA_ARCH__"), OTHER_MESSAGE)
                else:
                    text = " ".join(shown.text.decode("utf-8", "surrogateescape").split())
                    yield self.finding(ctx, shown.start_byte, shown.end_byte, numeric_message(text))

    @staticmethod
    def _form(node):
        """("device", node to report) for a device-compilation check, ("numeric", node) otherwise."""
        parent = node.parent
        if node.type != "identifier" or parent is None:
            return "other", node  # inside a #define body, or an unparsed spot
        if parent.type == "preproc_defined":
            return "device", parent
        if parent.type in DIRECTIVES:
            return "device", node  # #ifdef / #ifndef / a bare #if __CUDA_ARCH__
        if parent.type == "unary_expression" and parent.child_by_field_name("operator").type == "!" \
                and parent.parent is not None and parent.parent.type in DIRECTIVES:
            return "device", node  # #if !__CUDA_ARCH__
        if parent.type == "binary_expression" and parent.child_by_field_name("operator").type in COMPARISONS:
            return "numeric", parent
        return "other", node
