"""cuSOLVER's 64-bit eigensolvers (`cusolverDnXsyevd`, `cusolverDnXsyevdx`) and SVDs (`cusolverDnXgesvd`,
`cusolverDnXgesvdp`, `cusolverDnXgesvdr`), which hipSOLVER lacks: written on its typed ones.

cuSOLVER's 64-bit API takes the sizes as `int64_t` and the element types as `cudaDataType` values, one function for
every type. hipSOLVER has part of it (`hipsolverDnXpotrf`, `Xgetrf`, `Xgeqrf`, ...) but not the symmetric and
Hermitian eigensolvers or the SVDs. The first call in a file gets, after the includes before it, a block (namespace
`hipmigrate_solver`, HIP's spelling) where each is the typed hipSOLVER function the data types name:
- `Xsyevd` and `Xsyevdx`: `hipsolverDnDsyevd`, `hipsolverDnZheevdx`, ...;
- `Xgesvd`: `hipsolverDn<t>gesvd`, whose superdiagonal (`rwork`) the block keeps after the typed workspace in the
  device workspace it asks for;
- `Xgesvdp` (SVD through a polar decomposition, returning V): `hipsolverDn<t>gesvdj`, the Jacobi SVD, which returns V
  too; it computes the SVD itself, so the perturbation `h_err_sigma` cuSOLVER reports is 0;
- `Xgesvdr` (randomized SVD of rank k): the exact SVD by `gesvdj` in the device workspace, of which the k leading
  singular values and vectors are copied out on the handle's stream: what the randomized one approximates, at the
  cost of the whole SVD (oversampling and iterations do not apply).

Sizes that do not fit an `int` are an invalid value, the device workspace is given in bytes as cuSOLVER's, no host
workspace is needed, and a type pair cuSOLVER would refuse is an invalid value too. Every call is qualified with the
namespace. The block takes hipSOLVER's `hipsolverDnParams_t`, which came with HIP 6.4: an older target is told so,
unfixed. The other 64-bit functions hipSOLVER lacks (`Xtrtri`, `Xgeev`) stay CPP006's: hipSOLVER has no typed `trtri`
or `geev` to stand on. benchmarks/device/solver64_check.sh compares the block, on cuSOLVER's typed functions, with
cuSOLVER's 64-bit ones on an NVIDIA GPU.
"""
from migrate.cpp import blocks
from migrate.cpp.solver64 import CALL, MARKER, NAMESPACE, SINCE, block, typed
from migrate.rule import CppRule, Invalid, Valid

OLD = (("hip_version", "5.2"),)
SOLVE = ("#include <cusolverDn.h>\n"
         "void eig(cusolverDnHandle_t h, cusolverDnParams_t p, double* a, double* w, void* d, size_t db, void* hb,\n"
         "         size_t hbytes, int* info) {\n"
         "    cusolverDnXsyevd(h, p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, 8, CUDA_R_64F, a, 8, CUDA_R_64F, w,\n"
         "                     CUDA_R_64F, d, db, hb, hbytes, info);\n}\n")
SVD = ("#include <cusolverDn.h>\n"
       "void svd(cusolverDnHandle_t h, cusolverDnParams_t p, float* a, float* s, float* u, float* v, void* d, size_t db,\n"
       "         int* info) {\n"
       "    cusolverDnXgesvdr(h, p, 'S', 'S', 6, 4, 2, 1, 2, CUDA_R_32F, a, 6, CUDA_R_32F, s, CUDA_R_32F, u, 6, CUDA_R_32F,\n"
       "                      v, 4, CUDA_R_32F, d, db, nullptr, 0, info);\n}\n")


class Solver64Bit(CppRule):
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
                message="hipSOLVER has no cusolverDnXsyevd, and the typed functions that stand for it take "
                        "hipsolverDnParams_t from HIP 6.4, not in HIP 5.2"),
        Invalid(SVD, line=4,
                fixed="#include <cusolverDn.h>\n" + block() + "\n" + SVD.split("\n", 1)[1]
                .replace("cusolverDnHandle_t", "hipsolverHandle_t").replace("cusolverDnParams_t", "hipsolverDnParams_t")
                .replace("cusolverDnXgesvdr", "hipmigrate_solver::hipsolverDnXgesvdr").replace("CUDA_R_32F", "HIP_R_32F"),
                message="hipSOLVER has no cusolverDnXgesvdr: hipmigrate_solver::hipsolverDnXgesvdr computes it with the "
                        "leading singular triplets of hipSOLVER's typed Jacobi SVD (gesvdj), exact where cuSOLVER's are "
                        "randomized"),
        Valid("void f(hipsolverHandle_t h) { hipmigrate_solver::hipsolverDnXsyevd_bufferSize(h); }\n"),
    ]

    def check(self, ctx):
        if b"solverDnXsyevd" not in ctx.data and b"solverDnXgesvd" not in ctx.data:
            return
        present, found = blocks.cuda_sites(ctx, CALL, MARKER)
        if not found:
            return
        if ctx.target_tuple < SINCE:
            yield from blocks.too_old(self, ctx, found, lambda name, release: (
                f"hipSOLVER has no {name}, and the typed functions that stand for it take hipsolverDnParams_t from "
                f"HIP {SINCE[0]}.{SINCE[1]}, not in HIP {release}"))
            return
        header = ctx.packs.headers["cusolverDn.h"].hip_for(ctx.target_tuple)
        yield from blocks.qualified(self, ctx, found, present,
                                    block(ctx.newline).replace("<hipsolver/hipsolver.h>", f"<{header}>"), NAMESPACE,
                                    lambda name, written: f"hipSOLVER has no {name}: {written} computes it with "
                                                          f"{typed(name)}")
