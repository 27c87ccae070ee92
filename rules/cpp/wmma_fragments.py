"""CUDA's warp matrix API (`mma.h`, `nvcuda::wmma`) written for rocWMMA.

rocWMMA (header-only; `rocwmma/rocwmma.hpp`) has the same API under the namespace `rocwmma`: `fragment<matrix_a,
M, N, K, T, row_major>`, `matrix_b`, `accumulator`, `row_major`/`col_major`, `mem_row_major`/`mem_col_major`,
`fill_fragment`, `load_matrix_sync`, `store_matrix_sync`, `mma_sync`, and a fragment's `num_elements` and `x[]`;
`__half` elements are its `hfloat16_t`. So the fix (safe) writes the include and the namespace: `#include <mma.h>`
→ `#include <rocwmma/rocwmma.hpp>`, `nvcuda::wmma` → `rocwmma`, and `using namespace nvcuda;` (after which the code
writes `wmma::`) → `namespace wmma = rocwmma;`. Checked: CUDA's 16x16x16 half-to-float GEMM, written so, compiles
for gfx942 with HIP 6.4 against rocWMMA 1.6's headers (ROCm/rocWMMA at fa7e8ee); Debian's rocWMMA 2.2 package for
HIP 7.2 lacks the `internal/` headers its `rocwmma.hpp` includes, so nothing rocWMMA compiles with it here.

What a rename cannot carry, reported at the line (errors: the build stops there):
- fragment shapes: rocWMMA's blocks are 16x16 on every target and 32x32 on the 64-lane CDNA ones (gfx9); CUDA's
  32x8, 8x32 and 8x8 fragments have no counterpart (shapes written as numbers, or as names the file defines to
  numbers, are checked);
- `wmma::experimental` (`precision::tf32`, `b1`, `s4`, `u4`), `bmma_sync` and `__float_to_tf32`: no rocWMMA
  counterpart of the same name (rocWMMA's `xfloat32_t` is gfx942's own TF32, not a rename);
- unsigned 8-bit fragments (`uint8_t`, `unsigned char`: NVIDIA's immaTensorCoreGemm sample): rocWMMA's 8-bit
  integer fragments are `int8_t` (with 1.6's headers, `fill_fragment` then finds no matching overload).
A fragment belongs to a whole wavefront, 64 lanes on gfx9 and 32 on gfx11/gfx12: the finding at the include says
so, since warp counts and warp indices computed from 32 (HAZ001 and the wave-size rules flag them) decide which
lanes hold which tile.
"""
import re

