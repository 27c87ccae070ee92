"""NVIDIA's 8-bit floats become AMD's FNUZ variants: the same name, other numbers.

CUDA's `__nv_fp8_e4m3` and `__nv_fp8_e5m2` (and their x2/x4 vectors) are the OCP formats. The packs map them to
HIP's `__hip_fp8_e4m3_fnuz` / `__hip_fp8_e5m2_fnuz`, as hipify-perl 7 does, because those are the formats MI300
(gfx940-gfx942) computes in: HIP 6.4's amd_hip_fp8.h defines only the FNUZ types when compiling for those
targets (only the OCP ones for gfx12). FNUZ formats have one more exponent bias step, no negative zero, no
infinity and a single NaN (0x80): E4M3 tops out at 240 instead of 448, and E5M2 reaches one binade lower at the
small end. Code whose scale factors or saturation assume the OCP range gives other results; the build says
nothing. Reported once per file, at the first use; not fixed: which scale to use is a numerical decision.
"""
from migrate.model import RuleKind, Severity
from migrate.rule import CppRule, Invalid, Valid

OCP_TYPES = {"__nv_fp8_e4m3", "__nv_fp8_e5m2", "__nv_fp8x2_e4m3", "__nv_fp8x2_e5m2", "__nv_fp8x4_e4m3",
             "__nv_fp8x4_e5m2"}
FNUZ_TYPES = {"__hip_fp8_e4m3_fnuz", "__hip_fp8_e5m2_fnuz", "__hip_fp8x2_e4m3_fnuz", "__hip_fp8x2_e5m2_fnuz",
              "__hip_fp8x4_e4m3_fnuz", "__hip_fp8x4_e5m2_fnuz"}
MESSAGE = ("fp8 on AMD: CUDA's OCP E4M3/E5M2 become HIP's FNUZ formats (what MI300 computes in): E4M3's largest "
           "value is 240, not 448, there is no negative zero or infinity and 0x80 is the only NaN; check the scale "
           "factors and saturation that assume NVIDIA's range")


class Fp8Format(CppRule):
    code = "HAZ019"
    kind = RuleKind.HAZARD
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("__device__ float f(__hip_fp8_e4m3_fnuz x) { return float(x) * 448.0f; }", line=1, message=MESSAGE),
        Invalid("void g();\n__global__ void k(__hip_fp8x2_e5m2_fnuz* out, __hip_fp8_e5m2_fnuz* in) {}\n", line=2),
        Valid("__device__ float f(__half x) { return __half2float(x); }"),
        Valid('// __nv_fp8_e4m3 is not used here\nconst char* s = "__nv_fp8_e4m3";'),
    ]

    def check(self, ctx):
        if b"fp8" not in ctx.data:
            return
        for token in ctx.code_tokens():
            if token.name in OCP_TYPES or token.name in FNUZ_TYPES:
                yield self.finding(ctx, token.start, token.end, MESSAGE)
                return
