"""A hipBLAS half-precision call that passes CUDA's `__half` where hipBLAS's prototype takes `hipblasHalf`.

cuBLAS's half-precision functions (`cublasHgemm`, `cublasHgemmBatched`, `cublasHgemmStridedBatched` and their `_64`
forms) take `__half*`. The packs rename them to hipBLAS's (`hipblasHgemm`, ...), whose prototypes take
`hipblasHalf*`, and hipblas.h makes `hipblasHalf` a `uint16_t` unless `HIPBLAS_USE_HIP_HALF` is defined before it is
included (then it is HIP's `__half`): the migrated call has no matching function, with HIP 5.2's hipBLAS 0.54 and
with HIP 6.4's hipBLAS 2 alike (both compiled here). The fix defines `HIPBLAS_USE_HIP_HALF` on the line before the
file's hipBLAS include: the functions are `extern "C"` and both types are 16 bits, so the library is the same. A file
whose hipBLAS include comes through another header is reported without a fix (define it before that include, or
with -DHIPBLAS_USE_HIP_HALF for the whole build).

The functions are those whose prototypes take `hipblasHalf` in the hipBLAS headers of the installed HIP 5.2 and 6.4
toolchains (tests/test_hipblas_half.py reads them): the GEMMs, which cuBLAS has too, and hipBLAS's own `Haxpy` and
`Hdot`, in code that already calls hipBLAS.
"""
import re

from migrate.cpp.calls import call_of
from migrate.cpp.includes import includes
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

FUNCTIONS = frozenset(f"hipblasH{op}{variant}{size}" for op in ("gemm", "axpy", "dot")
                      for variant in ("", "Batched", "StridedBatched") for size in ("", "_64"))
HEADERS = {"cublas_v2.h", "cublas.h", "cublas_api.h", "hipblas.h", "hipblas/hipblas.h"}
DEFINE = "HIPBLAS_USE_HIP_HALF"
CALLS = re.compile(rb"(?<![\w$])((?:cu|hip)blasH(?:gemm|axpy|dot)\w*)\b")

GEMM = ("#include <cublas_v2.h>\n#include <cuda_fp16.h>\n"
        "void f(cublasHandle_t h, const __half* a, const __half* b, __half* c, int n) {\n"
        "    __half one = __float2half(1.0f), zero = __float2half(0.0f);\n"
        "    cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);\n}\n")
GEMM_HIP = ("#define HIPBLAS_USE_HIP_HALF\n#include <cublas_v2.h>\n#include <cuda_fp16.h>\n"
            "void f(hipblasHandle_t h, const __half* a, const __half* b, __half* c, int n) {\n"
            "    __half one = __float2half(1.0f), zero = __float2half(0.0f);\n"
            "    hipblasHgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);\n}\n")

STRIDED = ("#include <cuda_fp16.h>\n#include <cublas_v2.h>\n"
           "void batched(cublasHandle_t h, const __half* a, __half* c, int n, int count) {\n"
           "    const __half one = __float2half(1.0f);\n    long long s = (long long)n * n;\n"
           "    cublasHgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, a, n, s, a, n, s, &one, c, n, s, "
           "count);\n}\n")
STRIDED_HIP = (STRIDED.replace("#include <cublas_v2.h>", "#define HIPBLAS_USE_HIP_HALF\n#include <cublas_v2.h>")
               .replace("cublasHandle_t", "hipblasHandle_t").replace("cublasHgemm", "hipblasHgemm")
               .replace("CUBLAS_OP", "HIPBLAS_OP"))


def message(name: str) -> str:
    return (f"{name} takes hipblasHalf, a uint16_t unless {DEFINE} is defined before hipblas.h: CUDA's __half "
            "arguments do not convert")


class HipblasHalfArgument(CppRule):
    code = "CPP041"
    severity = Severity.WARNING
    examples = [
        Invalid(GEMM, fixed=GEMM_HIP, line=5, message=message("hipblasHgemm")),
        Invalid(STRIDED, fixed=STRIDED_HIP, line=6),
        # code already on hipBLAS, with hipBLAS's own include
        Invalid("#include <hipblas/hipblas.h>\nvoid g(hipblasHandle_t h, const __half* x, int n, __half* r) "
                "{ hipblasHdot(h, n, x, 1, x, 1, r); }\n",
                fixed="#define HIPBLAS_USE_HIP_HALF\n#include <hipblas/hipblas.h>\nvoid g(hipblasHandle_t h, const "
                      "__half* x, int n, __half* r) { hipblasHdot(h, n, x, 1, x, 1, r); }\n"),
        # the include comes through a header of the project's: reported, not fixed
        Invalid('#include "blas_common.h"\nvoid k(hipblasHandle_t h, const __half* a, __half* c) '
                "{ hipblasHgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 4, 4, 4, a, a, 4, a, 4, a, c, 4); }\n", line=2),
        Valid(GEMM_HIP),
        Valid("#include <hipblas/hipblas.h>\nvoid s(hipblasHandle_t h, const float* a, float* c) "
              "{ float one = 1.0f; hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 4, 4, 4, &one, a, 4, a, 4, &one, c, 4); }\n"),
        Valid('// cublasHgemm(h, ...) in a comment\nconst char* s = "hipblasHgemm";\n'),
    ]

    def check(self, ctx):
        if b"blasH" not in ctx.data or DEFINE.encode() in ctx.data:
            return
        names = ctx.packs.names
        for _, token in ctx.code_matches(CALLS):
            mapping = names.get(token.name)
            hip = mapping.hip if mapping is not None else token.name
            if hip not in FUNCTIONS or call_of(token) is None:
                continue
            include = next((m for m, header in includes(ctx) if header in HEADERS), None)
            if include is None:
                yield self.finding(ctx, token.start, token.end, message(hip) + f": define {DEFINE} before the hipBLAS "
                                   "include (this file has none), or pass -D" + DEFINE)
                return
            at = include.start()
            yield self.finding(ctx, token.start, token.end, message(hip), title=f"Define {DEFINE} before the hipBLAS "
                               "include", edits=[Edit(at, at, f"#define {DEFINE}{ctx.newline}")])
            return
