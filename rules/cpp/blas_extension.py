"""cuBLAS extensions hipBLAS lacks (`cublasCherkEx`, `cublasCsyrk3mEx`, `cublasDtpttr`, `cublasStrttp`, the grouped
GEMMs): written on hipBLAS's own functions.

- `cublasCherkEx`, `cublasCherk3mEx`, `cublasCsyrkEx` and `cublasCsyrk3mEx` take A and C with their data types; cuBLAS
  accepts complex single for both, or 8-bit complex A with complex single C. They become `hipblasCherk` and
  `hipblasCsyrk` for complex single (3m names an algorithm, not a result); 8-bit complex A returns
  `HIPBLAS_STATUS_NOT_SUPPORTED`.
- `cublas<t>tpttr` and `cublas<t>trttp` (S, D, C, Z) unpack and pack a triangular matrix: the triangle is copied a
  column at a time on the handle's stream (`hipMemcpyAsync`), the other triangle untouched, as cuBLAS leaves it.
- `cublasSgemmGroupedBatched`, `cublasDgemmGroupedBatched` and `cublasGemmGroupedBatchedEx` are one batched GEMM a
  group (`hipblasSgemmBatched`, `hipblasDgemmBatched`, `hipblasGemmBatchedEx`) over the group's slice of the pointer
  arrays, with the scalars read from the host as cuBLAS's grouped GEMMs read theirs (the handle's pointer mode is
  set to host for the call and restored). One launch a group, where cuBLAS may use one for all.

The first call in a file gets, after the includes before it, a block (namespace `hipmigrate_blas`, HIP's spelling) with
the functions, and every call is qualified with the namespace. The block passes hipBLAS's `hipComplex` and
`hipDataType` arguments, which hipBLAS takes without `HIPBLAS_V2` from HIP 7: an older target is told so, unfixed. The
64-bit (`_64`) forms stay CPP006's.
"""
from migrate.cpp import blocks
from migrate.cpp.blas_extensions import CALL, MARKER, NAMESPACE, SINCE, block
from migrate.rule import CppRule, Invalid, Valid

HOW = {"herk": "hipBLAS's Cherk where A and C are complex single (8-bit complex A is not supported)",
       "syrk": "hipBLAS's Csyrk where A and C are complex single (8-bit complex A is not supported)",
       "tpttr": "copies of the triangle's columns on the handle's stream",
       "trttp": "copies of the triangle's columns on the handle's stream",
       "Grouped": "one hipBLAS batched GEMM a group"}
PACK = ("#include <cublas_v2.h>\n"
        "cublasStatus_t unpack(cublasHandle_t h, const double* ap, double* a, int n) {\n"
        "    return cublasDtpttr(h, CUBLAS_FILL_MODE_UPPER, n, ap, a, n);\n}\n")
PACK_HIP = PACK.split("\n", 1)[1].replace("cublasStatus_t", "hipblasStatus_t").replace("cublasHandle_t", "hipblasHandle_t") \
    .replace("CUBLAS_FILL_MODE_UPPER", "HIPBLAS_FILL_MODE_UPPER")
GROUPED = ("#include <cublas_v2.h>\n"
           "void run(cublasHandle_t h, const cublasOperation_t* t, const int* m, const float* s, const float* const* a,\n"
           "         float* const* c, const int* size) {\n"
           "    cublasSgemmGroupedBatched(h, t, t, m, m, m, s, a, m, a, m, s, c, m, 2, size);\n}\n")


def _how(name: str) -> str:
    return next(text for key, text in HOW.items() if key in name)


class BlasExtension(CppRule):
    code = "CPP065"
    examples = [
        Invalid(PACK, line=3,
                fixed="#include <cublas_v2.h>\n" + block() + "\n"
                + PACK_HIP.replace("cublasDtpttr", "hipmigrate_blas::hipblasDtpttr"),
                message="hipBLAS has no cublasDtpttr: hipmigrate_blas::hipblasDtpttr computes it with copies of the "
                        "triangle's columns on the handle's stream"),
        Invalid(GROUPED, line=4,
                fixed="#include <cublas_v2.h>\n" + block() + "\n" + GROUPED.split("\n", 1)[1]
                .replace("cublasHandle_t", "hipblasHandle_t").replace("cublasOperation_t", "hipblasOperation_t")
                .replace("cublasSgemmGroupedBatched", "hipmigrate_blas::hipblasSgemmGroupedBatched"),
                message="hipBLAS has no cublasSgemmGroupedBatched: hipmigrate_blas::hipblasSgemmGroupedBatched "
                        "computes it with one hipBLAS batched GEMM a group"),
        Invalid(PACK, line=3, options=(("hip_version", "6.4"),),
                fixed=PACK.split("\n", 1)[0] + "\n" + PACK_HIP,
                message="hipBLAS has no cublasDtpttr, and the block that stands for it passes hipComplex and "
                        "hipDataType, which hipBLAS takes without HIPBLAS_V2 from HIP 7.0, not in HIP 6.4"),
        # what the block already gives, the 64-bit forms (CPP006's) and a project's own names
        Valid("void f(hipblasHandle_t h, double* a) { hipmigrate_blas::hipblasDtrttp(h, HIPBLAS_FILL_MODE_UPPER, 1, a, 1, a); }\n"),
        Valid("int cublasCherkExLike(int n);\nint g() { return cublasCherkExLike(2); }\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"tpttr" not in data and b"trttp" not in data and b"rkEx" not in data and b"GroupedBatched" not in data \
                and b"rk3mEx" not in data:
            return
        present, found = blocks.cuda_sites(ctx, CALL, MARKER)
        if not found:
            return
        if ctx.target_tuple < SINCE:
            yield from blocks.too_old(self, ctx, found, lambda name, release: (
                f"hipBLAS has no {name}, and the block that stands for it passes hipComplex and hipDataType, which "
                f"hipBLAS takes without HIPBLAS_V2 from HIP {SINCE[0]}.{SINCE[1]}, not in HIP {release}"))
            return
        header = ctx.packs.headers["cublas_v2.h"].hip_for(ctx.target_tuple)
        yield from blocks.qualified(self, ctx, found, present, block(ctx.newline, header), NAMESPACE,
                                    lambda name, written: f"hipBLAS has no {name}: {written} computes it with {_how(name)}")
