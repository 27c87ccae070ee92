"""Inline PTX assembly (`asm(...)`, `asm volatile(...)`, `__asm__`) in device code.

PTX is NVIDIA's virtual ISA: hipcc compiles for AMD GCN/CDNA and cannot assemble it, so every such
statement fails to build (or, guarded out, silently loses its effect). The finding lists the PTX
opcodes and special registers the string uses and, where HIP has one, the builtin to use instead
(`%laneid` → `__lane_id()`, `ld.global.nc` → `__ldg()`, `%globaltimer` → `wall_clock64()` (ticks of the wall clock, not nanoseconds),
`mma.sync`/`wmma` → rocWMMA; `cp.async` has no counterpart). The table lives in `migrate/cpp/ptx.py`.

Only the exact lane-id idiom `asm("mov.u32 %0, %%laneid;" : "=r"(x));` is fixed here, to
`x = __lane_id();`: UNSAFE, because `x` may be meant as a 0..31 lane (CDNA lanes go to 63). A statement of one
instruction that a HIP function computes exactly (`vabsdiff4`, `prmt`, `red.global.add`, `membar.gl`, ...) is CPP070's.
asm in a host function, or in a `#define` body, is left alone unless its text is recognisably PTX.
`hipmigrate scan` lists every site found here with its instructions and their HIP counterparts.
"""
import re

from migrate.cpp import parse, ptx
from migrate.cpp.macro_bodies import trees
from migrate.cpp.ptx import asm_text, describe
from migrate.cpp.ptx_exact import rewrite
from migrate.edits import decoded
from migrate.model import Applicability, Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

QUERY = parse.query("(gnu_asm_expression) @asm")
LANE_ID = re.compile(r"\s*mov\.u32\s+%0\s*,\s*%%laneid\s*;?\s*")
UNSAFE = (("unsafe_fixes", True),)
ASM = re.compile(rb"\basm\b|__asm__|__asm\b")


class InlinePtx(HazardRule):
    code = "HAZ005"
    severity = Severity.ERROR
    applicability = Applicability.UNSAFE
    examples = [
        Invalid('__device__ unsigned lane() { unsigned x; asm("mov.u32 %0, %%laneid;" : "=r"(x)); return x; }',
                fixed="__device__ unsigned lane() { unsigned x; x = __lane_id(); return x; }", options=UNSAFE, line=1,
                message="inline PTX does not compile for AMD GPUs: it uses mov.u32, %laneid (%laneid → __lane_id())"),
        Invalid('__device__ float2 ld(const float2* p) {\n  float2 v;\n'
                '  asm volatile("ld.global.nc.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "l"(p));\n  return v;\n}',
                line=3, message="inline PTX does not compile for AMD GPUs: it uses ld.global.nc.v2.f32 "
                                "(ld.global.nc.v2.f32 → __ldg())"),
        Invalid('__global__ void k(int* s) {\n  __asm__ __volatile__("cp.async.ca.shared.global [%0], [%1], 16;"\n'
                '      :: "r"(s[0]), "l"(s));\n}',
                message="inline PTX does not compile for AMD GPUs: it uses cp.async.ca.shared.global "
                        "(cp.async.ca.shared.global has no HIP counterpart)"),
        Invalid('__device__ long long t() { long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g)); '
                'return g; }',
                message="inline PTX does not compile for AMD GPUs: it uses mov.u64, %globaltimer "
                        "(%globaltimer → wall_clock64(), ticks: ns = ticks * 1e6 / hipDeviceAttributeWallClockRate)"),
        Invalid('#define LANE_ID(r) asm volatile("mov.u32 %0, %%laneid;" : "=r"(r))\n', line=1,
                message="inline PTX does not compile for AMD GPUs: it uses mov.u32, %laneid (%laneid → __lane_id())"),
        Valid("__device__ unsigned lane() { return __lane_id(); }"),
        Valid('#define PAUSE() asm volatile("pause" ::: "memory")\n'),
        Valid('void host_pause() { asm volatile("pause" ::: "memory"); }'),
        Valid('const char* s = "asm(\\"mov.u32 %0, %%laneid;\\")";'),
    ]

    def check(self, ctx):
        if b"asm" not in ctx.data:
            return
        for tree in trees(ctx, ASM):
            base = tree.base
            for node in parse.captures(QUERY, tree.root).get("asm", []):
                code = node.child_by_field_name("assembly_code")
                text = asm_text(code) if code is not None else ""
                if not parse.in_device_function(node) and not ptx.looks_like_ptx(text):
                    continue
                statement = node.parent if node.parent is not None and node.parent.type == "expression_statement" \
                    else node
                if base == 0 and statement is not node and rewrite(node) is not None:
                    continue  # one instruction a HIP function computes: CPP070 writes it
                edits = self._lane_id_fix(node, statement, text, base)
                items = ptx.instructions(text)
                yield self.finding(ctx, base + statement.start_byte, base + statement.end_byte, describe(items),
                                   edits=edits, title="Use __lane_id()", detail=tuple(items))

    @staticmethod
    def _lane_id_fix(node, statement, text, base):
        if statement is node or not LANE_ID.fullmatch(text):
            return []
        outputs = node.child_by_field_name("output_operands")
        if outputs is None or any(node.child_by_field_name(f) is not None
                                  for f in ("input_operands", "clobbers", "goto_labels")):
            return []
        operands = [c for c in outputs.named_children if c.type == "gnu_asm_output_operand"]
        if len(operands) != 1:
            return []
        constraint = operands[0].child_by_field_name("constraint")
        target = operands[0].child_by_field_name("value")
        if constraint is None or target is None or asm_text(constraint) != "=r":
            return []
        return [Edit(base + statement.start_byte, base + statement.end_byte, f"{decoded(target.text)} = __lane_id();")]

