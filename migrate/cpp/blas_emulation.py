"""cuBLAS's emulation settings (CUDA 13), which hipBLAS lacks: what CPP058 writes for them. The math modes and compute
types that allow an emulated GEMM become hipBLAS's plain ones; the setting calls, their types and values come from the
block migrate/cpp/blas_emulation.h, which CPP058 writes into the file, in namespace NAMESPACE. CPP006 leaves them to
CPP058. The getters are not in the block: what cuBLAS would report is not known here, so they stay CPP006's."""
import re

from migrate.cpp import blocks

NAMESPACE = "hipmigrate_blas"
MARKER = "HIPMIGRATE_BLAS_EMULATION"
# an emulated method's value -> the plain one's CUDA name (the packs give its HIP name)
PLAIN = {"CUBLAS_FP32_EMULATED_BF16X9_MATH": "CUBLAS_DEFAULT_MATH", "CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH": "CUBLAS_DEFAULT_MATH",
         "CUBLAS_COMPUTE_32F_EMULATED_16BFX9": "CUBLAS_COMPUTE_32F",
         "CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT": "CUBLAS_COMPUTE_64F"}
IN_BLOCK = re.compile(r"cudaEmulation(?:Strategy|MantissaControl|SpecialValuesSupport)(?:_t)?|cublasEmulationStrategy_t"
                      r"|CUDA_EMULATION_(?:STRATEGY_(?:DEFAULT|PERFORMANT|EAGER)|MANTISSA_CONTROL_(?:DYNAMIC|FIXED)"
                      r"|SPECIAL_VALUES_SUPPORT_(?:DEFAULT|NONE|INFINITY|NAN))"
                      r"|CUBLAS_EMULATION_STRATEGY_(?:DEFAULT|PERFORMANT|EAGER)"
                      r"|cublasSet(?:EmulationStrategy|EmulationSpecialValuesSupport|FixedPointEmulation(?:MantissaControl"
                      r"|MaxMantissaBitCount|MantissaBitOffset|MantissaBitCountPointer))")


def owned(name: str) -> bool:
    return name in PLAIN or IN_BLOCK.fullmatch(name) is not None


def block(newline: str = "\n", header: str = "hipblas/hipblas.h") -> str:
    """The settings, as the block CPP058 writes into a file (guarded by MARKER), including hipBLAS as HEADER (the
    target release's name for it: hipblas.h before HIP 6)."""
    return blocks.text("blas_emulation.h", newline).replace("<hipblas/hipblas.h>", f"<{header}>")
