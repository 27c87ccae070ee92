"""Cooperative groups' reductions and scans (`cooperative_groups/reduce.h`, `scan.h`), which HIP lacks.

No HIP release up to 6.4 ships `cg::reduce`, `cg::inclusive_scan`, `cg::exclusive_scan` or the `cg::plus`,
`cg::less`, `cg::greater` and `cg::bit_and/or/xor` operators. The first of those includes in a file becomes HIP's
cooperative-groups header (unless the file includes it already) followed by an implementation of them in a namespace of its own (`hipmigrate_cg`,
migrate/cpp/cg_collectives.py), guarded so that a file that gets it twice through its headers still compiles; the
others go. Each `cg::reduce(...)`, `cooperative_groups::plus<T>()`, ... is then qualified with that namespace.
The implementation shuffles by the group's own rank and size, so it is right on 64-lane (CDNA) and 32-lane (RDNA)
wavefronts alike, for tiles and coalesced groups; the tests compile it for gfx942 and gfx1100 and for HIP 5.2.
`cg::reduce_update_async` and `cg::reduce_store_async` have no counterpart: reported. Where the file calls them
without a qualifier after `using namespace cooperative_groups;`, `using namespace hipmigrate_cg;` is added after it.
"""
import re

from migrate.cpp import cg_collectives as cgc
from migrate.cpp.includes import includes
from migrate.cpp.parse import Context
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

COLLECTIVE_HEADERS = ("cooperative_groups/reduce.h", "cooperative_groups/scan.h")
CG_HEADERS = ("cooperative_groups.h", "hip/hip_cooperative_groups.h")
ALIAS = re.compile(rb"\bnamespace[ \t]+([A-Za-z_]\w*)[ \t]*=[ \t]*(?:::)?cooperative_groups[ \t]*;")
NAMES = "|".join(cgc.FUNCTIONS + cgc.OPERATORS + cgc.ASYNC)
QUALIFIED = re.compile(rb"\b([A-Za-z_]\w*)[ \t]*::[ \t]*(" + NAMES.encode() + rb")\b")
UNQUALIFIED = re.compile(rb"(?<![\w:])(" + "|".join(cgc.FUNCTIONS + cgc.ASYNC).encode() + rb")[ \t]*\(")
USING = re.compile(rb"\busing[ \t]+namespace[ \t]+(?:::)?cooperative_groups[ \t]*;")

KERNEL = ("#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\nnamespace cg = cooperative_groups;\n"
          "__global__ void sum(const float* in, float* out) {\n"
          "    auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
          "    float v = cg::reduce(tile, in[threadIdx.x], cg::plus<float>());\n"
          "    if (tile.thread_rank() == 0) out[threadIdx.x / 32] = v;\n}\n")


def migrated(text: str) -> str:
    body = text.replace("cg::reduce(", "hipmigrate_cg::reduce(").replace("cg::plus<", "hipmigrate_cg::plus<")
    return body.replace("#include <cooperative_groups/reduce.h>\n", cgc.block() + "\n")


