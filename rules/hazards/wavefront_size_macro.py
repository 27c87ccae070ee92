"""`__AMDGCN_WAVEFRONT_SIZE` or `__AMDGCN_WAVEFRONT_SIZE__`, the compiler's wave-size macros, which HIP 7.2 no
longer defines.

Checked with the installed compilers: HIP 6.4's defines both (64 on gfx9, 32 on RDNA, 64 in the host pass) and warns
on each use that they are deprecated ("compile-time-constant access to the wavefront size will be removed in a
future release"; LLVM deprecated them in November 2024, ROCm 6.3's notes say so); HIP 7.2's defines neither (LLVM
removed them in September 2025). In code the 7.2 compiler stops with "use of undeclared identifier
'__AMDGCN_WAVEFRONT_SIZE'"; in an `#if` the macro silently counts as 0, so `#if __AMDGCN_WAVEFRONT_SIZE == 64`
takes the wave32 branch on gfx942, and `#ifdef __AMDGCN_WAVEFRONT_SIZE` is never true.

Fix (safe): both spellings become `HIPMIGRATE_WAVE_SIZE`, which a block at the top of the file defines once, in a
HIP compile only, with the values 6.4's macros had, from the target macros 7.2 still predefines (`__GFX9__`, ...;
migrate/cpp/wave_size.py). Reported as an error for a target of 7.2 or later, as a deprecation (info) for 6.3 to
7.1, and not at all before 6.3. A file that defines the macro itself (a fallback `#define __AMDGCN_WAVEFRONT_SIZE
64`) is reported at that definition, without a fix: on RDNA the fallback is wrong.
"""
import re

from migrate.cpp import wave_size
from migrate.cpp.parse import Context, directive_condition
from migrate.model import Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

V72 = (("hip_version", "7.2"),)
V64 = (("hip_version", "6.4"),)
NAME = re.compile(rb"(?<![\w$])(__AMDGCN_WAVEFRONT_SIZE(?:__)?)(?![\w$])")
OWN = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(__AMDGCN_WAVEFRONT_SIZE(?:__)?)\b", re.M)
BLOCK = wave_size.block()
GATE = ("#if __AMDGCN_WAVEFRONT_SIZE == 64\ntypedef unsigned long long lane_mask;\n#else\ntypedef unsigned lane_mask;\n"
        "#endif\n__global__ void k(lane_mask* o) { o[threadIdx.x] = 0; }\n")


class WavefrontSizeMacro(HazardRule):
    code = "HAZ028"
    severity = Severity.ERROR
    examples = [
        Invalid(GATE, fixed=BLOCK + GATE.replace("__AMDGCN_WAVEFRONT_SIZE", "HIPMIGRATE_WAVE_SIZE"), options=V72, line=1,
                message="__AMDGCN_WAVEFRONT_SIZE is not defined from HIP 7.2 (target 7.2): this #if silently counts it "
                        "as 0; use HIPMIGRATE_WAVE_SIZE, the per-target wave size hipmigrate defines"),
        Invalid("__global__ void k(float* o) {\n  __shared__ float s[__AMDGCN_WAVEFRONT_SIZE__];\n  o[0] = s[0];\n}\n",
                fixed=BLOCK + "__global__ void k(float* o) {\n  __shared__ float s[HIPMIGRATE_WAVE_SIZE];\n  o[0] = s[0];\n"
                              "}\n", options=V72, line=2,
                message="__AMDGCN_WAVEFRONT_SIZE__ is not defined from HIP 7.2 (target 7.2): an undeclared identifier; "
                        "use HIPMIGRATE_WAVE_SIZE, the per-target wave size hipmigrate defines"),
        Invalid("#ifndef K_H\n#define K_H\n#ifdef __AMDGCN_WAVEFRONT_SIZE\n#define WAVE __AMDGCN_WAVEFRONT_SIZE\n#endif\n"
                "#endif\n",
                fixed="#ifndef K_H\n#define K_H\n" + BLOCK + "#ifdef HIPMIGRATE_WAVE_SIZE\n#define WAVE HIPMIGRATE_WAVE_SIZE\n"
                      "#endif\n#endif\n", options=V72, line=3),
        # deprecated in 6.4 (the compiler warns): the same fix, as info
        Invalid(GATE, fixed=BLOCK + GATE.replace("__AMDGCN_WAVEFRONT_SIZE", "HIPMIGRATE_WAVE_SIZE"), options=V64,
                message="__AMDGCN_WAVEFRONT_SIZE is deprecated from HIP 6.3 and not defined from 7.2 (target 6.4): "
                        "use HIPMIGRATE_WAVE_SIZE, the per-target wave size hipmigrate defines"),
        # a fallback definition of its own: reported there, not fixed
        Invalid("#ifndef __AMDGCN_WAVEFRONT_SIZE\n#define __AMDGCN_WAVEFRONT_SIZE 64\n#endif\n"
                "__device__ int lanes() { return __AMDGCN_WAVEFRONT_SIZE; }\n", options=V72, line=2,
                message="__AMDGCN_WAVEFRONT_SIZE is defined by this file (HIP 7.2 no longer defines it): its value is "
                        "right for gfx9 only; define it from HIPMIGRATE_WAVE_SIZE or the target macros"),
        Valid(GATE, options=(("hip_version", "5.2"),)),
        Valid("// __AMDGCN_WAVEFRONT_SIZE was removed\nconst char* s = \"__AMDGCN_WAVEFRONT_SIZE__\";\n"
              "__device__ int f() { return warpSize; }\n", options=V72),
        Valid("#if HIPMIGRATE_WAVE_SIZE == 64\nint wave64;\n#endif\n", options=V72),
        Valid("// __AMDGCN_WAVEFRONT_SIZE: 64 on gfx942\n#if HIPMIGRATE_WAVE_SIZE == 64\nint wave64;\n#endif\n",
              options=V64),
    ]

    def check(self, ctx):
        if ctx.target_tuple < wave_size.MACROS_DEPRECATED or b"__AMDGCN_WAVEFRONT_SIZE" not in ctx.data:
            return
        own = next((m for m in OWN.finditer(ctx.data)
                    if ctx.locate(m.start(1), m.end(1))[0] in (Context.CODE, Context.MACRO)), None)
        removed = ctx.target_tuple >= wave_size.MACROS_REMOVED
        if own is not None:
            name = own.group(1).decode()
            yield self.finding(ctx, own.start(1), own.end(1), f"{name} is defined by this file (HIP 7.2 no longer "
                               "defines it): its value is right for gfx9 only; define it from HIPMIGRATE_WAVE_SIZE or "
                               "the target macros", severity=Severity.WARNING if removed else Severity.INFO)
            return
        block = wave_size.block_edits(ctx)
        for _, token in ctx.code_matches(NAME):
            if token.node is None:
                continue
            tested = token.context is Context.CODE and directive_condition(token.node) is not None
            if removed:
                how = ("this #if silently counts it as 0" if tested else "an undeclared identifier")
                text = f"{token.name} is not defined from HIP 7.2 (target {ctx.target}): {how}"
            else:
                text = f"{token.name} is deprecated from HIP 6.3 and not defined from 7.2 (target {ctx.target})"
            yield self.finding(ctx, token.start, token.end,
                               text + f"; use {wave_size.MACRO}, the per-target wave size hipmigrate defines" if removed
                               else text + f": use {wave_size.MACRO}, the per-target wave size hipmigrate defines",
                               edits=[*block, Edit(token.start, token.end, wave_size.MACRO)],
                               title=f"Use {wave_size.MACRO}", severity=None if removed else Severity.INFO)

