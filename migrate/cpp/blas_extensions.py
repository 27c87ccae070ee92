"""cuBLAS extensions that hipBLAS lacks and hipmigrate writes on its own functions: the block
migrate/cpp/blas_extensions.h (namespace NAMESPACE), which CPP065 writes into a file and whose calls it qualifies.
CPP006 leaves them to CPP065; their 64-bit (`_64`) forms stay CPP006's."""
import re

from migrate.cpp import blocks

NAMESPACE = "hipmigrate_blas"
MARKER = "HIPMIGRATE_BLAS_EXTENSIONS"
NAMES = frozenset({"cublasCherkEx", "cublasCherk3mEx", "cublasCsyrkEx", "cublasCsyrk3mEx",
                   *(f"cublas{t}{op}" for t in "SDCZ" for op in ("tpttr", "trttp")),
                   "cublasSgemmGroupedBatched", "cublasDgemmGroupedBatched", "cublasGemmGroupedBatchedEx"})
CALL = re.compile(rb"(?<![\w:.>])((?:cu|hip)blas(?:C(?:herk|syrk)(?:3m)?Ex|[SDCZ](?:tpttr|trttp)"
                  rb"|[SD]gemmGroupedBatched|GemmGroupedBatchedEx))\s*\(")
SINCE = (7, 0)  # hipBLAS's hipComplex and hipDataType arguments without HIPBLAS_V2


def owned(name: str) -> bool:
    return name in NAMES


def block(newline: str = "\n", header: str = "hipblas/hipblas.h") -> str:
    """The extensions, as the block CPP065 writes into a file (guarded by MARKER), including hipBLAS as HEADER."""
    return blocks.text("blas_extensions.h", newline).replace("<hipblas/hipblas.h>", f"<{header}>")
