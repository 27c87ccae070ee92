"""A cuBLASLt matrix layout or matmul descriptor with a data or compute type hipBLASLt has no kernels for.

hipBLASLt's GEMMs take fp32, fp16, bf16, int8 and fp8 matrices and compute 16-bit and 8-bit inputs in fp32
(hipBLASLt's data-type-support page and the type table of its README: fp16/bf16/fp8 inputs with an fp32 compute and
scale type). cuBLASLt also multiplies double and complex matrices and accumulates fp16 in fp16
(`CUBLAS_COMPUTE_16F`). The packs rename those arguments as any other (`CUDA_R_64F` -> `HIP_R_64F`,
`CUBLAS_COMPUTE_16F` -> `HIPBLAS_COMPUTE_16F`), which compiles, but hipBLASLt's heuristic then finds no algorithm
and `hipblasLtMatmul` returns HIPBLAS_STATUS_NOT_SUPPORTED. fp8 differs by target: hipBLASLt takes the FNUZ types
(`HIP_R_8F_E4M3_FNUZ`, `HIP_R_8F_E5M2_FNUZ`) on gfx942 only and the OCP types CUDA's `CUDA_R_8F_E4M3`/`E5M2` become
on later targets, not on gfx942 (MI300; see also HAZ019). Reported at the type argument of
`cublasLtMatrixLayoutCreate` (its 2nd) and `cublasLtMatmulDescCreate` (2nd, compute; 3rd, scale), CUDA or HIP
spelling; no fix: the GEMM belongs on hipBLAS (`hipblasGemmEx`, `hipblasDgemm`) or needs another type.
"""
from migrate.cpp.calls import api_arguments
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

ARGUMENTS = {"cublasLtMatrixLayoutCreate": (1,), "hipblasLtMatrixLayoutCreate": (1,),
             "cublasLtMatmulDescCreate": (1, 2), "hipblasLtMatmulDescCreate": (1, 2)}
DOUBLE_COMPLEX = ("hipBLASLt has no double or complex GEMM (its matrices are fp32, fp16, bf16, int8 or fp8): keep "
                  "this GEMM on hipBLAS (hipblasGemmEx, hipblasDgemm, hipblasZgemm)")
HALF_COMPUTE = ("hipBLASLt computes fp16 and bf16 GEMMs in fp32: no kernel takes a 16-bit compute type; use "
                "HIPBLAS_COMPUTE_32F with an fp32 scale type")
OCP_FP8 = ("hipBLASLt takes the OCP fp8 types (HIP_R_8F_E4M3/E5M2) on targets after gfx942; gfx942 (MI300) runs "
           "only the FNUZ ones (HIP_R_8F_E4M3_FNUZ/E5M2_FNUZ), which need other scaling (HAZ019)")
WHY = {}
for name in ("CUDA_R_64F", "CUDA_C_64F", "CUDA_C_32F", "CUDA_C_16F", "CUDA_C_16BF", "HIP_R_64F", "HIP_C_64F",
             "HIP_C_32F", "HIP_C_16F", "HIP_C_16BF", "CUBLAS_COMPUTE_64F", "CUBLAS_COMPUTE_64F_PEDANTIC",
             "HIPBLAS_COMPUTE_64F", "HIPBLAS_COMPUTE_64F_PEDANTIC"):
    WHY[name] = DOUBLE_COMPLEX
for name in ("CUBLAS_COMPUTE_16F", "CUBLAS_COMPUTE_16F_PEDANTIC", "HIPBLAS_COMPUTE_16F", "HIPBLAS_COMPUTE_16F_PEDANTIC"):
    WHY[name] = HALF_COMPUTE
for name in ("CUDA_R_8F_E4M3", "CUDA_R_8F_E5M2", "HIP_R_8F_E4M3", "HIP_R_8F_E5M2"):
    WHY[name] = OCP_FP8

LAYOUT = "void f(hipblasLtMatrixLayout_t* l, int m, int n) {{ hipblasLtMatrixLayoutCreate(l, {t}, m, n, m); }}\n"
DESC = "void g(hipblasLtMatmulDesc_t* d) {{ hipblasLtMatmulDescCreate(d, {c}, {s}); }}\n"


class BlasLtTypeWithoutKernels(HazardRule):
    code = "HAZ041"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid(LAYOUT.format(t="HIP_R_64F"), message=f"HIP_R_64F: {DOUBLE_COMPLEX}"),
        Invalid(LAYOUT.format(t="HIP_C_32F")),
        Invalid(DESC.format(c="HIPBLAS_COMPUTE_16F", s="HIP_R_16F"), message=f"HIPBLAS_COMPUTE_16F: {HALF_COMPUTE}"),
        Invalid(DESC.format(c="HIPBLAS_COMPUTE_64F", s="HIP_R_64F")),
        Invalid(LAYOUT.format(t="HIP_R_8F_E4M3"), message=f"HIP_R_8F_E4M3: {OCP_FP8}"),
        Valid(LAYOUT.format(t="HIP_R_16BF")),
        Valid(DESC.format(c="HIPBLAS_COMPUTE_32F", s="HIP_R_32F")),
        Valid(LAYOUT.format(t="HIP_R_8F_E4M3_FNUZ")),
        Valid("void f(cublasLtMatrixLayout_t* l) { cublasLtMatrixLayoutCreate(l, CUDA_R_16F, 4, 4, 4); }\n"),
        # a type held in a variable is not followed
        Valid("void h(hipblasLtMatrixLayout_t* l, hipDataType t) { hipblasLtMatrixLayoutCreate(l, t, 4, 4, 4); }\n"),
        # hipBLAS's own GEMM takes doubles
        Valid("void z(hipblasHandle_t h) { hipblasGemmEx_v2(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 4, 4, 4, 0, 0, HIP_R_64F, 4, "
              "0, HIP_R_64F, 4, 0, 0, HIP_R_64F, 4, HIPBLAS_COMPUTE_64F, HIPBLAS_GEMM_DEFAULT); }\n"),
    ]

    def check(self, ctx):
        if b"LtMatrixLayoutCreate" not in ctx.data and b"LtMatmulDescCreate" not in ctx.data:
            return
        apis = {}
        for name, positions in ARGUMENTS.items():
            for position in positions:
                apis.setdefault(position, {})[name] = position
        for table in apis.values():
            for token, arg in api_arguments(ctx, table):
                text = arg.text.decode("utf-8", "surrogateescape").strip()
                if text in WHY:
                    start = token.base + arg.start_byte
                    yield self.finding(ctx, start, token.base + arg.end_byte, f"{text}: {WHY[text]}")
