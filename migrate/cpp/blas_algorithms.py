"""cuBLAS's algorithm choices that hipBLAS leaves to the library: the GEMM algorithm values beside the default
(`CUBLAS_GEMM_ALGO0`..`23`, the `_TENSOR_OP` ones, CUDA 13's `CUBLAS_GEMM_AUTOTUNE`) and the 3M complex GEMMs
(`cublasCgemm3m`, `cublasZgemm3m` and their batched forms). CPP055 writes hipBLAS's default algorithm and the plain
GEMM for them; CPP006 leaves them to it (but for a `case` label, which CPP043 removes)."""
import re

GEMM_ALGORITHM = re.compile(r"CUBLAS_GEMM_(?:ALGO\d+(?:_TENSOR_OP)?|DEFAULT_TENSOR_OP|DFALT_TENSOR_OP|AUTOTUNE)")
GEMM_3M = re.compile(r"cublas([CZ])gemm3m(Batched|StridedBatched)?")


def owned(name: str) -> bool:
    return GEMM_ALGORITHM.fullmatch(name) is not None or GEMM_3M.fullmatch(name) is not None


def replacement(name: str) -> str:
    """hipBLAS's name for an owned one."""
    m = GEMM_3M.fullmatch(name)
    if m is None:
        return "HIPBLAS_GEMM_DEFAULT"
    return f"hipblas{m.group(1)}gemm{m.group(2) or ''}"
