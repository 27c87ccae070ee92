"""`__activemask()` and `__syncwarp()` migrated for a HIP older than 7.0.

No HIP before 7.0 declares `__syncwarp`, and HIP 6.2-6.4 declare `__activemask` only when the build defines
HIP_ENABLE_WARP_SYNC_BUILTINS (with the other *_sync functions, which need 64-bit masks there). hipmigrate migrates
for those releases without that define: the *_sync shuffles and votes become the mask-less forms that every HIP
has (rule CPP005), and these two calls become what HIP itself defines them as:

- `__activemask()` -> `__ballot(1)`: a 64-bit mask of the active lanes (HAZ003 reports a 32-bit variable that keeps
  it);
- `__syncwarp()` and `__syncwarp(mask)` -> a wavefront-scope release fence, `__builtin_amdgcn_wave_barrier()` and
  an acquire fence, HIP 7's definition for AMD GPUs, whose wavefront lanes run in lockstep. A mask other than the
  full one is dropped with a warning: every active lane takes part, as with the mask-less shuffles. HAZ004 still
  reports code that relies on independent thread scheduling around it.

From HIP 7.0 on the calls are kept.
"""
from migrate.cpp import warp_sync
from migrate.cpp.warp_sync import FULL_MASK
from migrate.cpp.calls import arguments, call_of
from migrate.cpp.parse import Context
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

OLD = (("hip_version", "6.4"),)


class WarpSyncCallBeforeHip7(CppRule):
    code = "CPP020"
    examples = [
        Invalid("__device__ unsigned long long active() { return __activemask(); }",
                fixed="__device__ unsigned long long active() { return __ballot(1); }", options=OLD,
                message="__activemask needs HIP 7.0 (target 6.4; HIP 6.2-6.4 declare it only with "
                        "-DHIP_ENABLE_WARP_SYNC_BUILTINS): __ballot(1) is the same mask"),
        Invalid("__global__ void k(int* s) { s[threadIdx.x] = 1; __syncwarp(); s[0] += s[threadIdx.x ^ 1]; }",
                fixed='__global__ void k(int* s) { s[threadIdx.x] = 1; __builtin_amdgcn_fence(__ATOMIC_RELEASE, '
                      '"wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, '
                      '"wavefront"); s[0] += s[threadIdx.x ^ 1]; }',
                options=(("hip_version", "5.2"),)),
        Invalid("__device__ void sync_half(unsigned m) { __syncwarp(m); }",
                fixed='__device__ void sync_half(unsigned m) { __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), '
                      '__builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"); }',
                options=OLD, message="__syncwarp needs HIP 7.0 (target 6.4): the wavefront-scope fences and wave "
                                     "barrier HIP 7 defines it with are used; mask 'm' dropped, so every active lane "
                                     "takes part; check that the mask was full"),
        Invalid("#define WARP_SYNC() __syncwarp(0xffffffff)\n",
                fixed='#define WARP_SYNC() __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), '
                      '__builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront")\n',
                options=OLD),
        Valid("__device__ void f() { __syncwarp(); unsigned long long m = __activemask(); }",
              options=(("hip_version", "7.0"),)),
        Valid("__device__ unsigned long long f() { return __ballot(1); }", options=OLD),
        Valid("void __syncwarp_emulation();\n// __syncwarp() in a comment\n", options=OLD),
        Valid("int k();\n__syncwarp();\n", options=OLD),  # outside a function: not code a build compiles
    ]

    def check(self, ctx):
        if ctx.target_tuple >= warp_sync.SINCE or not (b"__activemask" in ctx.data or b"__syncwarp" in ctx.data):
            return
        for token in ctx.code_tokens():
            if token.name not in warp_sync.REWRITTEN:
                continue
            call = call_of(token)
            if call is None or (token.context is not Context.MACRO and not _in_function(call)):
                continue  # a call outside any function body is not code a build compiles
            args = arguments(call)
            start, end = token.base + call.start_byte, token.base + call.end_byte
            if token.name == "__activemask":
                yield self.finding(ctx, token.start, token.end,
                                   f"__activemask needs HIP 7.0 (target {ctx.target}; HIP 6.2-6.4 declare it only "
                                   "with -DHIP_ENABLE_WARP_SYNC_BUILTINS): __ballot(1) is the same mask",
                                   edits=[Edit(start, end, warp_sync.ACTIVEMASK)], title="Use __ballot(1)")
                continue
            message = (f"__syncwarp needs HIP 7.0 (target {ctx.target}): the wavefront-scope fences and wave barrier "
                       "HIP 7 defines it with are used")
            severity = Severity.INFO
            mask = args[0].text.decode("utf-8", "surrogateescape") if args else ""
            if mask and not FULL_MASK.match(mask):
                message += f"; mask '{mask}' dropped, so every active lane takes part; check that the mask was full"
                severity = Severity.WARNING
            yield self.finding(ctx, token.start, token.end, message, severity=severity,
                               edits=[Edit(start, end, warp_sync.SYNCWARP)], title="Use HIP 7's __syncwarp body")


def _in_function(node) -> bool:
    while node is not None:
        if node.type == "compound_statement":
            return True
        node = node.parent
    return False
