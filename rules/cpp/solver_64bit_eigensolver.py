"""cuSOLVER's 64-bit eigensolvers `cusolverDnXsyevd` and `cusolverDnXsyevdx`, which hipSOLVER lacks: written on its
typed ones.

cuSOLVER's 64-bit API takes the sizes as `int64_t` and the element types as `cudaDataType` values, one function for
every type. hipSOLVER has part of it (`hipsolverDnXpotrf`, `Xgetrf`, `Xgeqrf`, ...) but not the symmetric and
Hermitian eigensolvers. The first call in a file gets, after the includes before it, a block (namespace
`hipmigrate_solver`, HIP's spelling) where each is the typed hipSOLVER function the data types name
(`hipsolverDnDsyevd`, `hipsolverDnZheevdx`, ...): sizes that do not fit an `int` are an invalid value, the device
workspace is given in bytes as cuSOLVER's, no host workspace is needed, and a type pair cuSOLVER would refuse is an
invalid value too. Every call is qualified with the namespace. The block takes hipSOLVER's `hipsolverDnParams_t`,
which came with HIP 6.4: an older target is told so, unfixed. The other 64-bit functions hipSOLVER lacks
(`Xgesvd`, `Xgesvdp`, `Xgesvdr`, `Xtrtri`, `Xgeev`) stay CPP006's: hipSOLVER has no typed `gesvdp`, `gesvdr`,
`trtri` or `geev` to stand on, and its typed `gesvd` needs a real workspace the 64-bit call does not pass.
benchmarks/device/solver_eigen64_check.sh compares the block, on cuSOLVER's typed functions, with cuSOLVER's 64-bit
ones on an NVIDIA GPU: the same eigenvalues bit for bit for all four element types (an H100, 2026-12-06).
"""
from migrate.cpp import blocks
from migrate.cpp.solver_eigen64 import CALL, MARKER, NAMESPACE, SINCE, block
from migrate.cpp.spelling import hip_spelling
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

OLD = (("hip_version", "5.2"),)
SOLVE = ("#include <cusolverDn.h>\n"
         "void eig(cusolverDnHandle_t h, cusolverDnParams_t p, double* a, double* w, void* d, size_t db, void* hb,\n"
         "         size_t hbytes, int* info) {\n"
         "    cusolverDnXsyevd(h, p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, 8, CUDA_R_64F, a, 8, CUDA_R_64F, w,\n"
         "                     CUDA_R_64F, d, db, hb, hbytes, info);\n}\n")


class Solver64BitEigensolver(CppRule):
    code = "CPP064"
    examples = [
        Invalid(SOLVE, line=4,
                fixed="#include <cusolverDn.h>\n" + block() + "\n" + SOLVE.split("\n", 1)[1]
                .replace("cusolverDnHandle_t", "hipsolverHandle_t").replace("cusolverDnParams_t", "hipsolverDnParams_t")
                .replace("cusolverDnXsyevd", "hipmigrate_solver::hipsolverDnXsyevd")
                .replace("CUSOLVER_EIG_MODE_VECTOR", "HIPSOLVER_EIG_MODE_VECTOR")
                .replace("CUBLAS_FILL_MODE_LOWER", "HIPBLAS_FILL_MODE_LOWER").replace("CUDA_R_64F", "HIP_R_64F"),
                message="hipSOLVER has no cusolverDnXsyevd: hipmigrate_solver::hipsolverDnXsyevd computes it with "
                        "hipSOLVER's typed eigensolver for the data types"),
        Invalid(SOLVE, line=4, options=OLD,
                fixed=SOLVE.replace("cusolverDnHandle_t", "hipsolverHandle_t").replace("cusolverDnParams_t", "hipsolverDnParams_t")
                .replace("CUSOLVER_EIG_MODE_VECTOR", "HIPSOLVER_EIG_MODE_VECTOR")
                .replace("CUBLAS_FILL_MODE_LOWER", "HIPBLAS_FILL_MODE_LOWER").replace("CUDA_R_64F", "HIP_R_64F"),
                message="hipSOLVER has no cusolverDnXsyevd, and the typed eigensolvers that stand for it take "
                        "hipsolverDnParams_t from HIP 6.4, not in HIP 5.2"),
        Valid("void f(hipsolverHandle_t h) { hipmigrate_solver::hipsolverDnXsyevd_bufferSize(h); }\n"),
    ]

    def check(self, ctx):
        if b"solverDnXsyevd" not in ctx.data:
            return
        present, sites = blocks.sites(ctx, CALL, MARKER)
        sites = [m for m in sites if m.group(1).startswith(b"cu")]
        if not sites:
            return
        if ctx.target_tuple < SINCE:
            release = ".".join(map(str, ctx.target_tuple))
            for m in sites:
                yield self.finding(ctx, m.start(1), m.end(1), f"hipSOLVER has no {m.group(1).decode()}, and the typed "
                                   "eigensolvers that stand for it take hipsolverDnParams_t from HIP "
                                   f"{SINCE[0]}.{SINCE[1]}, not in HIP {release}", severity=Severity.ERROR)
            return
        header = ctx.packs.headers["cusolverDn.h"].hip_for(ctx.target_tuple)
        insert = [] if present else [blocks.place(ctx, sites[0].start(), block(ctx.newline).replace(
            "<hipsolver/hipsolver.h>", f"<{header}>"))]
        for m in sites:
            name = m.group(1).decode()
            hip = hip_spelling(name)
            yield self.finding(ctx, m.start(1), m.end(1), f"hipSOLVER has no {name}: {NAMESPACE}::{hip} computes it "
                               "with hipSOLVER's typed eigensolver for the data types",
                               edits=[*insert, Edit(m.start(1), m.end(1), f"{NAMESPACE}::{hip}")],
                               title=f"Use {NAMESPACE}::{hip}")
