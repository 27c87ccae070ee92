"""Literal 32 (or 31, or a shift by 5, or 16 as a reduction's first offset) used as the warp size.

AMD CDNA GPUs (MI100/MI200/MI300) run 64-lane wavefronts, so lane and warp arithmetic built on 32 gives
wrong lane numbers, wrong warp numbers and reductions that stop half way. Flagged when the other operand is
a thread or lane index (threadIdx, __lane_id(), a variable assigned from one, a variable named lane/warp,
or a lane macro such as `#define LANE (threadIdx.x & 31)`): `threadIdx.x % 32`, `lane & 31`, `tid / 32`,
`tid >> 5`, `lane == 31` (the last lane); warps per block counted as `blockDim.x / 32` (or
`(blockDim.x + 31) / 32`, `blockDim.x >> 5`); a `WARP_SIZE`-like macro or constant defined as 32; a
shuffle's `width` argument 32; and `for (offset = 16; offset > 0; offset /= 2)` (or `i < 32` counting up)
around a shuffle. The same is found inside `#define` bodies. `count / 32`, `sizeof(x) * 32` and array
sizes are left alone.

The fixes (to `warpSize`, `& (warpSize - 1)`, `/ warpSize`, `warpSize / 2`, `warpSize - 1`) are UNSAFE:
warpSize is not a compile-time constant in recent HIP, so shared-memory sizes and templates built on the
old constant need a per-architecture value, and 64-lane reductions may need their shared buffers resized.
Constants declared `constexpr` or outside a function are flagged without a fix for that reason.

From HIP 7.0 (the target release), `warpSize` is no constant expression at all (HAZ027): a `WARP_SIZE`-like macro or
constant that the file uses where a constant is needed (an array bound, a template argument, `static_assert`, ...)
and a `constexpr` or namespace-scope one are defined as `HIPMIGRATE_WAVE_SIZE` instead, a per-target compile-time
wave size that a block at the top of the file defines once (migrate/cpp/wave_size.py); `warpSize` would not compile
there.
"""
import re

from migrate.cpp import parse, wave_size
from migrate.cpp.lanes import in_bitset_idiom
from migrate.cpp.macro_bodies import lanes, macros, trees
from migrate.cpp.nodes import arguments, callee, int_value, matches, strip_span, text
from migrate.model import Applicability, Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

UNSAFE = (("unsafe_fixes", True),)
# a project prefix is allowed: PyTorch's C10_WARP_SIZE, CUDA_WARP_SIZE
WARP_NAME = re.compile(r"(?i)^(?:[a-z0-9]+_)?(?:k_?)?(?:warp_?size|warp_?threads|threads_?per_?warp|warp_?sz|warp_?width)$")
MAYBE = re.compile(rb"threadIdx|lane|warp|WARP|Warp|__shfl|blockDim")
IN_MACRO = re.compile(rb"threadIdx|lane|warp|WARP|Warp|__shfl|blockDim|LANE|TID")
WARP_COUNT = re.compile(rb"\bblockDim\b")
LAST_LANE = re.compile(r"(?i)^lane(?:_?id|_?idx|_?index)?$")
LITERAL = {"%": "32", "/": "32", "&": "31", ">>": "5"}
# Left operands that need no parentheses in front of `/ warpSize`.
TIGHT = {"identifier", "field_expression", "call_expression", "parenthesized_expression", "subscript_expression",
         "number_literal", "cast_expression"}

# The literals the rule looks at (32, 31, 0x1f, 0x20, 5), found in the text before the tree is asked.
CANDIDATE = re.compile(rb"(?<![\w.])(?:3[12]|5|0[xX](?:1[fF]|20))[uUlL]*(?![\w.])")
WARP_CONSTANT = re.compile(rb"(?i)(?:warp_?(?:size|threads|sz|width)|threads_?per_?warp)\s*=\s*(?:32|0x20)\b")
CONSTANTS = parse.query("""
(declaration declarator: (init_declarator declarator: (identifier) @name value: (number_literal) @value)) @decl
""")
SHUFFLE = re.compile(rb"\b__shfl\w*")
WARP_ARRAY = ("#define WARP_SIZE 32\n__global__ void k(float* o) {\n  __shared__ float partial[WARP_SIZE];\n"
              "  partial[threadIdx.x % WARP_SIZE] = 1;\n  o[0] = partial[0];\n}\n")


