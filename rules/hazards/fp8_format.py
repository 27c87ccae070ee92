"""NVIDIA's 8-bit floats become AMD's FNUZ variants: the same name, other numbers.

CUDA's `__nv_fp8_e4m3` and `__nv_fp8_e5m2` (and their x2/x4 vectors) are the OCP formats. The packs map them to
HIP's `__hip_fp8_e4m3_fnuz` / `__hip_fp8_e5m2_fnuz`, as hipify-perl 7 does, because those are the formats MI300
(gfx940-gfx942) computes in: HIP 6.4's amd_hip_fp8.h defines only the FNUZ types when compiling for those
targets (only the OCP ones for gfx12). FNUZ formats have one more exponent bias step, no negative zero, no
infinity and a single NaN (0x80): E4M3 tops out at 240 instead of 448, and E5M2 reaches one binade lower at the
small end. Code whose scale factors or saturation assume the OCP range gives other results; the build says
nothing. Reported once per file, at the first use; not fixed: which scale to use is a numerical decision.

The family follows the targets (migrate/cpp/fp8.py): with no MI300 target (gfx940-gfx942) and HIP 6.4 or later, the
OCP types are written, the same formats as CUDA's, and nothing is reported; targets that need both families (an
MI300 one and gfx1200/gfx1201, where HIP has only OCP) get an error: no one type builds for both.
"""
from migrate.cpp import fp8
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

OCP_TYPES = {"__nv_fp8_e4m3", "__nv_fp8_e5m2", "__nv_fp8x2_e4m3", "__nv_fp8x2_e5m2", "__nv_fp8x4_e4m3",
             "__nv_fp8x4_e5m2"}
FNUZ_TYPES = {"__hip_fp8_e4m3_fnuz", "__hip_fp8_e5m2_fnuz", "__hip_fp8x2_e4m3_fnuz", "__hip_fp8x2_e5m2_fnuz",
              "__hip_fp8x4_e4m3_fnuz", "__hip_fp8x4_e5m2_fnuz"}
MESSAGE = ("fp8 on AMD: CUDA's OCP E4M3/E5M2 become HIP's FNUZ formats (what MI300 computes in): E4M3's largest "
           "value is 240, not 448, there is no negative zero or infinity and 0x80 is the only NaN; check the scale "
           "factors and saturation that assume NVIDIA's range (built without MI300 targets, for gfx950 or RDNA, "
           "HIP 6.4 keeps CUDA's OCP formats)")


class Fp8Format(HazardRule):
    code = "HAZ019"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("__device__ float f(__hip_fp8_e4m3_fnuz x) { return float(x) * 448.0f; }", line=1, message=MESSAGE),
        Invalid("void g();\n__global__ void k(__hip_fp8x2_e5m2_fnuz* out, __hip_fp8_e5m2_fnuz* in) {}\n", line=2),
        Valid("__device__ float f(__nv_fp8_e4m3 x) { return float(x) * 448.0f; }",
              options=(("hip_version", "6.4"), ("offload_arch", ("gfx950", "gfx1100")))),  # OCP there
        Invalid("__device__ float f(__hip_fp8_e4m3_fnuz x) { return float(x); }",
                options=(("hip_version", "6.4"), ("offload_arch", ("gfx942", "gfx1201"))),
                message="fp8 for gfx942 and gfx1201: HIP has only the FNUZ formats for gfx942 and only the OCP ones "
                        "for gfx1201, so no one fp8 type builds for both; build them separately (--offload-arch)"),
        Valid("__device__ float f(__half x) { return __half2float(x); }"),
        Valid('// __nv_fp8_e4m3 is not used here\nconst char* s = "__nv_fp8_e4m3";'),
    ]

    def check(self, ctx):
        if b"fp8" not in ctx.data:
            return
        both = fp8.conflicting(ctx)
        if both is None and fp8.ocp(ctx) and not any(t.name in FNUZ_TYPES for t in ctx.code_tokens()):
            return  # the OCP types are written: CUDA's own formats
        for token in ctx.code_tokens():
            if token.name in OCP_TYPES or token.name in FNUZ_TYPES:
                if both is not None:
                    yield self.finding(ctx, token.start, token.end, f"fp8 for {both[0]} and {both[1]}: HIP has only "
                                       f"the FNUZ formats for {both[0]} and only the OCP ones for {both[1]}, so no one "
                                       "fp8 type builds for both; build them separately (--offload-arch)",
                                       severity=Severity.ERROR)
                    return
                yield self.finding(ctx, token.start, token.end, MESSAGE)
                return