class CoopGroupsCollective(CppRule):
    code = "CPP023"
    examples = [
        Invalid(KERNEL, fixed=migrated(KERNEL), line=2,
                message="cooperative_groups/reduce.h has no HIP counterpart: an implementation of cg::reduce, the scans "
                        "and their operators that holds for 64- and 32-lane wavefronts is written in its place "
                        "(namespace hipmigrate_cg)"),
        Invalid("#include <cooperative_groups/scan.h>\n__device__ int offsets(cooperative_groups::coalesced_group g, "
                "int n) {\n    return cooperative_groups::exclusive_scan(g, n);\n}\n",
                fixed="#include <hip/hip_cooperative_groups.h>\n" + cgc.block() + "\n__device__ int offsets("
                      "cooperative_groups::coalesced_group g, int n) {\n    return hipmigrate_cg::exclusive_scan(g, n);"
                      "\n}\n"),
        Invalid("#include \"reductions.cuh\"\nnamespace cg = cooperative_groups;\n__device__ float m(cg::thread_block_tile"
                "<16> t, float v) { return cg::reduce(t, v, cg::greater<float>()); }\n",
                fixed="#include \"reductions.cuh\"\nnamespace cg = cooperative_groups;\n__device__ float m(cg::"
                      "thread_block_tile<16> t, float v) { return hipmigrate_cg::reduce(t, v, "
                      "hipmigrate_cg::greater<float>()); }\n", line=3),
        Invalid("#include <cooperative_groups/reduce.h>\nusing namespace cooperative_groups;\n__device__ int f("
                "thread_block_tile<32> t, int v) { return reduce(t, v, plus<int>()); }\n",
                fixed="#include <hip/hip_cooperative_groups.h>\n" + cgc.block() + "\nusing namespace cooperative_groups;"
                      " using namespace hipmigrate_cg;\n__device__ int f(thread_block_tile<32> t, int v) { return "
                      "reduce(t, v, plus<int>()); }\n",
                message="reduce without a namespace, after using namespace cooperative_groups: HIP has none; using "
                        "namespace hipmigrate_cg is added after it"),
        Invalid("namespace cg = cooperative_groups;\n__device__ void f(cg::thread_block_tile<32> t, int* p) "
                "{ cg::reduce_store_async(t, p, 1, cg::plus<int>()); }\n",
                fixed="namespace cg = cooperative_groups;\n__device__ void f(cg::thread_block_tile<32> t, int* p) "
                      "{ cg::reduce_store_async(t, p, 1, hipmigrate_cg::plus<int>()); }\n",
                message="cg::reduce_store_async has no HIP counterpart: reduce with hipmigrate_cg::reduce and store "
                        "from one lane by hand"),
        Valid("#include <hip/hip_cooperative_groups.h>\n" + cgc.block() + "\n__device__ int g(int v) "
              "{ return hipmigrate_cg::reduce(cooperative_groups::coalesced_threads(), v, hipmigrate_cg::plus<int>()); }\n"),
        Valid("namespace mine { int reduce(int a) { return a; } }\nint f() { return mine::reduce(1) + std::plus<int>()(1, 2); }\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"cooperative_groups" not in data and b"cg::" not in data:
            return
        has_block = cgc.MARKER.encode() in data
        included = list(includes(ctx))
        collective = [(m, name) for m, name in included if name in COLLECTIVE_HEADERS]
        first = True
        for m, header in collective:
            if first and not has_block:
                include = ("" if any(name in CG_HEADERS for _, name in included)
                           else f"#include <hip/hip_cooperative_groups.h>{ctx.newline}")
                replacement = f"{include}{cgc.block(ctx.newline)}{ctx.newline}"
                message = (f"{header} has no HIP counterpart: an implementation of cg::reduce, the scans and their "
                           f"operators that holds for 64- and 32-lane wavefronts is written in its place (namespace "
                           f"{cgc.NAMESPACE})")
            else:
                replacement, message = "", f"{header}: the implementation written for the first such include serves"
            first = False
            yield self.finding(ctx, m.start(), m.end(2) + 1, message, severity=Severity.INFO,
                               edits=[Edit(m.start(), m.end(), replacement)], title="Write the collectives in its place")
        aliases = {m.group(1) for m in ALIAS.finditer(data)} | {b"cooperative_groups"}
        if not ALIAS.search(data):
            aliases.add(b"cg")  # the usual alias, declared in a header of the project
        for m in QUALIFIED.finditer(data):
            if m.group(1) not in aliases or ctx.locate(m.start(2), m.end(2))[0] in (Context.COMMENT, Context.STRING):
                continue
            name = m.group(2).decode()
            if name in cgc.ASYNC:
                yield self.finding(ctx, m.start(), m.end(), f"{m.group(1).decode()}::{name} has no HIP counterpart: "
                                   f"reduce with {cgc.NAMESPACE}::reduce and store from one lane by hand",
                                   severity=Severity.ERROR)
                continue
            yield self.finding(ctx, m.start(), m.end(), f"{m.group(1).decode()}::{name} is not in HIP's cooperative "
                               f"groups: {cgc.NAMESPACE}::{name} is used", severity=Severity.INFO,
                               edits=[Edit(m.start(1), m.end(1), cgc.NAMESPACE)], title=f"Use {cgc.NAMESPACE}::{name}")
        using = USING.search(data)
        if using and f"using namespace {cgc.NAMESPACE};".encode() not in data and (
                has_block or collective) and ctx.locate(using.start(), using.start() + 5)[0] is Context.CODE:
            calls = [m for m, token in ctx.code_matches(UNQUALIFIED)
                     if token.node is not None and token.node.parent is not None
                     and token.node.parent.type == "call_expression"]
            if calls:
                name = calls[0].group(1).decode()
                yield self.finding(ctx, calls[0].start(1), calls[0].end(1),
                                   f"{name} without a namespace, after using namespace cooperative_groups: HIP has none; "
                                   f"using namespace {cgc.NAMESPACE} is added after it",
                                   severity=Severity.INFO, edits=[Edit(using.end(), using.end(),
                                                                       f" using namespace {cgc.NAMESPACE};")],
                                   title=f"Use namespace {cgc.NAMESPACE} too")