def warp_message(what: str) -> str:
    return f"{what} assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; use warpSize"


class WarpSizeLiteral(HazardRule):
    code = "HAZ001"
    severity = Severity.WARNING
    applicability = Applicability.UNSAFE
    feeds_other_rules = True  # a warpSize it writes where a constant is needed is HAZ027's to rewrite

    examples = [
        Invalid("__global__ void k(int* o) { int lane = threadIdx.x % 32; o[0] = lane; }",
                fixed="__global__ void k(int* o) { int lane = threadIdx.x % warpSize; o[0] = lane; }",
                options=UNSAFE, line=1,
                message="'threadIdx.x % 32' assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; use warpSize"),
        Invalid("__global__ void k(int* o) {\n  int warp = threadIdx.x / 32;\n  o[warp] = 1;\n}\n",
                fixed="__global__ void k(int* o) {\n  int warp = threadIdx.x / warpSize;\n  o[warp] = 1;\n}\n",
                options=UNSAFE, line=2),
        Invalid("__global__ void k(int* o) { int tid = threadIdx.x; o[tid & 31] = tid >> 5; }",
                fixed="__global__ void k(int* o) { int tid = threadIdx.x; o[tid & (warpSize - 1)] = tid / warpSize; }",
                options=UNSAFE),
        Invalid("__global__ void k(int* o, int b) { o[0] = (b + threadIdx.x) >> 5; o[1] = b + threadIdx.x >> 5; }",
                fixed="__global__ void k(int* o, int b) { o[0] = (b + threadIdx.x) / warpSize; "
                      "o[1] = (b + threadIdx.x) / warpSize; }",
                options=UNSAFE),
        Invalid("__device__ int f(int laneId) { return laneId & 0x1f; }",
                fixed="__device__ int f(int laneId) { return laneId & (warpSize - 1); }", options=UNSAFE),
        Invalid("#define WARP_SIZE 32\n__global__ void k(int* o) { o[threadIdx.x % WARP_SIZE] = 0; }\n",
                fixed="#define WARP_SIZE warpSize\n__global__ void k(int* o) { o[threadIdx.x % WARP_SIZE] = 0; }\n",
                options=UNSAFE, line=1,
                message="WARP_SIZE defined as 32 assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; use "
                        "warpSize (a run-time value in recent HIP: arrays sized with it need a per-architecture "
                        "constant)"),
        Invalid("#define C10_WARP_SIZE 32\n", fixed="#define C10_WARP_SIZE warpSize\n", options=UNSAFE),
        # from HIP 7.0 warpSize is no constant: a macro or constant used where one is needed gets a per-target one
        Invalid(WARP_ARRAY, fixed=wave_size.block() + WARP_ARRAY.replace("WARP_SIZE 32", "WARP_SIZE HIPMIGRATE_WAVE_SIZE"),
                options=(("hip_version", "7.2"), ("unsafe_fixes", True)), line=1,
                message="WARP_SIZE defined as 32 assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; use warpSize "
                        "(used as a __shared__ array bound at line 3, where warpSize is no constant from HIP 7.0); write "
                        "HIPMIGRATE_WAVE_SIZE, a per-target constant"),
        Invalid(WARP_ARRAY, fixed=WARP_ARRAY.replace("WARP_SIZE 32", "WARP_SIZE warpSize"),
                options=(("hip_version", "6.4"), ("unsafe_fixes", True))),  # a constant in 6.4
        Invalid("constexpr int kWarpSize = 32;\n", fixed=wave_size.block() + "constexpr int kWarpSize = "
                "HIPMIGRATE_WAVE_SIZE;\n", options=(("hip_version", "7.2"), ("unsafe_fixes", True))),
        Invalid("__global__ void k(float* o) {\n  const int warp_size = 32;\n  __shared__ float s[warp_size];\n"
                "  o[threadIdx.x % warp_size] = s[0];\n}\n",
                fixed=wave_size.block() + "__global__ void k(float* o) {\n  const int warp_size = HIPMIGRATE_WAVE_SIZE;\n"
                      "  __shared__ float s[warp_size];\n  o[threadIdx.x % warp_size] = s[0];\n}\n",
                options=(("hip_version", "7.2"), ("unsafe_fixes", True)), line=2),
        Invalid("constexpr int kWarpSize = 32;\n", options=(("hip_version", "6.4"),),
                message="kWarpSize = 32 assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; use warpSize "
                        "(a run-time value in recent HIP: a compile-time constant needs a per-architecture value)"),
        Invalid("__device__ int f(int* o) { const int warp_size = 32; return o[0] % warp_size; }",
                fixed="__device__ int f(int* o) { const int warp_size = warpSize; return o[0] % warp_size; }",
                options=UNSAFE),
        Invalid("__device__ float f(float v, int s) { return __shfl_sync(0xffffffffffffffffull, v, s, 32); }",
                fixed="__device__ float f(float v, int s) { return __shfl_sync(0xffffffffffffffffull, v, s, warpSize); }",
                options=(("hip_version", "7.0"), ("unsafe_fixes", True)),
                message="shuffle width 32 assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; use warpSize"),
        Invalid("__device__ float sum(float v) {\n"
                "  for (int offset = 16; offset > 0; offset /= 2)\n"
                "    v += __shfl_down_sync(0xffffffffffffffffull, v, offset);\n"
                "  return v;\n}\n",
                fixed="__device__ float sum(float v) {\n"
                      "  for (int offset = warpSize / 2; offset > 0; offset /= 2)\n"
                      "    v += __shfl_down_sync(0xffffffffffffffffull, v, offset);\n"
                      "  return v;\n}\n",
                options=(("hip_version", "7.0"), ("unsafe_fixes", True)), line=2,
                message="a shuffle reduction starting at offset 16 assumes a 32-lane warp: AMD CDNA wavefronts have "
                        "64 lanes; use warpSize"),
        Invalid("__device__ float scan(float v, int lane) {\n"
                "  for (int d = 1; d < 32; d <<= 1) {\n"
                "    float y = __shfl_up_sync(0xffffffffffffffffull, v, d);\n"
                "    if (lane >= d) v += y;\n  }\n  return v;\n}\n",
                fixed="__device__ float scan(float v, int lane) {\n"
                      "  for (int d = 1; d < warpSize; d <<= 1) {\n"
                      "    float y = __shfl_up_sync(0xffffffffffffffffull, v, d);\n"
                      "    if (lane >= d) v += y;\n  }\n  return v;\n}\n",
                options=(("hip_version", "7.0"), ("unsafe_fixes", True))),
        Invalid("#define LANE_ID (threadIdx.x & 31)\n#define WARP_ID (threadIdx.x >> 5)\n"
                "__global__ void k(int* o) { o[WARP_ID] = LANE_ID; }\n",
                fixed="#define LANE_ID (threadIdx.x & (warpSize - 1))\n#define WARP_ID (threadIdx.x / warpSize)\n"
                      "__global__ void k(int* o) { o[WARP_ID] = LANE_ID; }\n",
                options=UNSAFE, line=1,
                message="'threadIdx.x & 31' assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; use warpSize"),
        Invalid("#define TID threadIdx.x\n__global__ void k(int* o) { o[TID % 32] = 0; }\n",
                fixed="#define TID threadIdx.x\n__global__ void k(int* o) { o[TID % warpSize] = 0; }\n",
                options=UNSAFE, line=2),
        Invalid("#define WARP_REDUCE(v) for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(~0ull, v, o)\n",
                fixed="#define WARP_REDUCE(v) for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(~0ull, v, o)\n",
                options=(("hip_version", "7.0"), ("unsafe_fixes", True)), line=1),
        Invalid("__global__ void k(int* o) {\n  int warps = blockDim.x / 32;\n  o[0] = warps;\n}\n",
                fixed="__global__ void k(int* o) {\n  int warps = blockDim.x / warpSize;\n  o[0] = warps;\n}\n",
                options=UNSAFE, line=2,
                message="'blockDim.x / 32' assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; use warpSize"),
        Invalid("__global__ void k(int* o) { o[0] = (blockDim.x + 31) / 32; }",
                fixed="__global__ void k(int* o) { o[0] = (blockDim.x + warpSize - 1) / warpSize; }", options=UNSAFE),
        Invalid("__global__ void k(int* o) { int lane = threadIdx.x % warpSize; if (lane == 31) o[0] = 1; }",
                fixed="__global__ void k(int* o) { int lane = threadIdx.x % warpSize; if (lane == warpSize - 1) o[0] = 1; }",
                options=UNSAFE,
                message="'lane == 31' (the last lane) assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; "
                        "use warpSize"),
        Valid("__global__ void k(int* o) { int lane = threadIdx.x % warpSize; o[lane] = threadIdx.x / warpSize; }"),
        Valid("#define ROWS(n) ((n) / 32)\n#define IDX (blockIdx.x * 256)\n__global__ void k(int* o) { o[0] = IDX / 32; }\n"),
        Valid("__global__ void k(int* o, int n) { int tid = threadIdx.x; if (tid == 31) o[0] = n; "
              "o[1] = blockDim.x % 32; }"),
        Valid("__global__ void k(int* o, int count) { int rows = count / 32; o[0] = rows; }"),
        Valid("__global__ void k(int* o, float x) { o[0] = sizeof(x) * 32; }"),
        Valid("__global__ void k(float* o) { __shared__ float tile[32][33]; tile[threadIdx.y][threadIdx.x] = 0; }"),
        Valid("__global__ void k(int* o, const int* in) { int v = in[threadIdx.x]; o[0] = v / 32; }"),
        Valid("#define BLOCK 32\nint f(int n) { return n >> 5; }\n"),
        Valid("__device__ float f(float v) {\n  for (int i = 16; i > 0; i /= 2) v += 1.0f;\n  return v;\n}\n"),
        Valid("__global__ void k(unsigned* bits) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  atomicOr(&bits[i / 32], 1u << (i % 32));\n}\n"),  # a 32-bit bitset's word and bit
        Valid("__device__ float f(float v) { return __shfl_down_sync(0xffffffffffffffffull, v, 1, 16); }",
              options=(("hip_version", "7.0"),)),
    ]

    def check(self, ctx):
        if not MAYBE.search(ctx.data):
            return []
        return sorted(self._findings(ctx), key=lambda f: f.span.start)  # in source order

    def _findings(self, ctx):
        for tree in trees(ctx, IN_MACRO):
            yield from self._literals(ctx, tree)
            yield from self._shuffles(ctx, tree)
        yield from self._constants(ctx, ctx.tree.root_node)

    def _literals(self, ctx, tree):
        """Each literal 32, 31 or 5 (found in the text, then checked on the tree): lane arithmetic on its left,
        or a lane compared with 31."""
        for m in CANDIDATE.finditer(tree.data):
            n = tree.node_at(m.start(), m.end())
            expr = n.parent if n is not None and n.type == "number_literal" else None
            if expr is None or expr.type != "binary_expression":
                continue
            op = text(expr.child_by_field_name("operator"))
            if op in LITERAL and expr.child_by_field_name("right") == n:
                yield from self._arithmetic(ctx, tree, expr, op, n, expr.child_by_field_name("left"))
            elif op in ("==", "!="):
                yield from self._last_lane(ctx, tree, expr, n)

    def _arithmetic(self, ctx, tree, expr, op, n, lhs):
        base = tree.base
        if int_value(text(n)) != int(LITERAL[op], 0):
            return
        if not tree.lanes.facts(expr).is_lane(lhs) and not (op in ("/", ">>") and WARP_COUNT.search(lhs.text)):
            return
        if in_bitset_idiom(expr):
            return
        if op == ">>":
            left = text(lhs)
            if lhs.type not in TIGHT and not (lhs.type == "binary_expression" and
                                              text(lhs.child_by_field_name("operator")) in ("*", "/", "%")):
                left = f"({left})"
            edits = [Edit(base + expr.start_byte, base + expr.end_byte, f"{left} / warpSize")]
        else:
            edits = [Edit(base + n.start_byte, base + n.end_byte, "warpSize" if op != "&" else "(warpSize - 1)")]
            rounding = round_up(lhs) if op == "/" else None
            if rounding is not None:
                edits.insert(0, Edit(base + rounding.start_byte, base + rounding.end_byte, "warpSize - 1"))
        shown = " ".join(text(expr).split())
        yield self.finding(ctx, base + expr.start_byte, base + expr.end_byte, warp_message(f"'{shown}'"),
                           edits=edits, title="Use warpSize")

    def _last_lane(self, ctx, tree, expr, n):
        lane = expr.child_by_field_name("left" if expr.child_by_field_name("right") == n else "right")
        if int_value(text(n)) != 31 or lane is None or lane.type != "identifier" or not LAST_LANE.match(text(lane)):
            return
        base = tree.base
        shown = " ".join(text(expr).split())
        yield self.finding(ctx, base + expr.start_byte, base + expr.end_byte, warp_message(f"'{shown}' (the last lane)"),
                           edits=[Edit(base + n.start_byte, base + n.end_byte, "warpSize - 1")],
                           title="Use warpSize - 1")

    def _constants(self, ctx, root):
        for macro in macros(ctx):
            value = macro.body
            if macro.params is not None or not WARP_NAME.match(macro.name) or int_value(text(value).strip()) != 32:
                continue
            start, end = strip_span(value)
            name = value.parent.child_by_field_name("name")
            constant = self._constant_use(ctx, macro.name)
            if constant is not None:
                yield self.finding(ctx, name.start_byte, end, warp_message(f"{macro.name} defined as 32") +
                                   f" ({constant}); write {wave_size.MACRO}, a per-target constant",
                                   edits=[*wave_size.block_edits(ctx), Edit(start, end, wave_size.MACRO)],
                                   title=f"Define it as {wave_size.MACRO}")
                continue
            yield self.finding(ctx, name.start_byte, end, warp_message(f"{macro.name} defined as 32") +
                               " (a run-time value in recent HIP: arrays sized with it need a per-architecture "
                               "constant)", edits=[Edit(start, end, "warpSize")], title="Define it as warpSize")
        if not WARP_CONSTANT.search(ctx.data):
            return
        for _, m in matches(CONSTANTS, root):
            name, value, decl = m["name"][0], m["value"][0], m["decl"][0]
            if not WARP_NAME.match(text(name)) or int_value(text(value)) != 32:
                continue
            compile_time = b"constexpr" in decl.text.split(b"=")[0] or lanes(ctx).function_of(decl) is None
            message = warp_message(f"{text(name)} = 32")
            constant = "a compile-time constant, which warpSize is not from HIP 7.0" if compile_time else self._constant_use(ctx, text(name))
            if constant is not None and ctx.target_tuple >= wave_size.CONSTANT_UNTIL:
                yield self.finding(ctx, name.start_byte, value.end_byte, message + f" ({constant}); write "
                                   f"{wave_size.MACRO}, a per-target constant",
                                   edits=[*wave_size.block_edits(ctx), Edit(value.start_byte, value.end_byte,
                                                                            wave_size.MACRO)],
                                   title=f"Use {wave_size.MACRO}")
            elif compile_time:
                yield self.finding(ctx, name.start_byte, value.end_byte, message + " (a run-time value in recent "
                                   "HIP: a compile-time constant needs a per-architecture value)")
            else:
                yield self.finding(ctx, name.start_byte, value.end_byte, message,
                                   edits=[Edit(value.start_byte, value.end_byte, "warpSize")], title="Use warpSize")

    @staticmethod
    def _constant_use(ctx, name: str) -> str | None:
        """From HIP 7.0, where `name` is used as a constant (warpSize is none there): what that use is, else None."""
        if ctx.target_tuple < wave_size.CONSTANT_UNTIL:
            return None
        use = wave_size.used_as_constant(ctx, name)
        if use is None:
            return None
        token, what = use
        return f"used as a {what} at line {ctx.span(token.start, token.end).line}, where warpSize is no constant " \
               "from HIP 7.0"

    def _shuffles(self, ctx, tree):
        base = tree.base
        loops: dict[int, object] = {}  # the for loops whose body has a shuffle, by start
        for m in SHUFFLE.finditer(tree.data):
            name = tree.node_at(m.start(), m.end())
            call = name.parent if name is not None and name.type == "identifier" else None
            if call is None or call.type != "call_expression" or call.child_by_field_name("function") != name:
                continue
            args = arguments(call)
            width = 3 if callee(call).endswith("_sync") else 2
            if len(args) > width and int_value(text(args[width])) == 32:
                arg = args[width]
                yield self.finding(ctx, base + arg.start_byte, base + arg.end_byte, warp_message("shuffle width 32"),
                                   edits=[Edit(base + arg.start_byte, base + arg.end_byte, "warpSize")],
                                   title="Use warpSize")
            child, parent = call, call.parent
            while parent is not None and parent.type not in ("function_definition", "translation_unit"):
                if parent.type == "for_statement" and parent.child_by_field_name("body") == child:
                    loops.setdefault(parent.start_byte, parent)
                child, parent = parent, parent.parent
        for loop in sorted(loops.values(), key=lambda n: n.start_byte):
            yield from self._loop(ctx, loop, base)

    def _loop(self, ctx, loop, base):
        init = loop.child_by_field_name("initializer")
        condition = loop.child_by_field_name("condition")
        update = loop.child_by_field_name("update")
        if init is None or condition is None or update is None:
            return
        start = first_value(init)
        if start is None or condition.type != "binary_expression":
            return
        var, first = start
        step = " ".join(text(update).split()).replace(" ", "")
        bound = condition.child_by_field_name("right")
        cmp = text(condition.child_by_field_name("operator"))
        if text(condition.child_by_field_name("left")) != var or bound is None:
            return
        down = step in (f"{var}/=2", f"{var}>>=1", f"{var}={var}/2", f"{var}={var}>>1")
        up = step in (f"{var}*=2", f"{var}<<=1", f"{var}={var}*2", f"{var}={var}<<1")
        if down and int_value(text(first)) == 16:
            yield self.finding(ctx, base + first.start_byte, base + first.end_byte,
                               warp_message("a shuffle reduction starting at offset 16"),
                               edits=[Edit(base + first.start_byte, base + first.end_byte, "warpSize / 2")],
                               title="Start at warpSize / 2")
        elif up and int_value(text(first)) == 1 and (cmp, int_value(text(bound))) in (("<", 32), ("<=", 16)):
            new = "warpSize" if cmp == "<" else "warpSize / 2"
            yield self.finding(ctx, base + bound.start_byte, base + bound.end_byte,
                               warp_message(f"a shuffle loop bounded by {text(bound)}"),
                               edits=[Edit(base + bound.start_byte, base + bound.end_byte, new)],
                               title=f"Bound it by {new}")


def round_up(lhs):
    """The literal 31 of a round-up `(x + 31) / 32`, else None."""
    while lhs.type == "parenthesized_expression" and lhs.named_child_count == 1:
        lhs = lhs.named_children[0]
    if lhs.type != "binary_expression" or text(lhs.child_by_field_name("operator")) != "+":
        return None
    right = lhs.child_by_field_name("right")
    return right if right.type == "number_literal" and int_value(text(right)) == 31 else None


def first_value(init):
    """(variable, literal node) of a for-initialiser `int v = N` or `v = N`, else None."""
    if init.type == "declaration":
        decl = init.child_by_field_name("declarator")
        if decl is None or decl.type != "init_declarator":
            return None
        name, value = decl.child_by_field_name("declarator"), decl.child_by_field_name("value")
    elif init.type == "assignment_expression" and text(init.child_by_field_name("operator")) == "=":
        name, value = init.child_by_field_name("left"), init.child_by_field_name("right")
    else:
        return None
    if name is None or value is None or name.type != "identifier" or value.type != "number_literal":
        return None
    return text(name), value
