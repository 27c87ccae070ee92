"""`warpSize` where C++ needs a constant expression, in code migrated for HIP 7.0 or later.

Up to HIP 6.4, `warpSize` was a `constexpr int` (the compiler's `__AMDGCN_WAVEFRONT_SIZE`), so HIP code sized
arrays and instantiated templates with it. From HIP 7.0 it is an object read at run time, and the 7.2 compiler
rejects it in a constant: `__shared__ float s[warpSize];` ("array size is not a constant expression"), template
arguments ("no matching function for call"), `static_assert`, `constexpr` variables, `case` labels, bit-field
widths and enumerator values. An automatic array (`float buf[warpSize / 2];`) still compiles, as a variable-length
array (a Clang extension, `-Wvla-cxx-extension`) kept on the stack at run time. A `#define` whose body uses
`warpSize` is reported where the macro is used in such a place.

Fix: `warpSize` becomes `HIPMIGRATE_WAVE_SIZE`, a compile-time wave size per target that a block at the top of the
file defines once from the target macros the 7.2 compiler predefines (64 on gfx9, 32 on RDNA, 64 in the host pass,
as 6.4's `warpSize` was; migrate/cpp/wave_size.py). Safe for array bounds, `static_assert`, `case` labels,
bit-field widths and enumerators; unsafe for template arguments and `constexpr` variables, which can reach host
code, where the value is 64 whatever the target (a kernel template launched from the host with it names another
instance than the one compiled for RDNA). For targets before 7.0 nothing is reported: `warpSize` is a constant
there.
"""
import re

from migrate.cpp import wave_size
from migrate.cpp.macro_bodies import macros
from migrate.cpp.parse import Context
from migrate.model import Applicability, Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

V72 = (("hip_version", "7.2"),)
V64 = (("hip_version", "6.4"),)
WARP_SIZE = re.compile(rb"(?<![\w$.>:])(warpSize)(?![\w$])")
SAFE_PLACES = {"__shared__ array bound", "static array bound", "member array bound", "array bound",
               "static_assert condition", "case label", "bit-field width", "enumerator value", "if constexpr condition"}
BLOCK = wave_size.block()
SHARED = "__global__ void k(float* o) {\n  __shared__ float s[warpSize];\n  s[threadIdx.x % warpSize] = 1;\n  o[0] = s[0];\n}\n"
MESSAGE = ("warpSize used as a __shared__ array bound: warpSize is no constant expression from HIP 7.0 (target 7.2; "
           "a constant up to 6.4); use a per-target compile-time wave size (HIPMIGRATE_WAVE_SIZE)")


def message(what: str, target: str, compiles: bool, via: str = "") -> str:
    used = f"{via} (defined with warpSize)" if via else "warpSize"
    effect = ("; it compiles as a variable-length array, sized at run time" if compiles else "")
    return (f"{used} used as a {what}: warpSize is no constant expression from HIP 7.0 (target {target}; a constant "
            f"up to 6.4){effect}; use a per-target compile-time wave size (HIPMIGRATE_WAVE_SIZE)")


