"""cuBLAS's and cuSOLVER's choices of method that the HIP libraries leave to themselves: the GEMM algorithm values
beside the default (`CUBLAS_GEMM_ALGO0`..`23`, the `_TENSOR_OP` ones, CUDA 13's `CUBLAS_GEMM_AUTOTUNE`), the 3M
complex GEMMs (`cublasCgemm3m`, `cublasZgemm3m` and their batched forms) and cuSOLVER's mixed-precision solvers
with iterative refinement (`cusolverDnDHgesv`: double data, half precision inside; hipSOLVER has the same-precision
ones, `hipsolverDnDDgesv`). CPP055 writes hipBLAS's default algorithm, the plain GEMM and the same-precision solver
for them; CPP006 leaves them to it (but for a `case` label, which CPP043 removes)."""
import re

GEMM_ALGORITHM = re.compile(r"CUBLAS_GEMM_(?:ALGO\d+(?:_TENSOR_OP)?|DEFAULT_TENSOR_OP|DFALT_TENSOR_OP|AUTOTUNE)")
GEMM_3M = re.compile(r"cublas([CZ])gemm3m(Batched|StridedBatched)?")
# cuSOLVER's solvers with refinement: the data type, then a lower precision used inside (cusolverDn<T><L>gesv)
REFINED = re.compile(r"cusolverDn(?:D[SHBX]|S[HBX]|Z[CKEY]|C[KEY])(gesv|gels)(_bufferSize)?")


def owned(name: str) -> bool:
    return any(p.fullmatch(name) is not None for p in (GEMM_ALGORITHM, GEMM_3M, REFINED))


def plain_solver(name: str) -> str | None:
    """The same-precision cuSOLVER name of a refined solver (cusolverDnDHgesv -> cusolverDnDDgesv), else None."""
    if REFINED.fullmatch(name) is None:
        return None
    kind = name[len("cusolverDn")]
    return f"cusolverDn{kind}{kind}{name[len('cusolverDn') + 2:]}"


def replacement(name: str) -> str:
    """hipBLAS's name for an owned one."""
    m = GEMM_3M.fullmatch(name)
    if m is None:
        return "HIPBLAS_GEMM_DEFAULT"
    return f"hipblas{m.group(1)}gemm{m.group(2) or ''}"
