"""A cuBLAS algorithm or cuSOLVER refinement choice that the HIP libraries do not offer: written as their default,
which computes the same result.

cuBLAS lets a caller pick how a GEMM is computed: `cublasGemmEx`'s algorithm argument (`CUBLAS_GEMM_ALGO0` to
`CUBLAS_GEMM_ALGO23`, the `_TENSOR_OP` values, which cuBLAS has treated as the default since CUDA 11, and CUDA 13's
`CUBLAS_GEMM_AUTOTUNE`), and the 3M complex GEMMs (`cublasCgemm3m`, `cublasZgemm3m`, batched and strided), which
trade three real products for four. Each is a choice of method, not of result: the product is the one the data
types and compute type define. hipBLAS has one algorithm value, `HIPBLAS_GEMM_DEFAULT`, with the choice made by
rocBLAS or hipBLASLt, and no 3M GEMM: the value becomes `HIPBLAS_GEMM_DEFAULT` and a 3M call the plain GEMM with the
same arguments (`hipblasCgemm`, `hipblasCgemmBatched`, `hipblasCgemmStridedBatched`). Timings that compared
algorithms compare one algorithm with itself after the port. A `case` label on such a value is CPP043's.

cuSOLVER's mixed-precision solvers with iterative refinement (`cusolverDnDHgesv`, `cusolverDnDSgels`,
`cusolverDnZCgesv`, ...: the data type, then a lower precision used inside the factorization) refine the solution to
the accuracy of the data type, and fall back to it where refinement does not converge: the same solution, found
another way. hipSOLVER has only the same-precision ones, with the same arguments: `cusolverDnDHgesv` becomes
`hipsolverDnDDgesv` (and `_bufferSize` likewise); the iteration count they report differs. A target older than the
same-precision solver's HIP release is told so, unfixed.
"""
from migrate.cpp.blas_algorithms import owned, plain_solver, replacement
from migrate.cpp.unsupported import case_label
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

GEMM_EX = ("void f(cublasHandle_t h, const float* a, const float* b, float* c, const float* one) {\n"
           "    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, one, a, CUDA_R_32F, 4, b, CUDA_R_32F, 4, one, c,\n"
           "                 CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);\n}\n")


class BlasAlgorithmChoice(CppRule):
    code = "CPP055"
    examples = [
        Invalid("#include <cublas_v2.h>\n" + GEMM_EX, line=4,
                fixed="#include <cublas_v2.h>\n" + GEMM_EX.replace("cublasHandle_t", "hipblasHandle_t")
                .replace("cublasGemmEx", "hipblasGemmEx").replace("CUBLAS_OP_N", "HIPBLAS_OP_N")
                .replace("CUDA_R_32F", "HIP_R_32F").replace("CUBLAS_COMPUTE_32F", "HIPBLAS_COMPUTE_32F")
                .replace("CUBLAS_GEMM_DEFAULT_TENSOR_OP", "HIPBLAS_GEMM_DEFAULT"),
                message="CUBLAS_GEMM_DEFAULT_TENSOR_OP chooses how cuBLAS computes the product; hipBLAS has one "
                        "algorithm value, HIPBLAS_GEMM_DEFAULT (the same product, the library's choice of method)"),
        Invalid("void f(cublasHandle_t h, const cuComplex* a, cuComplex* c, const cuComplex* one) {\n"
                "    cublasCgemm3m(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, one, a, 2, a, 2, one, c, 2);\n}\n",
                fixed="void f(hipblasHandle_t h, const hipComplex* a, hipComplex* c, const hipComplex* one) {\n"
                      "    hipblasCgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 2, 2, 2, one, a, 2, a, 2, one, c, 2);\n}\n",
                message="cublasCgemm3m chooses how cuBLAS computes the product; hipBLAS has no 3M GEMM: hipblasCgemm "
                        "computes the same product with the same arguments"),
        Invalid("#include <cusolverDn.h>\nvoid solve(cusolverDnHandle_t h, int n, double* a, cusolver_int_t* p, double* b,\n"
                "           double* x, void* w, size_t bytes, cusolver_int_t* it, cusolver_int_t* info) {\n"
                "    cusolverDnDHgesv(h, n, 1, a, n, p, b, n, x, n, w, bytes, it, info);\n}\n", line=4,
                fixed="#include <cusolverDn.h>\nvoid solve(hipsolverHandle_t h, int n, double* a, int* p, double* b,\n"
                      "           double* x, void* w, size_t bytes, int* it, int* info) {\n"
                      "    hipsolverDnDDgesv(h, n, 1, a, n, p, b, n, x, n, w, bytes, it, info);\n}\n",
                message="cusolverDnDHgesv chooses how cuSOLVER reaches the solution (a lower precision inside, then "
                        "refinement); hipSOLVER has only hipsolverDnDDgesv, which finds the same solution with the same "
                        "arguments"),
        Valid("int algo(int i) { return i == 0 ? CUBLAS_GEMM_DEFAULT : 1; }"),
        # a case label is CPP043's, a project's own name its own
        Valid("int cublasCgemm3mHelper(int x) { return x; }"),
    ]

    def check(self, ctx):
        for token in ctx.code_tokens():
            if not owned(token.name) or case_label(token):
                continue
            plain = plain_solver(token.name)
            if plain is not None:
                yield from self._solver(ctx, token, plain)
                continue
            hip = replacement(token.name)
            if hip == "HIPBLAS_GEMM_DEFAULT":
                message = (f"{token.name} chooses how cuBLAS computes the product; hipBLAS has one algorithm value, "
                           "HIPBLAS_GEMM_DEFAULT (the same product, the library's choice of method)")
            else:
                message = (f"{token.name} chooses how cuBLAS computes the product; hipBLAS has no 3M GEMM: {hip} "
                           "computes the same product with the same arguments")
            yield self.finding(ctx, token.start, token.end, message, edits=[Edit(token.start, token.end, hip)],
                               title=f"Write {hip}")

    def _solver(self, ctx, token, plain: str):
        mapping = ctx.packs.names[plain]
        said = (f"{token.name} chooses how cuSOLVER reaches the solution (a lower precision inside, then refinement); "
                f"hipSOLVER has only {mapping.hip}")
        if ctx.too_new(mapping):
            release = ".".join(map(str, ctx.target_tuple))
            yield self.finding(ctx, token.start, token.end, f"{said}, from HIP {mapping.since}, not in HIP {release}",
                               severity=Severity.ERROR)
            return
        yield self.finding(ctx, token.start, token.end, f"{said}, which finds the same solution with the same arguments",
                           edits=[Edit(token.start, token.end, mapping.hip)], title=f"Write {mapping.hip}")
