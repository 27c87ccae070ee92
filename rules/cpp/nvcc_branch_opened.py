"""An `#ifdef __NVCC__` branch that alone defines functions the HIP build calls: opened to hipcc.

hipcc does not define `__NVCC__`, so a HIP build leaves out what such a branch holds. Where the branch defines
functions that the rest of the file calls (in a header: any, its includers call them), and there is no `#else` or
`#elif` to stand for them, the build stops at the first call: the branch is CUDA code for the CUDA compiler, which the
migration has made HIP code. Its condition becomes `defined(__NVCC__) || defined(__HIPCC__)`, so that nvcc and hipcc
both compile it (HeCBench's ssim launches its kernels through `util::trilinear_kernel`, defined so in a header). With
an `#else`, which branch a HIP build needs is a decision: HAZ018 reports it.
"""
from migrate.cpp import parse
from migrate.cpp.nvcc_branch import branch
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

OPENED = "#if defined(__NVCC__) || defined(__HIPCC__)"
IFDEFS = parse.query("(preproc_ifdef) @ifdef")
LAUNCH = ("namespace util {\n#ifdef __NVCC__\ntemplate <typename K>\ninline void launch(K k, int n) {\n"
          "    k<<<n, 256>>>();\n}\n#endif\n}\n")


class NvccBranchOpened(CppRule):
    code = "CPP066"
    examples = [
        Invalid(LAUNCH, path="utils.h", line=2, fixed=LAUNCH.replace("#ifdef __NVCC__", OPENED),
                message="hipcc does not define __NVCC__, and only this branch defines launch, which a HIP build "
                        f"calls: '{OPENED}' compiles it for both"),
        Invalid("#ifdef __NVCC__\nint twice(int x) { return 2 * x; }\n#endif\nint main() { return twice(1); }\n",
                fixed=f"{OPENED}\nint twice(int x) {{ return 2 * x; }}\n#endif\nint main() {{ return twice(1); }}\n",
                message="hipcc does not define __NVCC__, and only this branch defines twice, which a HIP build "
                        f"calls: '{OPENED}' compiles it for both"),
        # an #else stands for it (HAZ018's), nothing of it called, a condition that already names HIP
        Valid("#ifdef __NVCC__\nint twice(int x) { return 2 * x; }\n#else\nint twice(int x) { return x + x; }\n"
              "#endif\nint main() { return twice(1); }\n"),
        Valid("#ifdef __NVCC__\nint twice(int x) { return 2 * x; }\n#endif\nint main() { return 0; }\n"),
        Valid(f"{OPENED}\nint twice(int x) {{ return 2 * x; }}\n#endif\nint main() {{ return twice(1); }}\n"),
    ]

    def check(self, ctx):
        if b"__NVCC__" not in ctx.data:
            return
        for node in parse.captures(IFDEFS, ctx.tree.root_node).get("ifdef", []):
            names, opened = branch(ctx, node)
            if not opened:
                continue
            name = node.child_by_field_name("name")
            shown = ", ".join(names)
            yield self.finding(ctx, node.start_byte, name.end_byte,
                               f"hipcc does not define __NVCC__, and only this branch defines {shown}, which a HIP "
                               f"build calls: '{OPENED}' compiles it for both",
                               edits=[Edit(node.start_byte, name.end_byte, OPENED)], title=f"Write '{OPENED}'")

