"""Inline PTX of one instruction that a HIP function computes exactly: written as the call.

hipcc cannot assemble PTX (HAZ005). Many `asm` statements in real code wrap one instruction that CUDA's headers did
not expose, and HIP has a function for most of them: the statement becomes an assignment of the call to the
output operand, or the call alone.
- `vabsdiff4.u32.u32.u32.add` (the sum of four byte-wise absolute differences, plus c, as cuda-samples' `__usad4`
  writes it) -> `__builtin_amdgcn_sad_u8` (AMD's `v_sad_u8`, the same sum);
- `prmt.b32` -> `__byte_perm`; `mul.hi.u32`/`s32`/`u64`/`s64` -> `__umulhi`, `__mulhi`, `__umul64hi`, `__mul64hi`;
  `brev`, `popc`, `clz` (`.b32`, `.b64`) -> `__brev`, `__popc`, `__clz` and their `ll` forms; `shf.l`/`shf.r` with
  `.wrap` or `.clamp` -> `__funnelshift_l`, `_r`, `_lc`, `_rc`;
- `red.global.add.u64 [p], v` and the other `red` and `atom` forms of add, exch, min and max (u32, s32, u64; add
  also f32 and f64) -> `atomicAdd` and its kin on the address (`atom` returns the old value);
- `ld.global.nc.<t>` -> `__ldg`; `membar.gl`/`.cta`/`.sys` and `fence.sc` -> `__threadfence()`,
  `__threadfence_block()`, `__threadfence_system()`; `bar.sync 0` -> `__syncthreads()`.
Anything else (several instructions, read-write operands, other registers or opcodes, asm in a `#define` body) stays
HAZ005's.
"""
from migrate.cpp import parse
from migrate.cpp.ptx_exact import rewrite
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

QUERY = parse.query("(gnu_asm_expression) @asm")
SAD = ('__device__ unsigned int usad4(unsigned int a, unsigned int b, unsigned int c) {\n'
       '    unsigned int result;\n'
       '    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(result) : "r"(a), "r"(b), "r"(c));\n'
       '    return result;\n}\n')
RED = ('__global__ void count(long long* bad_n, long long bad) {\n'
       '    asm volatile("red.global.add.u64 [%0],%1;" :: "l"(bad_n), "l"(bad) : "memory");\n}\n')


class PtxExact(CppRule):
    code = "CPP070"
    examples = [
        Invalid(SAD, line=3, fixed=SAD.replace(
            'asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(result) : "r"(a), "r"(b), "r"(c));',
            "result = __builtin_amdgcn_sad_u8((a), (b), (c));"),
                message="inline PTX does not compile for AMD GPUs: vabsdiff4.u32.u32.u32.add is "
                        "__builtin_amdgcn_sad_u8"),
        Invalid(RED, line=2, fixed=RED.replace(
            'asm volatile("red.global.add.u64 [%0],%1;" :: "l"(bad_n), "l"(bad) : "memory");',
            "atomicAdd(reinterpret_cast<unsigned long long*>(bad_n), static_cast<unsigned long long>(bad));"),
                message="inline PTX does not compile for AMD GPUs: red.global.add.u64 is atomicAdd"),
        Invalid('__device__ void f() { asm volatile("membar.gl;" ::: "memory"); }\n',
                fixed="__device__ void f() { __threadfence(); }\n",
                message="inline PTX does not compile for AMD GPUs: membar.gl is __threadfence"),
        # more than one instruction, a read-write operand, an opcode without an exact counterpart: HAZ005's
        Valid('__device__ void f(unsigned* p) { asm volatile("membar.gl;\\n\\tmembar.cta;" ::: "memory"); }\n'),
        Valid('__device__ unsigned f(unsigned x) { asm("brev.b32 %0, %0;" : "+r"(x)); return x; }\n'),
        Valid('__device__ unsigned f(unsigned x) { unsigned r; asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x)); '
              'return r; }\n'),
        Valid('void host_pause() { asm volatile("pause" ::: "memory"); }'),
    ]

    def check(self, ctx):
        if b"asm" not in ctx.data:
            return
        for node in parse.captures(QUERY, ctx.tree.root_node).get("asm", []):
            statement = node.parent
            if statement is None or statement.type != "expression_statement":
                continue
            found = rewrite(node)
            if found is None:
                continue
            yield self.finding(ctx, statement.start_byte, statement.end_byte,
                               f"inline PTX does not compile for AMD GPUs: {found.opcode} is {found.function}",
                               edits=[Edit(statement.start_byte, statement.end_byte, found.text + ";")],
                               title=f"Use {found.function}")
