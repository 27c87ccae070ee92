"""Code that relies on Volta-style independent thread scheduling within a warp.

AMD wavefronts execute in lockstep: divergent lanes of one wavefront run their paths one after the other
and cannot wait for each other. So `__syncwarp()` orders nothing that lockstep does not already order (code
that needs it to hand data between divergent paths must be restructured: reconverge first, then exchange
through shuffles or shared memory with a barrier); a partial-mask `__syncwarp(mask)` inside divergent code
expects lanes outside the branch to meet it there; and a spin lock taken by several lanes of one wavefront
(a loop on `atomicCAS`/`atomicExch`) never lets the winning lane run on, so the wavefront hangs. Take such a
lock once per wavefront (elect one lane) or use a lock-free update. Found in `#define` bodies too. No
automatic fix.
"""
import re

from migrate.cpp import parse
from migrate.cpp.macro_bodies import trees
from migrate.cpp.nodes import arguments, callee, matches, text
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

MAYBE = re.compile(rb"__syncwarp|atomicCAS|atomicExch")
FULL = re.compile(r"^(?:0[xX][fF]{8}(?:[fF]{8})?[uUlL]*|~0[uUlL]*|-1|__activemask\(\))$")
SYNCWARP = parse.query('((call_expression function: (identifier) @f) @call (#eq? @f "__syncwarp"))')
LOOPS = parse.query("""
(while_statement condition: (_) @cond) @loop
(do_statement condition: (_) @cond) @loop
(for_statement condition: (_) @cond) @loop
""")
LOCKS = parse.query('((call_expression function: (identifier) @f) @call (#match? @f "^(atomicCAS|atomicExch)$"))')
LOCKSTEP = "AMD wavefronts run in lockstep with no independent thread scheduling"
SYNC_MESSAGE = (f"__syncwarp used to order lanes: {LOCKSTEP}, so divergent lanes cannot wait for each other "
                "here; reconverge the branch first and exchange data with shuffles or shared memory and "
                "__syncthreads")
PARTIAL_MESSAGE = (f"partial-mask __syncwarp({{mask}}): {LOCKSTEP}, so a sync of some lanes inside divergent "
                   "code does not meet the lanes outside the branch; restructure so the whole wavefront syncs "
                   "after the branch")
LOCK_MESSAGE = (f"spin lock on {{lock}} inside a warp: {LOCKSTEP}, so lanes of one wavefront that wait on a "
                "lock another of its lanes holds never let it run on and the wavefront hangs; take the lock once "
                "per wavefront (elect one lane) or use a lock-free atomic update")


class IndependentThreadScheduling(HazardRule):
    code = "HAZ004"
    severity = Severity.WARNING
    fixable = False

    examples = [
        Invalid("__global__ void k(int* s) {\n  if (threadIdx.x % 2) s[threadIdx.x] = 1;\n  __syncwarp();\n"
                "  s[0] += s[1];\n}\n", line=3, message=SYNC_MESSAGE),
        Invalid("__global__ void k(int* s, unsigned long long m) {\n  if (threadIdx.x < 8) {\n"
                "    s[threadIdx.x] = 1;\n    __syncwarp(m);\n  }\n}\n",
                line=4, message=PARTIAL_MESSAGE.format(mask="m")),
        Invalid("__device__ int lock;\n__global__ void k(int* x) {\n  while (atomicCAS(&lock, 0, 1) != 0) {}\n"
                "  *x += 1;\n  atomicExch(&lock, 0);\n}\n",
                line=3, message=LOCK_MESSAGE.format(lock="lock")),
        Invalid("__device__ void acquire(int* m) { do {} while (atomicExch(m, 1) == 1); }",
                message=LOCK_MESSAGE.format(lock="m")),
        Invalid("#define WARP_FENCE() __syncwarp()\n", line=1, message=SYNC_MESSAGE),
        Invalid("#define LOCK(m) while (atomicCAS(m, 0, 1) != 0) {}\n", message=LOCK_MESSAGE.format(lock="m")),
        Valid("__global__ void k(int* s) { s[threadIdx.x] = 1; __syncthreads(); }"),
        Valid("#define BARRIER() __syncthreads()\n"),
        Valid("__device__ double add(double* a, double v) {\n"
              "  unsigned long long* p = (unsigned long long*)a; unsigned long long old = *p, assumed;\n"
              "  do { assumed = old; old = atomicCAS(p, assumed, __double_as_longlong(v + "
              "__longlong_as_double(assumed))); } while (assumed != old);\n"
              "  return __longlong_as_double(old);\n}\n"),
    ]

    def check(self, ctx):
        if not MAYBE.search(ctx.data):
            return []
        return sorted(self._findings(ctx), key=lambda f: f.span.start)  # in source order

    def _findings(self, ctx):
        for tree in trees(ctx, MAYBE):
            yield from self._tree(ctx, tree.root, tree.base, tree.data)

    def _tree(self, ctx, root, base, data):
        if b"__syncwarp" in data:
            for call in parse.captures(SYNCWARP, root).get("call", []):
                args = arguments(call)
                mask = " ".join(text(args[0]).split()) if args else ""
                if not mask or FULL.match(mask):
                    yield self.finding(ctx, base + call.start_byte, base + call.end_byte, SYNC_MESSAGE)
                else:
                    yield self.finding(ctx, base + call.start_byte, base + call.end_byte,
                                       PARTIAL_MESSAGE.format(mask=mask))
        if b"atomicCAS" in data or b"atomicExch" in data:
            for _, m in matches(LOOPS, root):
                cond, loop = m["cond"][0], m["loop"][0]
                for call in parse.captures(LOCKS, cond).get("call", []):
                    args = arguments(call)
                    if not args or not lock_like(callee(call), args):
                        continue
                    lock = text(args[0]).lstrip("&").strip()
                    yield self.finding(ctx, base + loop.start_byte, base + cond.end_byte,
                                       LOCK_MESSAGE.format(lock=lock))
                    break


def lock_like(name: str, args) -> bool:
    """A lock acquisition: atomicCAS(lock, <constant>, <constant>) or atomicExch(lock, <constant>)."""
    constants = args[1:]
    if name == "atomicCAS" and len(args) != 3 or name == "atomicExch" and len(args) != 2:
        return False
    return all(a.type in ("number_literal", "true", "false") for a in constants)
