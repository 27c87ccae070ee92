"""A 32-bit lane mask handed to a warp-synchronous function that HIP gives a 64-bit mask.

AMD wavefronts on CDNA have 64 lanes, and HIP's `__shfl_*_sync`, `__ballot_sync`, `__any_sync`,
`__all_sync`, `__match_*_sync` and `__syncwarp` take a 64-bit mask (a static_assert rejects anything
narrower). CUDA's full mask `0xffffffff` becomes the full 64-lane mask `0xffffffffffffffffull`; any other
mask is flagged, because which of 64 lanes it should name is a decision for the author.
When the target HIP is older than these functions, rule CPP005 uses the mask-free older forms instead.
"""
import re

from migrate.cpp.calls import arguments, call_of
from migrate.model import Edit, RuleKind, Severity
from migrate.rule import CppRule, Invalid, Valid

SYNC = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync",
        "__all_sync", "__match_any_sync", "__match_all_sync", "__syncwarp"}
FULL32 = re.compile(r"^(?:0[xX][fF]{8}[uU]?|~0[uU]?|-1|0[xX][fF]{8}[uU]?[lL]?)$")
WIDE = re.compile(r"(?:[uU][lL][lL]|[lL][lL][uU]|ull|ULL)$|uint64_t|unsigned long long|__activemask|lanemask|~0ull|^0[xX][fF]{16}")
NEW = (("hip_version", "7.0"),)
FULL64 = "0xffffffffffffffffull"


class LaneMask32(CppRule):
    code = "HAZ002"
    kind = RuleKind.HAZARD
    severity = Severity.WARNING
    examples = [
        Invalid("__device__ float f(float v) { return __shfl_down_sync(0xffffffff, v, 16); }",
                fixed="__device__ float f(float v) { return __shfl_down_sync(0xffffffffffffffffull, v, 16); }",
                options=NEW, line=1),
        Invalid("__device__ int g(int p) { return __ballot_sync(0xFFFFFFFFu, p); }",
                fixed="__device__ int g(int p) { return __ballot_sync(0xffffffffffffffffull, p); }", options=NEW),
        Invalid("__device__ int h(int v, unsigned m) { return __shfl_xor_sync(m, v, 1); }",
                message="lane mask 'm' is probably 32 bits wide: HIP wants a 64-bit mask naming up to 64 lanes; "
                        "declare it uint64_t and check which lanes it names", options=NEW),
        Valid("__device__ float f(float v) { return __shfl_down_sync(0xffffffffffffffffull, v, 16); }", options=NEW),
        Valid("__device__ int g(int v, uint64_t m) { return __shfl_xor_sync((uint64_t)m, v, 1); }", options=NEW),
        Valid("__device__ float f(float v) { return __shfl_down(v, 16); }", options=NEW),
    ]

    def check(self, ctx):
        names = ctx.packs.names
        for token in ctx.code_tokens():
            if token.name not in SYNC:
                continue
            mapping = names.get(token.name)
            if mapping is not None and ctx.too_new(mapping):
                continue  # CPP005 drops the mask for the older form
            call = call_of(token)
            args = arguments(call) if call is not None else []
            if not args:
                continue
            mask = args[0]
            text = mask.text.decode("utf-8", "replace").strip()
            start, end = token.base + mask.start_byte, token.base + mask.end_byte
            if FULL32.match(text):
                yield self.finding(ctx, start, end, f"full 32-lane mask '{text}' in {token.name}: HIP needs the "
                                   "64-bit full mask", edits=[Edit(start, end, FULL64)], title=f"Use {FULL64}")
            elif not WIDE.search(text):
                yield self.finding(ctx, start, end, f"lane mask '{text}' is probably 32 bits wide: HIP wants a 64-bit "
                                   "mask naming up to 64 lanes; declare it uint64_t and check which lanes it names")
