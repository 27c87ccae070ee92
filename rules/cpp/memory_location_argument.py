"""CUDA 13's `cudaMemPrefetchAsync` and `cudaMemAdvise` with a `cudaMemLocation`: HIP's location forms are the `_v2` calls.

CUDA 13 changed `cudaMemPrefetchAsync(p, n, device, stream)` to `cudaMemPrefetchAsync(p, n, location, flags[,
stream])` and `cudaMemAdvise(p, n, advice, device)` to `cudaMemAdvise(p, n, advice, location)`, a `cudaMemLocation`
(type and id) where CUDA 12 took a device number. HIP's `hipMemPrefetchAsync` and `hipMemAdvise` keep the device
number; the location forms are `hipMemPrefetchAsync_v2` (flags, which must be 0, then the stream) and
`hipMemAdvise_v2`, declared by HIP 7.2's headers and not by 6.4's. A call that passes a location (five arguments to
the prefetch, a braced or `...MemLocation...` argument, or a variable the file declares as a `cudaMemLocation`) gets
the `_v2` name for HIP 7.2 and later, and is reported for an older target: pass the location's device number
(`hipCpuDeviceId` for the host) to the old form. A call with a device number keeps the old name.
"""
from migrate.cpp.calls import arguments, call_of
from migrate.cpp.mem_location import CALLS, SINCE, location_form
from migrate.cpp.spelling import hip_spelling
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

NEW = (("hip_version", "7.2"),)
OLD = (("hip_version", "6.4"),)
PREFETCH = ("void f(float* p, size_t n, int dev, cudaStream_t s) {\n"
            "    cudaMemLocation loc = {cudaMemLocationTypeDevice, dev};\n"
            "    cudaMemPrefetchAsync(p, n, loc, 0, s);\n    cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, loc);\n}\n")


class MemoryLocationArgument(CppRule):
    code = "CPP054"
    severity = Severity.INFO
    examples = [
        Invalid(PREFETCH, options=NEW, line=3,
                fixed=("void f(float* p, size_t n, int dev, hipStream_t s) {\n"
                       "    hipMemLocation loc = {hipMemLocationTypeDevice, dev};\n"
                       "    hipMemPrefetchAsync_v2(p, n, loc, 0, s);\n"
                       "    hipMemAdvise_v2(p, n, hipMemAdviseSetReadMostly, loc);\n}\n"),
                message="cudaMemPrefetchAsync with a memory location is CUDA 13's form: HIP's is hipMemPrefetchAsync_v2"),
        # four arguments to the prefetch: the location is told by its declaration, or by its spelling
        Invalid("void f(float* p, size_t n, cudaMemLocation where) { cudaMemPrefetchAsync(p, n, where, 0); }",
                fixed="void f(float* p, size_t n, hipMemLocation where) { hipMemPrefetchAsync_v2(p, n, where, 0); }",
                options=NEW),
        Invalid("void f(int* p) { cudaMemAdvise(p, 4, cudaMemAdviseSetAccessedBy, {cudaMemLocationTypeHost, 0}); }",
                fixed="void f(int* p) { hipMemAdvise_v2(p, 4, hipMemAdviseSetAccessedBy, {hipMemLocationTypeHost, 0}); }",
                options=NEW),
        # before 7.2: reported
        Invalid(PREFETCH, options=OLD, line=3, fixed=PREFETCH.replace("cuda", "hip"),
                message="cudaMemPrefetchAsync with a memory location is CUDA 13's form: HIP 6.4 has only "
                        "hipMemPrefetchAsync with a device number (hipCpuDeviceId for the host), and "
                        "hipMemPrefetchAsync_v2 from HIP 7.2"),
        # CUDA 12's device numbers
        Valid("void f(float* p, size_t n, int dev, cudaStream_t s) { cudaMemPrefetchAsync(p, n, dev, s); "
              "cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, cudaCpuDeviceId); }", options=NEW),
    ]

    def check(self, ctx):
        for token in ctx.code_tokens():
            if token.name not in CALLS:
                continue
            call = call_of(token)
            if call is None or not location_form(ctx, token.name, arguments(call)):
                continue
            hip = hip_spelling(token.name)
            start, end = token.base + call.start_byte, token.base + call.end_byte
            said = f"{token.name} with a memory location is CUDA 13's form"
            if ctx.target_tuple >= SINCE:
                yield self.finding(ctx, start, end, f"{said}: HIP's is {hip}_v2", edits=[Edit(token.end, token.end, "_v2")],
                                   title=f"Call {hip}_v2")
            else:
                release = ".".join(map(str, ctx.target_tuple))
                yield self.finding(ctx, start, end, f"{said}: HIP {release} has only {hip} with a device number "
                                   f"(hipCpuDeviceId for the host), and {hip}_v2 from HIP {SINCE[0]}.{SINCE[1]}",
                                   severity=Severity.ERROR)
