"""A 32-thread cooperative-groups tile used as "the warp", or a grid-synchronising kernel launched with <<<>>>.

`cooperative_groups::tiled_partition(block, 32)`, `tiled_partition<32>(block)` and `thread_block_tile<32>`
are whole warps on NVIDIA GPUs but half a 64-lane wavefront on AMD CDNA: warp-level code written against
such a tile (ballots, shuffles, reductions that assume a tile is a warp) sees only half the lanes. The
dynamic form's 32 can become `warpSize` (UNSAFE: the tile size changes what the rest of the code sees); the
template forms need a compile-time size and are flagged only.

A kernel that calls `this_grid()` (for `grid.sync()`) must be launched with `hipLaunchCooperativeKernel`;
launched with `<<<>>>` its grid sync is undefined (it may hang). That launch is flagged, with no fix.
"""
import re

from migrate.cpp import parse
from migrate.cpp.macro_bodies import trees
from migrate.cpp.nodes import arguments, callee, int_value, matches, text
from migrate.model import Applicability, Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

MAYBE = re.compile(rb"tiled_partition|thread_block_tile|this_grid")
TILE_TYPE = re.compile(rb"\bthread_block_tile\s*<\s*(?:32|0x20)[uU]?\s*>")
CALLS = parse.query("(call_expression function: (_) @f arguments: (argument_list)) @call")
TILES = parse.query("""
((template_function name: (identifier) @name arguments: (template_argument_list) @args) (#eq? @name "tiled_partition"))
""")
KERNELS = parse.query("(function_definition declarator: (function_declarator declarator: (_) @name)) @fn")
LAUNCHES = parse.query("(call_expression function: (_) @kernel (kernel_call_syntax)) @launch")
HALF = ("a 32-thread tile is half of a 64-lane AMD CDNA wavefront: code that treats it as the warp (ballots, "
        "shuffles, warp reductions) sees only half the lanes")
UNSAFE = (("unsafe_fixes", True),)


