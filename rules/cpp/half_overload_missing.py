"""An atomic or a warp shuffle on 16-bit float values that the target HIP has no overload for.

CUDA overloads `atomicAdd` for `__half*`, `__half2*` (cuda_fp16.h), `__nv_bfloat16*` and `__nv_bfloat162*`
(cuda_bf16.h), and the warp shuffles for `__half` and `__half2`. No HIP release inspected (5.2 to 7.2) has
`atomicAdd` for any of them: HIP 6.4 and 7.2 have `unsafeAtomicAdd` (hardware packed atomics, which do not work on
fine-grained memory). The fix (safe) calls `hipmigrate_atomic_add`, a compare-and-swap on the 32-bit word that holds
the value, which works on every memory as CUDA's does (migrate/cpp/atomic_add_16.py writes it once per file, before
the first call; llm.c's `atomicAddX` helpers need it). HIP 5.2 has no `__half` shuffles (5.7 adds `__shfl`, `__shfl_up`,
`__shfl_down` and `__shfl_xor` for both types), so `__shfl_down(h, 16)` is ambiguous there: shuffle the bits,
`__ushort_as_half((unsigned short)__shfl_down((int)__half_as_ushort(h), 16))`: reported. The value or pointer is one
the file declares with a 16-bit float type (found in how-to-optim-algorithm-in-cuda's atomic and gemv kernels).
"""
import re

from migrate.cpp import atomic_add_16, platform, typed
from migrate.cpp.calls import arguments, call_of
from migrate.edits import decoded, line_start
from migrate.model import Edit, Severity
from migrate.packs import version_tuple
from migrate.rule import CppRule, Invalid, Valid

HALF_TYPES = frozenset({b"__half", b"half", b"__half2", b"half2"})
BF16_TYPES = frozenset({b"__nv_bfloat16", b"nv_bfloat16", b"__nv_bfloat162", b"nv_bfloat162", b"__hip_bfloat16",
                        b"__hip_bfloat162"})
HALF_TYPE = re.compile(rb"(?<![\w$])(?:__half2?|half2?|(?:__)?nv_bfloat162?|__hip_bfloat162?)(?![\w$])")
# names written right after a half type (`__half* out`, `const half2 v`): the cheap test before the tree's
HALF_DECLARED = re.compile(rb"(?:half|(?:__)?nv_bfloat16|__hip_bfloat16)2?(?![\w$])[\s*&]*(?:const\b[\s*&]*)?(?:__restrict__[\s*&]*)?"
                           rb"([A-Za-z_]\w*)")
SHUFFLES = {"__shfl": 0, "__shfl_up": 0, "__shfl_down": 0, "__shfl_xor": 0,
            "__shfl_sync": 1, "__shfl_up_sync": 1, "__shfl_down_sync": 1, "__shfl_xor_sync": 1}
SHUFFLE_SINCE = "5.7"
IDENT = re.compile(rb"[A-Za-z_]\w*")
# (the character before a match is checked: a pattern that starts with a literal is found much faster)
CALLS = re.compile(rb"(atomicAdd|__shfl(?:_up|_down|_xor)?(?:_sync)?)\s*\(")
ATOMIC = re.compile(rb"(atomicAdd)\s*\(")
ATOMIC_MESSAGE = ("atomicAdd on {type}: HIP has none (unsafeAtomicAdd only, which does not work on fine-grained "
                  "memory); hipmigrate_atomic_add, a compare-and-swap on the 32-bit word, takes its place")
OLD = (("hip_version", "5.2"),)
NEW = (("hip_version", "5.7"),)


