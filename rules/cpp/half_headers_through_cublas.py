"""Half or bfloat16 types that a file gets through cuBLAS's headers: their HIP header is included.

CUDA's cublas_api.h includes cuda_fp16.h and cuda_bf16.h, so a file that includes <cublas_v2.h> can use
`__half` and `__nv_bfloat16` without including them itself (llm.c's dev/cuda/common.h does). hipBLAS's header
includes neither HIP header, so the migrated file does not build ("unknown type name 'hip_bfloat16'"). Where a
file includes a cuBLAS header, uses half or bfloat16 names and includes no half or bfloat16 header, the HIP
one is included after the hipBLAS include (for bfloat16, the one for the target: hip/hip_bf16.h from HIP 5.7,
hip/hip_bfloat16.h before).
"""
import re

from migrate.cpp.includes import includes
from migrate.edits import decoded
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

CUBLAS = {"cublas_v2.h", "cublas_api.h", "cublas.h", "cublasLt.h"}
FP_HEADERS = {"cuda_fp16.h", "cuda_bf16.h", "hip/hip_fp16.h", "hip/hip_bf16.h", "hip/hip_bfloat16.h", "cuda_fp16.hpp",
              "cuda_bf16.hpp"}
HALF_NAME = re.compile(rb"\b(?:__half2?|__float2half\w*|__half2float|__low2float|__high2float)\b")
OLD = (("hip_version", "5.2"),)
NEW = (("hip_version", "6.2"),)


def _kinds(ctx) -> list[str]:
    """The CUDA headers the file's half and bfloat16 names come from, in that order. The half names keep their
    CUDA spelling in HIP, so no pack knows them: they are looked for in the text."""
    bf16 = any("bfloat16" in t.name or "bf16" in t.name for t in ctx.code_tokens())
    fp16 = HALF_NAME.search(ctx.data) is not None
    return [h for h, used in (("cuda_fp16.h", fp16), ("cuda_bf16.h", bf16)) if used]


class HalfHeadersThroughCublas(CppRule):
    code = "CPP019"
    phase = 1
    # (CPP001 renames the cuBLAS include around these examples)
    examples = [
        Invalid("#include <cublas_v2.h>\ntypedef __nv_bfloat16 floatX;\n",
                fixed="#include <cublas_v2.h>\n#include <hip/hip_bfloat16.h>\ntypedef hip_bfloat16 floatX;\n",
                line=1, options=OLD,
                message="<cublas_v2.h> brings cuda_bf16.h with it in CUDA; hipBLAS's header does not: "
                        "<hip/hip_bfloat16.h> included"),
        Invalid("#include <cublas_v2.h>\n__half h;\n__nv_bfloat16 b;\n",
                fixed="#include <cublas_v2.h>\n#include <hip/hip_fp16.h>\n#include <hip/hip_bf16.h>\n__half h;\n"
                      "__hip_bfloat16 b;\n", options=NEW),
        Valid("#include <cublas_v2.h>\n#include <cuda_bf16.h>\ntypedef __nv_bfloat16 floatX;\n", options=OLD),
        Valid("#include <cublas_v2.h>\nfloat x;\n", options=OLD),
        Valid("typedef __nv_bfloat16 floatX;\n", options=OLD),
    ]

    def check(self, ctx):
        found = list(includes(ctx))
        cublas = next((m for m, name in found if name in CUBLAS), None)
        if cublas is None or any(name in FP_HEADERS for _, name in found):
            return
        kinds = _kinds(ctx)
        if not kinds:
            return
        headers = [ctx.packs.headers[k].hip_for(ctx.target_tuple) for k in kinds if k in ctx.packs.headers]
        text = "".join(f"#include <{h}>{ctx.newline}" for h in headers)
        at = cublas.end()  # after the include line and its newline
        if not cublas.group(3):  # the include is the last line, without a newline
            text = ctx.newline + text
        names = ", ".join(kinds)
        yield self.finding(ctx, cublas.start(2), cublas.end(2),
                           f"<{decoded(cublas.group(2))}> brings {names} with it in CUDA; hipBLAS's header does not: "
                           f"{', '.join(f'<{h}>' for h in headers)} included", edits=[Edit(at, at, text)],
                           title="Include the HIP half and bfloat16 headers")
