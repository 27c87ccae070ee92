"""cuBLAS's emulation settings (CUDA 13), which hipBLAS lacks: the GEMM runs in the precision its types name.

CUDA 13's cuBLAS can emulate a precision with faster products of lower precision: double-precision GEMMs through
fixed-point integer products (`CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH`, `CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT`) and
single-precision ones through BF16x9 (`CUBLAS_FP32_EMULATED_BF16X9_MATH`, `CUBLAS_COMPUTE_32F_EMULATED_16BFX9`), tuned
by `cublasSetEmulationStrategy`, `cublasSetFixedPointEmulationMantissaControl` and the like. Each is a choice of
method: cuBLAS emulates to at least the accuracy of the type, or falls back to it. hipBLAS has no emulated GEMM. The
math modes and compute types become hipBLAS's plain ones (`HIPBLAS_DEFAULT_MATH`, `HIPBLAS_COMPUTE_64F`,
`HIPBLAS_COMPUTE_32F`); the setting calls, with their types and values, come from a block the first one in a file gets
after the includes before it (namespace `hipmigrate_blas`, HIP's spelling, CUDA's values), where setting succeeds and
changes nothing. A target older than the plain value's HIP release is told so, unfixed. The getters stay CPP006's:
what cuBLAS would report is not known here. Timings that measured emulation measure the plain GEMM after the port.
"""
import re

from migrate.cpp import blocks
from migrate.cpp.blas_emulation import IN_BLOCK, MARKER, NAMESPACE, PLAIN, block
from migrate.cpp.spelling import hip_spelling
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

NAME = re.compile(rb"(?<![\w:.>])(" + IN_BLOCK.pattern.encode() + rb"|" + "|".join(PLAIN).encode() + rb")\b")
SETUP = ("#include <cublas_v2.h>\n"
         "void setup(cublasHandle_t h, cudaEmulationMantissaControl_t control) {\n"
         "    cublasSetMathMode(h, CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH);\n"
         "    cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER);\n"
         "    cublasSetFixedPointEmulationMantissaControl(h, control);\n}\n")
SETUP_HIP = ("#include <cublas_v2.h>\n" + block() + "\n"
             "void setup(hipblasHandle_t h, hipmigrate_blas::hipEmulationMantissaControl_t control) {\n"
             "    hipblasSetMathMode(h, HIPBLAS_DEFAULT_MATH);\n"
             "    hipmigrate_blas::hipblasSetEmulationStrategy(h, hipmigrate_blas::HIPBLAS_EMULATION_STRATEGY_EAGER);\n"
             "    hipmigrate_blas::hipblasSetFixedPointEmulationMantissaControl(h, control);\n}\n")


def _message(name: str, hip: str) -> str:
    if name in PLAIN:
        return (f"{name} allows cuBLAS to emulate the precision with faster lower-precision products; hipBLAS has no "
                f"emulated GEMM: {hip} computes in the precision itself")
    return (f"{name} sets how cuBLAS emulates a precision; hipBLAS has no emulated GEMM: {NAMESPACE}::{hip} keeps the "
            "setting, which changes nothing")


class BlasEmulationSetting(CppRule):
    code = "CPP058"
    examples = [
        Invalid(SETUP, line=2, fixed=SETUP_HIP, options=(("hip_version", "7.2"),),
                message="cudaEmulationMantissaControl_t sets how cuBLAS emulates a precision; hipBLAS has no emulated "
                        "GEMM: hipmigrate_blas::hipEmulationMantissaControl_t keeps the setting, which changes nothing"),
        Invalid("hipblasComputeType_t compute() { return CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT; }",
                fixed="hipblasComputeType_t compute() { return HIPBLAS_COMPUTE_64F; }",
                message="CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT allows cuBLAS to emulate the precision with faster "
                        "lower-precision products; hipBLAS has no emulated GEMM: HIPBLAS_COMPUTE_64F computes in the "
                        "precision itself"),
        # before hipBLAS's compute types (HIP 6.4 here): told, not fixed
        Invalid("#include <cublas_v2.h>\nint compute() { return CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT; }",
                options=(("hip_version", "5.2"),), line=2,
                fixed="#include <cublas_v2.h>\nint compute() { return CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT; }",
                message="CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT allows cuBLAS to emulate the precision with faster "
                        "lower-precision products; hipBLAS has no emulated GEMM, and HIP 5.2 not HIPBLAS_COMPUTE_64F "
                        "(from HIP 6.4)"),
        # what the block already gives, a getter (CPP006's), names in comments and a project's own names
        Valid("void f(hipblasHandle_t h) { hipmigrate_blas::hipblasSetEmulationStrategy(h, "
              "hipmigrate_blas::HIPBLAS_EMULATION_STRATEGY_EAGER); }"),
        Valid("// cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER) is CUDA 13's\n"
              "int cublasSetEmulationStrategyOnce(int s) { return s; }\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"EMULAT" not in data and b"Emulation" not in data:
            return
        present, sites = blocks.sites(ctx, NAME, MARKER)
        insert = []
        for m in sites:
            name = m.group(1).decode()
            if name in PLAIN:
                mapping = ctx.packs.names[PLAIN[name]]
                if mapping.newer_than(ctx.target_tuple):
                    release = ".".join(map(str, ctx.target_tuple))
                    yield self.finding(ctx, m.start(1), m.end(1), f"{name} allows cuBLAS to emulate the precision with "
                                       f"faster lower-precision products; hipBLAS has no emulated GEMM, and HIP {release} "
                                       f"not {mapping.hip} (from HIP {mapping.since})", severity=Severity.ERROR)
                    continue
                yield self.finding(ctx, m.start(1), m.end(1), _message(name, mapping.hip),
                                   edits=[Edit(m.start(1), m.end(1), mapping.hip)], title=f"Write {mapping.hip}")
                continue
            if not present and not insert:
                header = ctx.packs.headers["cublas_v2.h"].hip_for(ctx.target_tuple)
                insert = [blocks.place(ctx, m.start(), block(ctx.newline, header))]
            hip = hip_spelling(name)
            yield self.finding(ctx, m.start(1), m.end(1), _message(name, hip),
                               edits=[*insert, Edit(m.start(1), m.end(1), f"{NAMESPACE}::{hip}")],
                               title=f"Use {NAMESPACE}::{hip}")
