"""A `uint3` made with `make_uint3` where a `dim3` is wanted: HIP's `dim3` has no constructor from `uint3`.

CUDA's `dim3` converts from `uint3` (`dim3(uint3 v)`), so `grid = make_uint3(n, 1, 1);` assigns a launch size;
HIP's `dim3` takes only the three sizes, and the assignment stops with "no viable overloaded '='" (HeCBench's
tpacf). Where `make_uint3(...)` is assigned to or initializes a variable the file declares as a `dim3`, it becomes
`dim3(...)`: the same three sizes.
"""
import re

from migrate.cpp.declared import declared_with
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

TYPES = frozenset({b"dim3"})
RUNTIME = "#include <cuda_runtime.h>\n"
ASSIGNED = re.compile(rb"\b([A-Za-z_]\w*)\s*(?:=|\{|\()\s*(make_uint3)\s*\(")


class Uint3AsDim3(CppRule):
    code = "CPP057"
    examples = [
        Invalid(RUNTIME + "void f(int n) {\n    dim3 grid(1, 1, 1);\n    grid = make_uint3(n, 1, 1);\n}\n", line=4,
                fixed=RUNTIME + "void f(int n) {\n    dim3 grid(1, 1, 1);\n    grid = dim3(n, 1, 1);\n}\n",
                message="make_uint3 assigned to the dim3 grid: HIP's dim3 has no constructor from uint3; dim3(...) "
                        "takes the same sizes"),
        Invalid("#include <cuda_runtime.h>\nvoid f(int n) { dim3 block = make_uint3(n, 1, 1); }\n",
                fixed="#include <cuda_runtime.h>\nvoid f(int n) { dim3 block = dim3(n, 1, 1); }\n"),
        Valid(RUNTIME + "void f(int n) { uint3 u = make_uint3(n, 1, 1); }\n"),
    ]

    def check(self, ctx):
        if b"make_uint3" not in ctx.data or b"dim3" not in ctx.data:
            return
        names = ctx.once("dim3_names", lambda c: declared_with(c, TYPES))
        for m, token in ctx.code_matches(ASSIGNED, 2):
            if m.group(1) not in names:
                continue
            name = m.group(1).decode()
            yield self.finding(ctx, m.start(2), m.end(2), f"make_uint3 assigned to the dim3 {name}: HIP's dim3 has "
                               "no constructor from uint3; dim3(...) takes the same sizes",
                               edits=[Edit(m.start(2), m.end(2), "dim3")], title="Write dim3(...)")
