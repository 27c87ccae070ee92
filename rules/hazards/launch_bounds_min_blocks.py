"""`__launch_bounds__(maxThreads, minBlocks)`: the second argument means something else on AMD.

In CUDA the second argument is the minimum number of resident blocks per SM, which steers register
allocation. HIP reads it as a minimum number of waves per execution unit (occupancy per SIMD), so a
value tuned for NVIDIA asks the AMD compiler for something unrelated, and can starve the kernel of
registers. The fix (UNSAFE) drops the second (and any third) argument, keeping the thread bound;
use `__attribute__((amdgpu_waves_per_eu(...)))` if an occupancy hint is really wanted.
(nvcc's `--maxrregcount` is a build flag, reported by the build rules.)
"""
from migrate.cpp import parse
from migrate.model import Applicability, Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

QUERY = parse.query("(launch_bounds) @bounds")
UNSAFE = (("unsafe_fixes", True),)


class LaunchBoundsMinBlocks(HazardRule):
    code = "HAZ013"
    severity = Severity.WARNING
    applicability = Applicability.UNSAFE
    examples = [
        Invalid("__global__ void __launch_bounds__(256, 2) k(float* d) { d[0] = 1.f; }\n",
                fixed="__global__ void __launch_bounds__(256) k(float* d) { d[0] = 1.f; }\n", options=UNSAFE, line=1,
                message="__launch_bounds__ second argument '2' means minimum blocks per SM in CUDA but minimum waves "
                        "per EU in HIP: drop it or retune it for AMD"),
        Invalid("__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS) k() {}\n",
                fixed="__global__ void __launch_bounds__(MAX_THREADS) k() {}\n", options=UNSAFE),
        Valid("__global__ void __launch_bounds__(256) k(float* d) { d[0] = 1.f; }\n"),
    ]

    def check(self, ctx):
        if b"__launch_bounds__" not in ctx.data:
            return
        for node in parse.captures(QUERY, ctx.tree.root_node).get("bounds", []):
            args = [c for c in node.named_children if c.type != "comment"]
            if len(args) < 2:
                continue
            second = args[1].text.decode("utf-8", "surrogateescape")
            yield self.finding(ctx, node.start_byte, node.end_byte,
                               f"__launch_bounds__ second argument '{second}' means minimum blocks per SM in CUDA but "
                               "minimum waves per EU in HIP: drop it or retune it for AMD",
                               edits=[Edit(args[0].end_byte, args[-1].end_byte, "")],
                               title="Drop the minimum-blocks argument")