class TiledPartitionAsWarp(HazardRule):
    code = "HAZ010"
    severity = Severity.WARNING
    applicability = Applicability.UNSAFE

    examples = [
        Invalid("namespace cg = cooperative_groups;\n__global__ void k() {\n"
                "  auto warp = cg::tiled_partition(cg::this_thread_block(), 32);\n  warp.sync();\n}\n",
                fixed="namespace cg = cooperative_groups;\n__global__ void k() {\n"
                      "  auto warp = cg::tiled_partition(cg::this_thread_block(), warpSize);\n  warp.sync();\n}\n",
                options=UNSAFE, line=3, message=HALF + "; use warpSize"),
        Invalid("namespace cg = cooperative_groups;\n__global__ void k() {\n"
                "  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());\n}\n",
                line=3, message=HALF + "; size it per architecture (64 on CDNA)"),
        Invalid("namespace cg = cooperative_groups;\n"
                "__global__ void step(int* x) { cg::grid_group g = cg::this_grid(); x[0] = 1; g.sync(); }\n"
                "void run(int* x) { step<<<64, 256>>>(x); }\n",
                line=3,
                message="kernel 'step' synchronises the whole grid (this_grid): HIP needs it launched with "
                        "hipLaunchCooperativeKernel; with <<<>>> its grid sync is undefined and may hang"),
        Invalid("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* p) {\n"
                "  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());\n"
                "  p[0] = w.shfl_down(p[0], 1);\n}\n", line=4),  # one finding for the line, not two
        Valid("namespace cg = cooperative_groups;\n__global__ void k() {\n"
              "  auto t = cg::tiled_partition(cg::this_thread_block(), 16);\n  t.sync();\n}\n"),
        Valid("namespace cg = cooperative_groups;\n"
              "__global__ void step(int* x) { cg::this_grid().sync(); }\n"
              "void run(int* x) { void* a[] = {&x}; hipLaunchCooperativeKernel((void*)step, 64, 256, a, 0, 0); }\n"),
        Invalid("#define WARP_OF(b) cooperative_groups::tiled_partition(b, 32)\n",
                fixed="#define WARP_OF(b) cooperative_groups::tiled_partition(b, warpSize)\n",
                options=UNSAFE, line=1, message=HALF + "; use warpSize"),
        Valid("// a thread_block_tile<32> would be half a wavefront\n__global__ void k() {}\n"),
        Valid("__global__ void plain(int* x) { x[0] = 1; }\nvoid run(int* x) { plain<<<1, 1>>>(x); }\n"),
    ]

    def check(self, ctx):
        if not MAYBE.search(ctx.data):
            return []
        out, seen = [], set()
        for f in sorted(self._findings(ctx), key=lambda f: f.span.start):  # in source order
            # `thread_block_tile<32> w = tiled_partition<32>(b)` is one tile, reported once on its line
            key = (f.span.line, f.message, f.fix is not None)
            if key not in seen:
                seen.add(key)
                out.append(f)
        return out

    def _findings(self, ctx):
        root = ctx.tree.root_node
        for tree in trees(ctx, MAYBE):  # the file, and #define bodies (a CG_WARP(b) macro hides the call)
            yield from self._tiles(ctx, tree)
        # thread_block_tile<32> declared in a body often parses as a comparison, so the type is found by its
        # tokens: the identifier must not be in a comment or a string.
        for m in TILE_TYPE.finditer(ctx.data):
            where = parse.classify(ctx.node_at(m.start(), m.start() + len(b"thread_block_tile")))
            if where not in (parse.Context.COMMENT, parse.Context.STRING):
                yield self.finding(ctx, m.start(), m.end(), HALF + "; size it per architecture (64 on CDNA)")
        if b"this_grid" in ctx.data and b"<<<" in ctx.data:
            yield from self._cooperative(ctx, root)

    def _tiles(self, ctx, tree):
        base = tree.base
        if b"tiled_partition" in tree.data:
            for _, m in matches(CALLS, tree.root):
                call = m["call"][0]
                if callee(call) != "tiled_partition" or m["f"][0].type == "template_function" or \
                        any(c.type == "template_function" for c in m["f"][0].named_children):
                    continue
                args = arguments(call)
                if len(args) == 2 and int_value(text(args[1])) == 32:
                    size = args[1]
                    yield self.finding(ctx, base + call.start_byte, base + call.end_byte, HALF + "; use warpSize",
                                       edits=[Edit(base + size.start_byte, base + size.end_byte, "warpSize")],
                                       title="Use warpSize")
        for _, m in matches(TILES, tree.root):
            args = m["args"][0]
            if [int_value(text(a)) for a in args.named_children] == [32]:
                node = args.parent
                yield self.finding(ctx, base + node.start_byte, base + node.end_byte,
                                   HALF + "; size it per architecture (64 on CDNA)")

    def _cooperative(self, ctx, root):
        grid_kernels = set()
        for _, m in matches(KERNELS, root):
            fn = m["fn"][0]
            if b"this_grid" not in fn.text or not any(c.type == "__global__" for c in fn.children):
                continue
            if any(callee(c) == "this_grid" for c in parse.captures(CALLS, fn).get("call", [])):
                name = m["name"][0]
                grid_kernels.add(text(name.child_by_field_name("name") or name).split("::")[-1])
        for _, m in matches(LAUNCHES, root):
            launch, kernel = m["launch"][0], m["kernel"][0]
            name = callee(launch) or text(kernel)
            if name in grid_kernels:
                yield self.finding(ctx, launch.start_byte, launch.end_byte,
                                   f"kernel '{name}' synchronises the whole grid (this_grid): HIP needs it launched "
                                   "with hipLaunchCooperativeKernel; with <<<>>> its grid sync is undefined and may "
                                   "hang")