from migrate.cpp.parse import Context
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*([<\"](?:crt/)?mma\.h[>\"])", re.M)
NAMESPACE = re.compile(rb"(?<![\w$:])nvcuda[ \t]*::[ \t]*wmma\b")
USING = re.compile(rb"(?<![\w$])using[ \t]+namespace[ \t]+nvcuda[ \t]*;")
PRECISION = re.compile(rb"(?<![\w$])(?:wmma[ \t]*::[ \t]*)?((?:experimental[ \t]*::[ \t]*)?precision[ \t]*::[ \t]*\w+)")
UNSUPPORTED = re.compile(rb"(?<![\w$:])(bmma_sync|__float_to_tf32)\b")
FRAGMENT = re.compile(rb"(?<![\w$])fragment[ \t]*<[ \t]*(?:(?:rocwmma|wmma|nvcuda[ \t]*::[ \t]*wmma)[ \t]*::[ \t]*)?"
                      rb"(matrix_a|matrix_b|accumulator)[ \t]*,[ \t]*(\w+)[ \t]*,[ \t]*(\w+)[ \t]*,[ \t]*(\w+)"
                      rb"(?:[ \t]*,[ \t]*(unsigned[ \t]+char|uint8_t|[\w:]+))?")
UNSIGNED = (b"uint8_t", b"unsigned char")
NUMBER = rb"[ \t]*(?:\(\s*)?(\d+)[uU]?(?:\s*\))?"
DEFINED = (rb"^[ \t]*#[ \t]*define[ \t]+(\w+)" + NUMBER + rb"[ \t]*$",
           rb"(?<![\w$])(?:static[ \t]+)?(?:const|constexpr)[ \t]+(?:unsigned[ \t]+)?(?:int|size_t)[ \t]+(\w+)[ \t]*="
           + NUMBER + rb"[ \t]*;")
WAVE = ("a fragment belongs to a whole wavefront: 64 lanes on gfx9 (gfx90a, gfx942, gfx950), 32 on gfx11 and gfx12, so "
        "warp counts and indices computed from 32 change which lanes hold which tile")


class WmmaFragments(CppRule):
    code = "CPP052"
    examples = [
        Invalid("#include <mma.h>\nusing namespace nvcuda;\n\n__global__ void gemm(const half* a, const half* b, "
                "float* c)\n{\n    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;\n"
                "    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;\n"
                "    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;\n    wmma::fill_fragment(acc, 0.0f);\n"
                "    wmma::load_matrix_sync(fa, a, 16);\n    wmma::load_matrix_sync(fb, b, 16);\n"
                "    wmma::mma_sync(acc, fa, fb, acc);\n    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);\n}\n",
                fixed="#include <rocwmma/rocwmma.hpp>\nnamespace wmma = rocwmma;\n\n"
                      "__global__ void gemm(const half* a, const half* b, float* c)\n{\n"
                      "    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;\n"
                      "    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;\n"
                      "    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;\n    wmma::fill_fragment(acc, 0.0f);\n"
                      "    wmma::load_matrix_sync(fa, a, 16);\n    wmma::load_matrix_sync(fb, b, 16);\n"
                      "    wmma::mma_sync(acc, fa, fb, acc);\n"
                      "    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);\n}\n",
                line=1, message="mma.h is CUDA's warp matrix API: rocWMMA has the same API under rocwmma "
                                "(rocwmma/rocwmma.hpp); " + WAVE),
        Invalid("#include <mma.h>\n#define WM 32\n#define WN 8\n__device__ void f() {\n"
                "    nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, WM, WN, 16, half, nvcuda::wmma::row_major> a;\n}\n",
                fixed="#include <rocwmma/rocwmma.hpp>\n#define WM 32\n#define WN 8\n__device__ void f() {\n"
                      "    rocwmma::fragment<rocwmma::matrix_a, WM, WN, 16, half, rocwmma::row_major> a;\n}\n",
                line=5, message="a 32x8 fragment: rocWMMA's blocks are 16x16 on every target and 32x32 on the 64-lane "
                                "CDNA ones: retile this for 16x16 (or 32x32) blocks"),
        Invalid("#include <mma.h>\nusing namespace nvcuda;\n__device__ void f() {\n"
                "    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;\n}\n",
                fixed="#include <rocwmma/rocwmma.hpp>\nnamespace wmma = rocwmma;\n__device__ void f() {\n"
                      "    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;\n}\n",
                line=4, message="wmma::precision::tf32 is not in rocWMMA (tf32, b1, s4 and u4 fragments, bmma_sync and "
                                "__float_to_tf32 have no counterpart of that name): rewrite it with rocWMMA's types"),
        Valid("#include <rocwmma/rocwmma.hpp>\nnamespace wmma = rocwmma;\n"
              "__device__ void f() { wmma::fragment<wmma::accumulator, 16, 16, 16, float> c; }\n"),
        Valid("// using namespace nvcuda; in a comment\nstruct fragment { int x; };\n"),
        Invalid("#include <mma.h>\nusing namespace nvcuda;\n__device__ void f() {\n"
                "    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> a;\n}\n",
                fixed="#include <rocwmma/rocwmma.hpp>\nnamespace wmma = rocwmma;\n__device__ void f() {\n"
                      "    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> a;\n}\n",
                line=4, message="unsigned char fragments: rocWMMA's 8-bit integer fragments are signed (int8_t): store the "
                                "values as int8_t (offset by 128 where they go past 127) or widen them"),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"nvcuda" not in data and b"mma.h" not in data:
            return
        if b"wmma" in data:  # what stops the build first, then the renames
            yield from self._shapes(ctx)
            yield from self._unsupported(ctx)
        for m in INCLUDE.finditer(data):
            start, end = m.span(1)
            yield self.finding(ctx, m.start(), m.end(), "mma.h is CUDA's warp matrix API: rocWMMA has the same API "
                               f"under rocwmma (rocwmma/rocwmma.hpp); {WAVE}", edits=[Edit(start, end,
                               "<rocwmma/rocwmma.hpp>")], title="Include rocWMMA", severity=Severity.WARNING)
        for m in USING.finditer(data):
            if self._code(ctx, m.start()):
                yield self.finding(ctx, m.start(), m.end(), "nvcuda's wmma is rocWMMA's rocwmma: the code's wmma:: "
                                   "names it", edits=[Edit(m.start(), m.end(), "namespace wmma = rocwmma;")],
                                   title="Name rocwmma wmma")
        for m in NAMESPACE.finditer(data):
            if self._code(ctx, m.start()):
                yield self.finding(ctx, m.start(), m.end(), "nvcuda::wmma is rocWMMA's rocwmma: the same names",
                                   edits=[Edit(m.start(), m.end(), "rocwmma")], title="Rename to rocwmma")

    def _unsupported(self, ctx):
        data = ctx.data
        for m in PRECISION.finditer(data):
            if self._code(ctx, m.start()):
                yield self.finding(ctx, m.start(), m.end(), f"wmma::{m.group(1).decode()} is not in rocWMMA (tf32, b1, "
                                   "s4 and u4 fragments, bmma_sync and __float_to_tf32 have no counterpart of that "
                                   "name): rewrite it with rocWMMA's types", severity=Severity.ERROR)
        for m in UNSUPPORTED.finditer(data):
            if self._code(ctx, m.start()):
                yield self.finding(ctx, m.start(), m.end(), f"{m.group(1).decode()} is not in rocWMMA (tf32, b1, s4 "
                                   "and u4 fragments, bmma_sync and __float_to_tf32 have no counterpart of that "
                                   "name): rewrite it with rocWMMA's types", severity=Severity.ERROR)

    def _shapes(self, ctx):
        values = {}
        for pattern in DEFINED:
            for m in re.finditer(pattern, ctx.data, re.M):
                values.setdefault(m.group(1), int(m.group(2)))
        rdna = [t for t in ctx.targets if t.startswith(("gfx11", "gfx12"))]
        for m in FRAGMENT.finditer(ctx.data):
            if not self._code(ctx, m.start()):
                continue
            element = b" ".join((m.group(5) or b"").split())
            if m.group(1) != b"accumulator" and element in UNSIGNED:
                yield self.finding(ctx, m.start(5), m.end(5), f"{element.decode()} fragments: rocWMMA's 8-bit integer "
                                   "fragments are signed (int8_t): store the values as int8_t (offset by 128 where "
                                   "they go past 127) or widen them", severity=Severity.ERROR)
            shape = [int(w) if w.isdigit() else values.get(w) for w in (m.group(2), m.group(3))]
            if None in shape:
                continue
            rows, cols = shape
            if (rows, cols) == (16, 16) or ((rows, cols) == (32, 32) and not rdna):
                continue
            where = f" ({', '.join(rdna)} take 16x16 only)" if (rows, cols) == (32, 32) else ""
            yield self.finding(ctx, m.start(2), m.end(3), f"a {rows}x{cols} fragment: rocWMMA's blocks are 16x16 on "
                               f"every target and 32x32 on the 64-lane CDNA ones{where}: retile this for 16x16 (or "
                               "32x32) blocks", severity=Severity.ERROR)

    @staticmethod
    def _code(ctx, start: int) -> bool:
        return ctx.locate(start, start + 1)[0] in (Context.CODE, Context.MACRO, Context.USER_SCOPE)