class WarpSizeAsConstant(HazardRule):
    code = "HAZ027"
    severity = Severity.ERROR
    examples = [
        Invalid(SHARED, fixed=BLOCK + SHARED.replace("s[warpSize]", "s[HIPMIGRATE_WAVE_SIZE]"), options=V72, line=2,
                message=MESSAGE),
        Invalid("__device__ float f(float v) {\n  float buf[warpSize / 2];\n  buf[0] = v;\n  return buf[0];\n}\n",
                fixed=BLOCK + "__device__ float f(float v) {\n  float buf[HIPMIGRATE_WAVE_SIZE / 2];\n  buf[0] = v;\n"
                              "  return buf[0];\n}\n", options=V72, line=2),
        Invalid("template <int W> __device__ int lanes() { return W; }\n"
                "__global__ void k(int* o) { o[0] = lanes<warpSize>(); }\n",
                fixed=BLOCK + "template <int W> __device__ int lanes() { return W; }\n"
                              "__global__ void k(int* o) { o[0] = lanes<HIPMIGRATE_WAVE_SIZE>(); }\n",
                options=(("hip_version", "7.2"), ("unsafe_fixes", True)), line=2),
        Invalid("__device__ int f(int x) {\n  static_assert(warpSize >= 32, \"wave\");\n  switch (x) {\n"
                "  case warpSize: return 1;\n  }\n  return 0;\n}\n",
                fixed=BLOCK + "__device__ int f(int x) {\n  static_assert(HIPMIGRATE_WAVE_SIZE >= 32, \"wave\");\n"
                              "  switch (x) {\n  case HIPMIGRATE_WAVE_SIZE: return 1;\n  }\n  return 0;\n}\n",
                options=V72, line=2),
        Invalid("struct Lanes { unsigned bits : warpSize; };\nenum { kLanes = warpSize };\n",
                fixed=BLOCK + "struct Lanes { unsigned bits : HIPMIGRATE_WAVE_SIZE; };\n"
                              "enum { kLanes = HIPMIGRATE_WAVE_SIZE };\n", options=V72),
        # a constexpr variable: reported, fixed only with --unsafe-fixes
        Invalid("__device__ int f() { constexpr int half = warpSize / 2; return half; }\n", options=V72,
                message="warpSize used as a constexpr variable: warpSize is no constant expression from HIP 7.0 "
                        "(target 7.2; a constant up to 6.4); use a per-target compile-time wave size "
                        "(HIPMIGRATE_WAVE_SIZE)"),
        # a macro defined with warpSize, used as a bound: its definition is fixed
        Invalid("#pragma once\n#define TILE (2 * warpSize)\n__global__ void k(float* o) { __shared__ float t[TILE]; "
                "o[0] = t[0]; }\n",
                fixed="#pragma once\n" + BLOCK + "#define TILE (2 * HIPMIGRATE_WAVE_SIZE)\n__global__ void k(float* o) "
                      "{ __shared__ float t[TILE]; o[0] = t[0]; }\n", options=V72, line=3),
        # 7.0 is the first release without a constant warpSize
        Invalid(SHARED, fixed=BLOCK + SHARED.replace("s[warpSize]", "s[HIPMIGRATE_WAVE_SIZE]"),
                options=(("hip_version", "7.0"),)),
        Valid(SHARED, options=V64),  # a constexpr int in 6.4
        Valid("template <int W> __device__ int lanes() { return W; }\n"
              "__global__ void k(int* o) { o[0] = lanes<warpSize>(); }\n", options=V64),
        Valid("__global__ void k(int* o) {\n  int lane = threadIdx.x % warpSize;\n  o[lane] = warpSize;\n"
              "  if (lane == warpSize - 1) o[0] = 1;\n}\n", options=V72),
        Valid("void f(int* o, hipDeviceProp_t p) { int w = p.warpSize; o[0] = w; }\n"
              "// float s[warpSize];\nconst char* t = \"s[warpSize]\";\n", options=V72),
        Valid("__device__ void f(float a[warpSize]) { a[0] = 1; }\n", options=V72),  # a parameter decays
        Valid("#define WARP warpSize\n__global__ void k(int* o) { o[threadIdx.x % WARP] = 0; }\n", options=V72),
    ]

    def check(self, ctx):
        if ctx.target_tuple < wave_size.CONSTANT_UNTIL or b"warpSize" not in ctx.data:
            return
        block = wave_size.block_edits(ctx)
        for _, token in ctx.code_matches(WARP_SIZE):
            if token.node is None or token.context is not Context.CODE:
                continue
            where = wave_size.constant_position(token.node)
            if where is None:
                continue
            what, compiles = where
            yield self._finding(ctx, token, what, compiles, token.start, token.end, block)
        for macro in macros(ctx):
            if macro.params is not None or not WARP_SIZE.search(macro.body.text):
                continue
            use = wave_size.used_as_constant(ctx, macro.name)
            if use is None:
                continue
            token, what = use
            base = macro.body.start_byte
            edits = [Edit(base + m.start(1), base + m.end(1), wave_size.MACRO) for m in WARP_SIZE.finditer(macro.body.text)]
            yield self.finding(ctx, token.start, token.end, message(what, ctx.target, False, macro.name),
                               edits=[*block, *edits], title=f"Define {macro.name} with {wave_size.MACRO}",
                               applicability=self._applicability(what))

    def _finding(self, ctx, token, what, compiles, start, end, block):
        return self.finding(ctx, start, end, message(what, ctx.target, compiles),
                            edits=[*block, Edit(start, end, wave_size.MACRO)], title=f"Use {wave_size.MACRO}",
                            severity=Severity.WARNING if compiles else Severity.ERROR,
                            applicability=self._applicability(what))

    @staticmethod
    def _applicability(what: str) -> Applicability:
        return Applicability.SAFE if what in SAFE_PLACES else Applicability.UNSAFE
