"""cuSOLVER's 64-bit eigensolvers that hipSOLVER lacks and hipmigrate writes on its typed ones: the block
migrate/cpp/solver_eigen64.h (namespace NAMESPACE), which CPP064 writes into a file and whose calls it qualifies.
CPP006 leaves them to CPP064."""
import re

from migrate.cpp import blocks

NAMESPACE = "hipmigrate_solver"
MARKER = "HIPMIGRATE_SOLVER_EIGEN64"
NAMES = frozenset({"cusolverDnXsyevd", "cusolverDnXsyevd_bufferSize", "cusolverDnXsyevdx",
                   "cusolverDnXsyevdx_bufferSize"})
CALL = re.compile(rb"(?<![\w:.>])((?:cu|hip)solverDnXsyevdx?(?:_bufferSize)?)\s*\(")
SINCE = (6, 4)  # hipsolverDnParams_t, which the block's functions take


def owned(name: str) -> bool:
    return name in NAMES


def block(newline: str = "\n") -> str:
    """The eigensolvers, as the block CPP064 writes into a file (guarded by MARKER)."""
    return blocks.text("solver_eigen64.h", newline)
