"""A ballot or activemask result kept or counted in 32 bits, or a lane mask built in 32 bits.

On AMD's 64-lane wavefronts `__ballot_sync`, `__ballot` and `__activemask` return 64-bit masks. Stored in
an `unsigned`/`int`/`uint32_t` variable they lose lanes 32-63; `__popc`, `__ffs` and `__clz` look at 32 bits
only; `1u << lane` is undefined for lanes 32-63; PTX `%lanemask_lt` does not exist. Variables are followed
within the function (`unsigned m = __ballot_sync(...); ... __popc(m & lt)`), and the same is found inside
`#define` bodies (`#define VOTES(p) __popc(__ballot_sync(FULL, p))`, `#define BIT(lane) (1u << (lane))`).

Fixes: the variable's type becomes `unsigned long long` (SAFE where every use of it, and of the variables it is
copied to or from, is as a lane mask: a shuffle's or vote's mask, `__popc`/`__ffs`, a bitwise combination, a test
against zero; UNSAFE otherwise: other code may rely on its width);
`__popc`/`__ffs` on a ballot result become `__popcll`/`__ffsll` (SAFE, except `__popc` of a variable declared as a
signed 32-bit integer, whose sign `__popcll` would count: UNSAFE, right with the variable widened); `__clz` becomes
`__clzll` (UNSAFE: it counts 32 zeros more, and `31 - __clz(m)` must become `63 - ...`); `1u << lane`
becomes `1ull << lane` (SAFE when combined with a ballot result, otherwise UNSAFE). Inline PTX reading
`%lanemask_*` is flagged without a fix.
"""
import re

from migrate.cpp import parse
from migrate.cpp.lanes import in_bitset_idiom, is_32bit
from migrate.cpp.macro_bodies import trees
from migrate.cpp.nodes import arguments, int_value, matches, text
from migrate.edits import decoded
from migrate.model import Applicability, Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

UNSAFE = (("unsafe_fixes", True),)
MAYBE = re.compile(rb"__ballot|__activemask|lanemask|\b1[uU]?\s*<<(?!<)")
BALLOT = re.compile(rb"__ballot|__activemask")
ONE_SHIFT = re.compile(rb"\b1[uU]?\s*<<(?!<)")
WIDE = {"__popc": "__popcll", "__ffs": "__ffsll", "__clz": "__clzll"}
LANEMASK = re.compile(rb"%%?lanemask_(lt|le|gt|ge|eq)\b")

BALLOTS = parse.query("""
((call_expression function: (identifier) @f) @call (#match? @f "^(__ballot_sync|__ballot|__activemask)$"))
""")
COUNTS = parse.query("""
((call_expression function: (identifier) @f arguments: (argument_list)) @call (#match? @f "^(__popc|__ffs|__clz)$"))
""")
SHIFTS = parse.query("""
((binary_expression left: (number_literal) @one operator: "<<" right: (_) @lane) @shift (#match? @one "^1[uU]?$"))
""")
LOST = ": lanes 32-63 of a 64-lane AMD wavefront are lost"
AGGREGATE = ("__device__ int add(int* p, bool hit, unsigned lane) {\n  int mask;\n"
             "  unsigned m = __ballot_sync(0xffffffffffffffffull, hit);\n  mask = m;\n  if (!mask) return 0;\n"
             "  int leader = __ffs(mask) - 1;\n  int old = 0;\n  if (lane == leader) old = atomicAdd(p, __popc(mask));\n"
             "  old = __shfl_sync(mask, old, leader);\n  return old + __popc(mask & ((1 << lane) - 1));\n}\n")