class HalfOverloadMissing(CppRule):
    code = "CPP018"
    severity = Severity.ERROR
    feeds_other_rules = True  # its helper is device code, which CPP002 gives the runtime include
    examples = [
        Invalid("__global__ void k(__half* out, __half v) { atomicAdd(&out[threadIdx.x % 4], v); }", line=1,
                message=ATOMIC_MESSAGE.format(type="__half"), options=NEW,
                fixed=atomic_add_16.block() + "\n__global__ void k(__half* out, __half v) { hipmigrate_atomic_add("
                "&out[threadIdx.x % 4], v); }"),
        Invalid("#include <cuda_bf16.h>\n#ifdef BF16\n__device__ void add(__nv_bfloat16* a, __nv_bfloat16 v) {\n"
                "  __nv_bfloat162* p = reinterpret_cast<__nv_bfloat162*>(a);\n"
                "  atomicAdd(p, __halves2bfloat162(v, v));\n}\n#endif\n",
                fixed="#include <cuda_bf16.h>\n" + atomic_add_16.block() + "\n#ifdef BF16\n__device__ void "
                "add(__hip_bfloat16* a, __hip_bfloat16 v) {\n  __hip_bfloat162* p = reinterpret_cast<__hip_bfloat162*>(a);"
                "\n  hipmigrate_atomic_add(p, __halves2bfloat162(v, v));\n}\n#endif\n", line=5),
        Invalid("__global__ void k(half2* out, half2 v) { atomicAdd(out + 1, v); atomicAdd(out, v); }", options=NEW,
                fixed=atomic_add_16.block() + "\n__global__ void k(half2* out, half2 v) { hipmigrate_atomic_add(out + 1, "
                "v); hipmigrate_atomic_add(out, v); }"),
        Invalid("__global__ void k(void* p, __half v) { atomicAdd(reinterpret_cast<__half*>(p) + 2, v); }", options=NEW,
                fixed=atomic_add_16.block() + "\n__global__ void k(void* p, __half v) { hipmigrate_atomic_add("
                "reinterpret_cast<__half*>(p) + 2, v); }"),
        Invalid("__device__ __half sum(__half h) {\n  for (int d = 16; d > 0; d /= 2) h += __shfl_down(h, d);\n"
                "  return h;\n}\n", line=2, options=OLD,
                message="__shfl_down on __half: HIP before 5.7 (target 5.2) has no __half shuffles; shuffle the "
                        "bits: __ushort_as_half((unsigned short)__shfl_down((int)__half_as_ushort(h), ...))"),
        Valid("__device__ __half sum(__half h) { return h + __shfl_down(h, 16); }", options=NEW),
        Valid("__global__ void k(float* out, float v) { atomicAdd(out, v); }", options=NEW),
        Valid("__device__ __half atomicAdd(__half* address, __half val);\n#define ADD() atomicAdd()\n", options=NEW),
        Valid("__device__ float sum(float h) { return h + __shfl_down(h, 16); }", options=OLD),
    ]

    def check(self, ctx):
        old_shuffles = ctx.target_tuple < version_tuple(SHUFFLE_SINCE)
        if b"atomicAdd" not in ctx.data and (not old_shuffles or b"__shfl" not in ctx.data):
            return
        if not HALF_TYPE.search(ctx.data):
            return
        names = written = place = None
        skipped = platform.skipped(ctx)
        for m, token in ctx.code_matches(CALLS if old_shuffles else ATOMIC):
            if platform.inside(skipped, token.start):
                continue  # the CUDA side of a ROCm gate: a HIP build never compiles it
            name = token.name
            if m.start() and (ctx.data[m.start() - 1:m.start()].isalnum() or ctx.data[m.start() - 1] in b"_$"):
                continue
            call = call_of(token)
            args = arguments(call) if call is not None else []
            if len(args) < 2:  # a declaration (PyTorch declares its own atomicAdd overloads), or another call
                continue
            value = args[0] if name == "atomicAdd" else args[SHUFFLES[name]]
            written = written if written is not None else _written_after_half(ctx.data)
            if not set(IDENT.findall(value.text)) & written and not HALF_TYPE.search(value.text):  # (half2*)p
                continue
            names = names if names is not None else typed.declared(ctx, HALF_TYPES | BF16_TYPES)
            start, end = token.base + call.start_byte, token.base + call.end_byte
            if token.name == "atomicAdd":
                kind = typed.pointee_type(args[0], names)
                if kind in HALF_TYPES or kind in BF16_TYPES:
                    message = ATOMIC_MESSAGE.format(type=decoded(kind))
                    if token.base:  # in a macro body: reported, the call is the macro's user's
                        yield self.finding(ctx, start, end, message)
                        continue
                    place = place if place is not None else _file_scope_start(ctx, call)
                    edits = [Edit(place, place, atomic_add_16.block(ctx.newline) + ctx.newline),
                             Edit(token.start, token.end, atomic_add_16.NAME)]
                    yield self.finding(ctx, start, end, message, edits=edits,
                                       title=f"Add with a compare-and-swap ({atomic_add_16.NAME})")
                continue
            kind = typed.value_type(value, names)
            if kind in HALF_TYPES:
                plain = token.name.removesuffix("_sync")
                yield self.finding(ctx, start, end, f"{token.name} on {decoded(kind)}: HIP before {SHUFFLE_SINCE} "
                                   f"(target {ctx.target}) has no __half shuffles; shuffle the bits: "
                                   f"__ushort_as_half((unsigned short){plain}((int)__half_as_ushort("
                                   f"{value.text.decode('utf-8', 'replace')}), ...))")


def _file_scope_start(ctx, node) -> int:
    """The start of the line where the file-scope construct holding `node` begins (a `#if` around it included)."""
    while node.parent is not None and node.parent.type != "translation_unit":
        node = node.parent
    return line_start(ctx.data, node.start_byte)


def _written_after_half(data: bytes) -> set[bytes]:
    """The names written right after `__half`, `half`, `__half2` or `half2` (the pattern starts with its literal
    "half", which the regex engine finds fast; what comes before it is checked here)."""
    out = set()
    for m in HALF_DECLARED.finditer(data):
        before = data[max(0, m.start() - 2):m.start()]
        if before == b"__" or not before or not (before[-1:].isalnum() or before[-1:] in (b"_", b"$")):
            out.add(m.group(1))
    return out
