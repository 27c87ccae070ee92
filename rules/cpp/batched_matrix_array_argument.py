"""An array of matrices passed to hipBLAS's batched mixed-precision GEMM as `void**`, where hipBLAS takes `const void*[]`.

cuBLAS's `cublasGemmBatchedEx` (and `_64`) takes the arrays of A and B matrices as `const void* const []`, so a
`void**` converts; CUDALibrarySamples passes `(void **)d_A_array`. hipBLAS's `hipblasGemmBatchedEx` (and `_64`,
`WithFlags`, and HIP 6's `_v2` forms) takes `const void* []`, to which C++ does not convert a `void**` (nor a `void* const*`): "no matching
function". The fix casts those two arguments to `const void**`, the pointers they hold unchanged: a `(void **)`
cast becomes `(const void**)`, any other argument is wrapped in one. Arguments already cast to `const void`
pointers are left alone. The functions and positions are those whose hipBLAS 6.4 and 7.2 prototypes take
`const void* NAME[]` (tests/test_hipblas_arrays.py reads the installed headers).
"""
import re

from migrate.cpp.calls import api_arguments
from migrate.cpp.spelling import hip_spelling
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

# hipBLAS's name (and cuBLAS's, where cuBLAS has it) -> positions of the `const void* []` parameters
POSITIONS = (7, 10)
FUNCTIONS = tuple(f"hipblasGemmBatchedEx{flags}{v2}{size}" for flags in ("", "WithFlags") for v2 in ("", "_v2")
                  for size in ("", "_64"))  # the _v2 forms: hipBLAS 2 (HIP 6), gone in 7.0
APIS = (*FUNCTIONS, "cublasGemmBatchedEx", "cublasGemmBatchedEx_64")
VOID_CAST = re.compile(rb"\A\(\s*void\s*\*\s*\*\s*\)")
CONST_CAST = re.compile(rb"\A\(\s*const\s+void\s*\*")
CALL = ("void f(cublasHandle_t h, void** a, void** b, void** c, const float* one, int n) {\n"
        "    cublasGemmBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, one, (void **)a, CUDA_R_32F, n, b, CUDA_R_32F,\n"
        "                        n, one, c, CUDA_R_32F, n, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n}\n")


class BatchedMatrixArrayArgument(CppRule):
    code = "CPP059"
    examples = [
        Invalid(CALL, line=2,
                fixed=CALL.replace("cublasHandle_t", "hipblasHandle_t").replace("cublasGemmBatchedEx", "hipblasGemmBatchedEx")
                .replace("CUBLAS_OP_N", "HIPBLAS_OP_N").replace("CUDA_R_32F", "HIP_R_32F")
                .replace("CUBLAS_COMPUTE_32F", "HIPBLAS_COMPUTE_32F").replace("CUBLAS_GEMM_DEFAULT", "HIPBLAS_GEMM_DEFAULT")
                .replace("(void **)a", "(const void**)a").replace("n, b, HIP", "n, (const void**)(b), HIP"),
                message="hipblasGemmBatchedEx takes the A matrices as const void*[], to which a void** does not "
                        "convert: cast to const void**"),
        Valid("void f(hipblasHandle_t h, const void** a, void** c, const float* one, int n) {\n"
              "    hipblasGemmBatchedEx(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, one, a, HIP_R_32F, n, (const void**)a,\n"
              "                         HIP_R_32F, n, one, c, HIP_R_32F, n, 4, HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT);\n}\n"),
    ]

    def check(self, ctx):
        if b"BatchedEx" not in ctx.data:
            return
        for position in POSITIONS:
            apis = {name: position for name in APIS}
            for token, arg in api_arguments(ctx, apis):
                if arg.type == "identifier" and _declared_const(ctx, arg):
                    continue
                start, end = token.base + arg.start_byte, token.base + arg.end_byte
                text = ctx.data[start:end]
                if CONST_CAST.match(text):
                    continue
                cast = VOID_CAST.match(text)
                edit = (Edit(start, start + cast.end(), "(const void**)") if cast
                        else Edit(start, end, f"(const void**)({text.decode()})"))
                hip = hip_spelling(token.name)
                which = "A" if position == POSITIONS[0] else "B"
                yield self.finding(ctx, start, end, f"{hip} takes the {which} matrices as const void*[], to which a "
                                   "void** does not convert: cast to const void**", edits=[edit],
                                   title="Cast to const void**")


def _declared_const(ctx, arg) -> bool:
    """Whether the file declares the argument's name as a `const void**` (nothing to cast)."""
    name = re.escape(arg.text)
    return re.search(rb"const\s+void\s*\*\s*\*\s*" + name + rb"\b", ctx.data) is not None
