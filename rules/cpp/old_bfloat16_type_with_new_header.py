"""`hip_bfloat16`, the bfloat16 type of HIP before 5.7, in a file that includes the newer bf16 header.

hipify-perl 6.0 (and code half ported by hand) writes CUDA's `__nv_bfloat16` as `hip_bfloat16`, the struct of
hip/hip_bfloat16.h, while the file includes `cuda_bf16.h`, which becomes hip/hip_bf16.h for HIP 5.7 and later.
There, `__bfloat162float`, `__float2bfloat16` and the other intrinsics take and give `__hip_bfloat16`, a different
type, and `hip_bfloat16` is not even declared unless hip/hip_bfloat16.h is included ("unknown type name
'hip_bfloat16'"). For a target of 5.7 or later, such a file gets `__hip_bfloat16`. A file that includes
hip/hip_bfloat16.h itself means the older type and is left alone; so is any file migrated for HIP before 5.7,
where `hip_bfloat16` is the type to use (CPP005).
"""
import re

from migrate.cpp.includes import includes
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

NEW_HEADERS = ("cuda_bf16.h", "hip/hip_bf16.h")
OLD_HEADER = "hip/hip_bfloat16.h"
OLD_TYPE = re.compile(rb"(?<![\w:])(hip_bfloat16)(?!\w)")
SINCE = (5, 7)


class OldBfloat16TypeWithNewHeader(CppRule):
    code = "CPP024"
    examples = [
        Invalid("#include <cuda_bf16.h>\n__global__ void k(hip_bfloat16* p) { p[0] = __float2bfloat16(1.0f); }\n",
                fixed="#include <cuda_bf16.h>\n__global__ void k(__hip_bfloat16* p) { p[0] = __float2bfloat16(1.0f); }\n",
                options=(("hip_version", "6.4"),),
                message="hip_bfloat16 is HIP's pre-5.7 bfloat16 (hip/hip_bfloat16.h), not the type of the hip_bf16.h "
                        "this file includes for HIP 6.4: __hip_bfloat16 used"),
        Invalid("#include <hip/hip_bf16.h>\nvoid f(size_t n) { hipMalloc(nullptr, n * sizeof(hip_bfloat16)); }\n",
                fixed="#include <hip/hip_bf16.h>\nvoid f(size_t n) { hipMalloc(nullptr, n * sizeof(__hip_bfloat16)); }\n",
                options=(("hip_version", "5.7"),)),
        Valid("#include <hip/hip_bfloat16.h>\n#include <hip/hip_bf16.h>\nhip_bfloat16 old_one;\n",
              options=(("hip_version", "6.4"),)),
        Valid("#include <cuda_bf16.h>\nhip_bfloat16 x;\n", options=(("hip_version", "5.2"),)),
        Valid("#include <cuda_bf16.h>\n// hip_bfloat16 in a comment\n__hip_bfloat16 y; my_hip_bfloat16 z;\n",
              options=(("hip_version", "6.4"),)),
    ]

    def check(self, ctx):
        data = ctx.data
        if ctx.target_tuple < SINCE or b"hip_bfloat16" not in data:
            return
        headers = {name for _, name in includes(ctx)}
        if not headers & set(NEW_HEADERS) or OLD_HEADER in headers:
            return
        for m, token in ctx.code_matches(OLD_TYPE):
            yield self.finding(ctx, token.start, token.end,
                               f"hip_bfloat16 is HIP's pre-5.7 bfloat16 (hip/hip_bfloat16.h), not the type of the "
                               f"hip_bf16.h this file includes for HIP {ctx.target}: __hip_bfloat16 used",
                               edits=[Edit(token.start, token.end, "__hip_bfloat16")], title="Use __hip_bfloat16")
