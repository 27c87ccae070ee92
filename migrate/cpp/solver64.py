"""cuSOLVER's 64-bit eigensolvers and SVDs that hipSOLVER lacks and hipmigrate writes on its typed ones: the block
migrate/cpp/solver64.h (namespace NAMESPACE), which CPP064 writes into a file and whose calls it qualifies.
CPP006 leaves them to CPP064."""
import re

from migrate.cpp import blocks

NAMESPACE = "hipmigrate_solver"
MARKER = "HIPMIGRATE_SOLVER64"
FUNCTIONS = ("Xsyevd", "Xsyevdx", "Xgesvd", "Xgesvdp", "Xgesvdr")
NAMES = frozenset(f"cusolverDn{f}{size}" for f in FUNCTIONS for size in ("", "_bufferSize"))
CALL = re.compile(rb"(?<![\w:.>])((?:cu|hip)solverDnX(?:syevdx?|gesvd[pr]?)(?:_bufferSize)?)\s*\(")
# what stands for each, for the findings
TYPED = {"Xsyevd": "hipSOLVER's typed eigensolver for the data types",
         "Xsyevdx": "hipSOLVER's typed eigensolver for the data types",
         "Xgesvd": "hipSOLVER's typed gesvd for the data types",
         "Xgesvdp": "hipSOLVER's typed Jacobi SVD (gesvdj) for the data types",
         "Xgesvdr": "the leading singular triplets of hipSOLVER's typed Jacobi SVD (gesvdj), exact where cuSOLVER's "
                    "are randomized"}
SINCE = (6, 4)  # hipsolverDnParams_t, which the block's functions take


def owned(name: str) -> bool:
    return name in NAMES


def block(newline: str = "\n") -> str:
    """The eigensolvers and SVDs, as the block CPP064 writes into a file (guarded by MARKER)."""
    return blocks.text("solver64.h", newline)


def typed(name: str) -> str:
    """What computes the function NAME (cusolverDnXgesvdp_bufferSize or HIP's spelling) in the block."""
    return TYPED[name.split("solverDn", 1)[1].removesuffix("_bufferSize")]
