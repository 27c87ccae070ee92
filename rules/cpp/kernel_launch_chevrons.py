"""A `<<<...>>>` kernel launch, rewritten to `hipLaunchKernelGGL` under `--launch-syntax ggl`.

hipcc accepts the chevron syntax, so by default launches are kept as they are. Teams whose style or
older toolchains want the macro form get `hipLaunchKernelGGL(kernel, grid, block, shmem, stream, args...)`
with the shared-memory size and stream defaulted to 0, and template kernels wrapped in
`HIP_KERNEL_NAME()`.
"""
import re

from migrate.edits import decoded
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

CHEVRON = re.compile(rb"<<<")
GGL = (("launch_syntax", "ggl"),)


class KernelLaunchChevrons(CppRule):
    code = "CPP004"
    phase = 1
    examples = [
        Invalid("void f(float* d) { k<<<g, b>>>(d, 4); }",
                fixed="void f(float* d) { hipLaunchKernelGGL(k, g, b, 0, 0, d, 4); }", options=GGL, line=1),
        Invalid("void f(float* d) { k<<<g, b, 0, s>>>(); }",
                fixed="void f(float* d) { hipLaunchKernelGGL(k, g, b, 0, s); }", options=GGL),
        Invalid("void f(float* d) { scale<float, 4><<<dim3(2), 64, bytes>>>(d); }",
                fixed="void f(float* d) { hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float, 4>), dim3(2), 64, bytes, 0, d); }",
                options=GGL),
        Valid("void f(float* d) { k<<<g, b>>>(d, 4); }"),
        Valid("void f(float* d) { hipLaunchKernelGGL(k, g, b, 0, 0, d, 4); }", options=GGL),
        Valid('const char* s = "k<<<1, 1>>>()";', options=GGL),
    ]

    def check(self, ctx):
        if ctx.options.launch_syntax != "ggl":
            return
        for m in CHEVRON.finditer(ctx.data):
            node = ctx.node_at(m.start(), m.end())
            config = node.parent if node.type == "<<<" else None
            call = config.parent if config is not None and config.type == "kernel_call_syntax" else None
            if call is None or call.type != "call_expression":
                continue
            yield self._rewrite(ctx, call, config)

    def _rewrite(self, ctx, call, config):
        callee = call.child_by_field_name("function")
        args = call.child_by_field_name("arguments")
        config_args = [c for c in config.named_children if c.type != "comment"]
        name = decoded(callee.text)
        edits = [Edit(callee.start_byte, callee.start_byte, "hipLaunchKernelGGL(")]
        if callee.type == "template_function" or "<" in name:
            edits[0] = Edit(callee.start_byte, callee.start_byte, "hipLaunchKernelGGL(HIP_KERNEL_NAME(")
            edits.append(Edit(callee.end_byte, callee.end_byte, ")"))
        edits.append(Edit(config.start_byte, config_args[0].start_byte, ", "))
        defaults = ", 0" * (4 - len(config_args))
        inner = [c for c in args.named_children if c.type != "comment"]
        tail = f"{defaults}, " if inner else f"{defaults}"
        edits.append(Edit(config_args[-1].end_byte, args.start_byte + 1, tail))
        if callee.end_byte != config.start_byte:  # whitespace between kernel name and <<<
            edits.append(Edit(callee.end_byte, config.start_byte, ""))
        edits.sort(key=lambda e: (e.start, e.end))
        return self.finding(ctx, call.start_byte, call.end_byte, f"launch of {name} rewritten to hipLaunchKernelGGL",
                            edits=edits, title="Use hipLaunchKernelGGL")
