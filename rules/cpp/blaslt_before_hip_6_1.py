"""cuBLASLt code migrated for a HIP whose hipBLASLt predates the API the packs write (target before 6.1).

The packs map cuBLASLt onto hipBLASLt's current API (rules/mappings/cublaslt.toml): `cudaDataType_t` arguments become
`hipDataType` (`HIP_R_16BF`), compute types become `hipblasComputeType_t` (`HIPBLAS_COMPUTE_32F`). hipBLASLt first
shipped with ROCm 5.5 (hipBLASLt 0.1, gfx90a only; rocm.docs.amd.com documents it from its 5.5.0 docs), and its
releases up to ROCm 6.0 took their own enums instead (`hipblasltDatatype_t` with `HIPBLASLT_R_16F`,
`hipblasLtComputeType_t`; hipBLASLt's changelog: 0.6 "replaced hipblasDatatype_t with hipDataType, replaced
hipblasLtComputeType_t with hipblasComputeType_t", and the ROCm 6.0 documentation still lists hipblasltDatatype_t).
So for a target before 6.1 the migrated calls do not build: before 5.5 there is no hipBLASLt at all (Debian 12's
HIP 5.2 has none), from 5.5 to 6.0 the type arguments differ. Reported once per file, at the cuBLASLt include or the
first cuBLASLt name, as a warning; the fix is a newer target or the GEMMs on hipBLAS (`hipblasGemmEx`).
"""
import re

from migrate.cpp.includes import includes
from migrate.model import Severity
from migrate.packs import version_tuple
from migrate.rule import CppRule, Invalid, Valid

FIRST = (6, 1)
NAMES = re.compile(r"^(?:cublasLt|CUBLASLT_|hipblasLt|HIPBLASLT_)")
HEADERS = {"cublasLt.h", "hipblaslt.h", "hipblaslt/hipblaslt.h"}
OLD = (("hip_version", "5.2"),)
GEMM = ("#include <cublasLt.h>\nvoid gemm(cublasLtHandle_t lt, cublasLtMatmulDesc_t* d) {\n"
        "    cublasLtMatmulDescCreate(d, CUBLAS_COMPUTE_32F, CUDA_R_32F);\n}\n")
GEMM_HIP = ("#include <hipblaslt/hipblaslt.h>\nvoid gemm(hipblasLtHandle_t lt, hipblasLtMatmulDesc_t* d) {\n"
            "    hipblasLtMatmulDescCreate(d, HIPBLAS_COMPUTE_32F, HIP_R_32F);\n}\n")


def message(target: str) -> str:
    why = ("HIP before 5.5 has no hipBLASLt" if version_tuple(target) < (5, 5) else
           "hipBLASLt before ROCm 6.1 takes its own hipblasltDatatype_t and hipblasLtComputeType_t")
    return (f"hipBLASLt as migrated (hipDataType, hipblasComputeType_t) needs HIP 6.1 (target {target}): {why}; "
            "pass --hip-version 6.1 or later, or move these GEMMs to hipBLAS (hipblasGemmEx)")


class BlasLtBeforeHip61(CppRule):
    code = "CPP040"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("#include <cublasLt.h>\n", line=1, options=OLD, message=message("5.2")),
        Invalid(GEMM_HIP, line=1, options=(("hip_version", "5.7"),), message=message("5.7")),
        # no include in this file (a project header brings it): at the first hipBLASLt name
        Invalid("void destroy(hipblasLtHandle_t lt) { hipblasLtDestroy(lt); }\n", line=1, options=OLD),
        Invalid("#include <hipblaslt/hipblaslt.h>\n", line=1, options=(("hip_version", "6.0"),)),
        Valid(GEMM, options=(("hip_version", "6.1"),)),
        Valid(GEMM, options=(("hip_version", "6.4"),)),
        Valid("#include <cublas_v2.h>\nvoid f(cublasHandle_t h) { cublasDestroy(h); }\n", options=OLD),
        Valid('// cublasLtCreate(&lt) is not called here\nconst char* s = "cublasLtMatmul";\n', options=OLD),
    ]

    def check(self, ctx):
        if ctx.target_tuple >= FIRST or (b"ublasLt" not in ctx.data and b"ipblasLt" not in ctx.data
                                         and b"ipblaslt" not in ctx.data and b"BLASLT_" not in ctx.data):
            return
        for m, header in includes(ctx):
            if header in HEADERS:
                yield self.finding(ctx, m.start(), m.end(2) + 1, message(ctx.target))
                return
        for token in ctx.code_tokens():
            if NAMES.match(token.name):
                yield self.finding(ctx, token.start, token.end, message(ctx.target))
                return