class BallotResult32Bit(HazardRule):
    code = "HAZ003"
    severity = Severity.WARNING  # it builds, and computes wrong: a warning, not a blocker
    applicability = Applicability.SAFE

    examples = [
        Invalid("__device__ int f(int p) { unsigned m = __ballot_sync(0xffffffffffffffffull, p); return m != 0; }",
                fixed="__device__ int f(int p) { unsigned long long m = __ballot_sync(0xffffffffffffffffull, p); "
                      "return m != 0; }",
                options=UNSAFE, line=1,
                message="'m' keeps a ballot/activemask result in 32 bits (unsigned)" + LOST +
                        "; declare it unsigned long long"),
        Invalid("__device__ int f(int p) {\n  uint32_t m;\n  m = __activemask();\n  return __popc(m);\n}\n",
                fixed="__device__ int f(int p) {\n  unsigned long long m;\n  m = __activemask();\n"
                      "  return __popcll(m);\n}\n",
                options=UNSAFE, line=2),
        Invalid("__device__ int f(int p) { return __popc(__ballot_sync(0xffffffffffffffffull, p)); }",
                fixed="__device__ int f(int p) { return __popcll(__ballot_sync(0xffffffffffffffffull, p)); }",
                message="__popc counts 32 bits of a ballot result" + LOST + "; use __popcll"),
        Invalid("__device__ int f(int p) { auto m = __ballot_sync(0xffffffffffffffffull, p); return __ffs(m) - 1; }",
                fixed="__device__ int f(int p) { auto m = __ballot_sync(0xffffffffffffffffull, p); "
                      "return __ffsll(m) - 1; }"),
        Invalid("__device__ int f(int p, int lane) {\n"
                "  unsigned long long m = __ballot_sync(0xffffffffffffffffull, p);\n"
                "  return __popc(m & ((1u << lane) - 1));\n}\n",
                fixed="__device__ int f(int p, int lane) {\n"
                      "  unsigned long long m = __ballot_sync(0xffffffffffffffffull, p);\n"
                      "  return __popcll(m & ((1ull << lane) - 1));\n}\n",
                line=3),
        Invalid("__device__ unsigned f(int laneId) { return 1 << laneId; }",
                fixed="__device__ unsigned f(int laneId) { return 1ull << laneId; }", options=UNSAFE,
                message="'1 << laneId' builds a lane mask in 32 bits: it is undefined for lanes 32-63 of a "
                        "64-lane AMD wavefront; use 1ull"),
        Invalid('__device__ unsigned lt() { unsigned r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }',
                message="inline PTX reads %lanemask_lt, a 32-bit mask that HIP does not have; use the 64-bit "
                        "__lanemask_lt()"),
        Invalid("#define VOTES(p) __popc(__ballot_sync(0xffffffffffffffffull, p))\n",
                fixed="#define VOTES(p) __popcll(__ballot_sync(0xffffffffffffffffull, p))\n", line=1,
                message="__popc counts 32 bits of a ballot result" + LOST + "; use __popcll"),
        Invalid("#define LANE_BIT(lane) (1u << (lane))\n",
                fixed="#define LANE_BIT(lane) (1ull << (lane))\n", options=UNSAFE, line=1),
        Invalid("#define WARP_VOTE(p, out) do { unsigned m_ = __ballot_sync(~0ull, p); out = __ffs(m_); } while (0)\n",
                fixed="#define WARP_VOTE(p, out) do { unsigned long long m_ = __ballot_sync(~0ull, p); "
                      "out = __ffsll((unsigned long long)m_); } while (0)\n", options=UNSAFE),
        # an int mask: HIP's two __ffsll overloads would make the call ambiguous (HeCBench's atomicAggregate)
        Invalid("__device__ int leader(int p) {\n  int mask = __ballot_sync(0xffffffffffffffffull, p);\n"
                "  return __ffs(mask) - 1;\n}\n", line=2,
                fixed="__device__ int leader(int p) {\n  unsigned long long mask = __ballot_sync(0xffffffffffffffffull, p);\n"
                      "  return __ffsll((unsigned long long)mask) - 1;\n}\n"),
        # the count of an int mask: __popcll would count the sign's 32 bits too, unless the mask is widened, which
        # is the author's where the mask is also stored as a number
        Invalid("__device__ int votes(int p, int* out) {\n  int mask = __ballot_sync(0xffffffffffffffffull, p);\n"
                "  out[0] = mask;\n  return __popc(mask);\n}\n", line=2),
        # set to a 32-lane constant too: widened, it would name half a wavefront, so the widening is the author's
        Invalid("__device__ int f(int p) {\n  unsigned m = __ballot_sync(0xffffffffffffffffull, p);\n"
                "  if (p) m = 0xffffffff;\n  return __popc(m);\n}\n", line=2,
                fixed="__device__ int f(int p) {\n  unsigned m = __ballot_sync(0xffffffffffffffffull, p);\n"
                      "  if (p) m = 0xffffffff;\n  return __popcll(m);\n}\n"),
        # every use of the variables is as a lane mask (a copy, a count, a shuffle's mask, a test): widened by
        # default, with their counts (HeCBench's atomicAggregate)
        Invalid(AGGREGATE, line=2, fixed=AGGREGATE.replace("  int mask;", "  unsigned long long mask;")
                .replace("unsigned m =", "unsigned long long m =").replace("__popc(", "__popcll(")
                .replace("__ffs(mask)", "__ffsll((unsigned long long)mask)").replace("1 << lane", "1ull << lane")),
        Invalid("__device__ int top(int p) { return 31 - __clz(__ballot_sync(0xffffffffffffffffull, p)); }",
                message="__clz counts 32 bits of a ballot result" + LOST + "; use __clzll"),
        Valid("#define VOTES(p) __popcll(__ballot_sync(0xffffffffffffffffull, p))\n#define BIT(n) (1u << (n))\n"),
        Valid("__device__ int f(int p) { unsigned long long m = __ballot_sync(0xffffffffffffffffull, p); "
              "return __popcll(m); }"),
        Valid("__device__ int f(int p) { auto m = __activemask(); return __ffsll(m); }"),
        Valid("__device__ int f(unsigned x) { return __popc(x); }"),
        Valid("__device__ int f(int n) { return 1 << n; }"),
        Valid("__device__ int f(int lane) { return 1ull << lane; }"),
        Valid("__global__ void k(unsigned* bits) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  atomicOr(&bits[i / 32], 1u << (i % 32));\n}\n"),  # a 32-bit bitset's word and bit
    ]

    def check(self, ctx):
        data = ctx.data
        if not (b"__ballot" in data or b"__activemask" in data or b"lanemask" in data or ONE_SHIFT.search(data)):
            return []
        return sorted(self._findings(ctx), key=lambda f: f.span.start)  # in source order

    def _findings(self, ctx):
        for tree in trees(ctx, MAYBE):
            if BALLOT.search(tree.data):
                yield from self._stored(ctx, tree)
                yield from self._counted(ctx, tree)
            if ONE_SHIFT.search(tree.data):
                yield from self._shifts(ctx, tree)
        for m in LANEMASK.finditer(ctx.data):
            if ctx.locate(*m.span())[0] is not parse.Context.STRING:
                continue
            which = decoded(m.group(1))
            yield self.finding(ctx, m.start(), m.end(), f"inline PTX reads %lanemask_{which}, a 32-bit mask that HIP "
                               f"does not have; use the 64-bit __lanemask_{which}()")

    def _stored(self, ctx, tree):
        seen: set[int] = set()
        base = tree.base
        for call in parse.captures(BALLOTS, tree.root).get("call", []):
            facts = tree.lanes.facts(call)
            if facts.node is None or facts.node.start_byte in seen:
                continue
            seen.add(facts.node.start_byte)
            for name in sorted(facts.ballots, key=lambda n: facts.declarations[n].start_byte
                               if n in facts.declarations else 0):
                decl = facts.declarations.get(name)
                kind = facts.declared_type(name)
                if decl is None or not is_32bit(kind):
                    continue
                single = len(decl.children_by_field_name("declarator")) == 1
                edits = [Edit(base + kind.start_byte, base + kind.end_byte, "unsigned long long")] if single else []
                shown = " ".join(text(kind).split())
                yield self.finding(ctx, base + kind.start_byte, base + kind.end_byte,
                                   f"'{name}' keeps a ballot/activemask result in 32 bits ({shown}){LOST}; declare "
                                   "it unsigned long long", edits=edits, title="Declare it unsigned long long",
                                   applicability=Applicability.SAFE if name in facts.only_masks()
                                   else Applicability.UNSAFE)

    def _counted(self, ctx, tree):
        base = tree.base
        for _, m in matches(COUNTS, tree.root):
            call, f = m["call"][0], m["f"][0]
            args = arguments(call)
            if len(args) != 1 or not tree.lanes.facts(call).is_mask(args[0]):
                continue
            name = text(f)
            edits = [Edit(base + f.start_byte, base + f.end_byte, WIDE[name])]
            value = args[0]
            kind = tree.lanes.facts(call).declared_type(text(value)) if value.type == "identifier" else None
            narrow = kind is not None and is_32bit(kind)
            if name == "__ffs" and narrow:
                # HIP overloads __ffsll for long long and unsigned long long: an int or unsigned is ambiguous. The
                # cast keeps the lowest set bit where it is, sign extension included.
                edits.append(Edit(base + value.start_byte, base + value.start_byte, "(unsigned long long)"))
            # __popcll of a 32-bit int counts its sign extension too, and __clzll counts 32 zeros more than __clz
            # (`31 - __clz(m)` must become `63 - ...`): each is right only with the variable widened, or the
            # arithmetic around it rewritten, which are the author's (UNSAFE)
            unsafe = name == "__clz" or (name == "__popc" and narrow and _signed(kind)
                                         and text(value) not in tree.lanes.facts(call).only_masks())
            yield self.finding(ctx, base + f.start_byte, base + f.end_byte, f"{name} counts 32 bits of a ballot "
                               f"result{LOST}; use {WIDE[name]}", edits=edits, title=f"Use {WIDE[name]}",
                               applicability=Applicability.UNSAFE if unsafe else Applicability.SAFE)

    def _shifts(self, ctx, tree):
        base = tree.base
        for _, m in matches(SHIFTS, tree.root):
            one, lane, shift = m["one"][0], m["lane"][0], m["shift"][0]
            facts = tree.lanes.facts(shift)
            if int_value(text(lane)) is not None or not facts.is_lane(lane) or in_bitset_idiom(shift):
                continue
            wide = "1ULL" if text(one).endswith("U") else "1ull"
            shown = " ".join(text(shift).split())
            yield self.finding(ctx, base + shift.start_byte, base + shift.end_byte,
                               f"'{shown}' builds a lane mask in 32 bits: it is undefined for lanes 32-63 of a "
                               f"64-lane AMD wavefront; use {wide}",
                               edits=[Edit(base + one.start_byte, base + one.end_byte, wide)], title=f"Use {wide}",
                               applicability=Applicability.SAFE if with_ballot(shift, facts)
                               else Applicability.UNSAFE)


def _signed(kind) -> bool:
    """Whether a declared integer type is signed (`int`, `int32_t`, `long`), not `unsigned`/`uint32_t`."""
    words = " ".join(text(kind).split()).removeprefix("std::")
    return not words.startswith(("unsigned", "uint", "size_t"))


def with_ballot(node, facts) -> bool:
    """Is the mask expression `node` combined (through &, |, ^, -, ~ and parentheses) with a ballot result?"""
    child, parent = node, node.parent
    while parent is not None and parent.type in ("binary_expression", "parenthesized_expression",
                                                 "unary_expression"):
        if parent.type == "binary_expression":
            op = text(parent.child_by_field_name("operator"))
            if op in ("&", "|", "^"):
                other = parent.child_by_field_name("right" if parent.child_by_field_name("left") == child else "left")
                if facts.is_mask(other):
                    return True
            elif op not in ("-", "+"):
                return False
        child, parent = parent, parent.parent
    return False
