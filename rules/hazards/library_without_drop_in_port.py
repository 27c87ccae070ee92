"""A CUDA library whose ROCm counterpart is not a rename: cudnn_frontend, CUTLASS, libcu++ and the parts of
cooperative groups HIP lacks; and Thrust's CUDA policy.

hipify-style renaming cannot port these: cudnn_frontend (NVIDIA's header-only C++ graph API over cuDNN's backend)
has no MIOpen build (cuDNN's C API is mapped: rules/mappings/cudnn.toml, CPP030-CPP033), and CUTLASS/CuTe templates
have no AMD build (Composable Kernel or hipBLASLt instead). WMMA (`mma.h`, `nvcuda::wmma`) is not here: CPP052
writes it for rocWMMA and reports the fragments rocWMMA lacks. cuBLASLt is not here: the
packs map it onto hipBLASLt (rules/mappings/cublaslt.toml), and CPP040, HAZ040 and HAZ041 report where hipBLASLt
differs. libcu++ (`<cuda/barrier>`, `<cuda/atomic>`, `<cuda/std/...>`: `cuda::barrier`, `cuda::pipeline`,
`cuda::atomic_ref`) ships with no ROCm release, and HIP's cooperative groups (5.2 to 6.4) have no
`cooperative_groups/reduce.h`, `scan.h` or `memcpy_async.h` (`cg::reduce`, `cg::inclusive_scan`,
`cg::memcpy_async`). Each library is reported once per file, at its include or else at its first use (ERROR),
except a libcu++ that CPP068 writes (a file using only `cuda::barrier`, `cuda::memcpy_async` and the per-thread
`cuda::pipeline`).

`thrust::cuda::par` (and `par_nosync`) is the one mechanical case: rocThrust spells the policy
`thrust::hip::par`, so that is a SAFE fix.
"""
import re

from migrate.cpp import cuda_barrier, parse
from migrate.model import Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

INCLUDES = parse.query("(preproc_include path: (_) @path)")
FRONTEND = re.compile(rb"(?<![\w:])(cudnn_frontend)\s*::")
THRUST_CUDA = re.compile(rb"\bthrust\s*::\s*(cuda)\s*::\s*par(?:_nosync)?\b")
LIBRARIES = {
    "cudnn_frontend": ("cudnn_frontend (NVIDIA's C++ graph API)", "has no MIOpen build: express the graph with "
                       "MIOpen's backend API (miopenBackend*, with MIOPEN_BETA_API), its Find 2.0 problems "
                       "(miopenCreateConvProblem, miopenFindSolutions, miopenRunSolution) or a fusion plan (from ROCm 7, "
                       "hipDNN's hipdnn_frontend, in beta, follows cudnn_frontend's graph API)",
                       Severity.ERROR),
    "cutlass": ("CUTLASS", "has no AMD build: use Composable Kernel or hipBLASLt", Severity.ERROR),
    "libcudacxx": ("libcu++ (<cuda/...>)", "ships with no ROCm release: write cuda::barrier, cuda::pipeline and "
                   "cuda::atomic with __syncthreads(), HIP's atomics and std:: types by hand", Severity.ERROR),
    "cg_extras": ("cooperative groups' memcpy_async", "is not in HIP's cooperative groups: write the copies by hand "
                  "(plain loads and stores, then group.sync())", Severity.ERROR),
}


def library_of_include(path: str) -> str | None:
    name = path.strip("<>\"")
    if name.startswith(("cudnn_frontend", "cudnn-frontend/")):
        return "cudnn_frontend"
    if name.startswith(("cutlass/", "cute/")):
        return "cutlass"
    if cuda_barrier.libcudacxx(name):  # libcu++'s headers have no extension; a project's own "cuda/kernels.h" does
        return "libcudacxx"
    if name == "cooperative_groups/memcpy_async.h":  # reduce.h and scan.h: CPP023 writes them
        return "cg_extras"
    return None


def message(library: str) -> str:
    title, advice, _ = LIBRARIES[library]
    return f"{title} {advice}"


class LibraryWithoutDropInPort(HazardRule):
    code = "HAZ016"
    severity = Severity.ERROR
    examples = [
        Invalid("#include <cudnn_frontend.h>\nnamespace fe = cudnn_frontend;\n", line=1,
                message=message("cudnn_frontend")),
        Invalid('#include "cutlass/gemm/device/gemm.h"\n', message=message("cutlass")),
        # once a file, at the first include of the library
        Invalid("".join(f'#include "cutlass/part{i}.h"\n' for i in range(8)), line=1, message=message("cutlass")),
        Invalid("void s(int* b, int* e, hipStream_t st) { thrust::sort(thrust::cuda::par.on(st), b, e); }\n",
                fixed="void s(int* b, int* e, hipStream_t st) { thrust::sort(thrust::hip::par.on(st), b, e); }\n",
                message="thrust::cuda::par is CUDA Thrust's execution policy: rocThrust spells it thrust::hip::par"),
        Invalid("#include <cuda/barrier>\n#include <cuda/atomic>\n"
                "__global__ void k(cuda::atomic<int>* n) { __shared__ cuda::barrier<cuda::thread_scope_block> b; }\n",
                line=1, message=message("libcudacxx")),
        Invalid("#include <cooperative_groups.h>\n#include <cooperative_groups/memcpy_async.h>\n", line=2,
                message=message("cg_extras")),
        Invalid("void g() { auto graph = cudnn_frontend::graph::Graph(); }\n", message=message("cudnn_frontend")),
        Valid("#include <miopen/miopen.h>\n#include <rocwmma/rocwmma.hpp>\n"),
        Valid("#include <cudnn.h>\n#include <cudnn_ops.h>\n"),  # cuDNN's C API: the cudnn pack and CPP030-CPP033
        Valid("#include <cooperative_groups.h>\n#include \"cuda/kernels.h\"\n"),
        Valid("void s(int* b, int* e) { thrust::sort(thrust::hip::par, b, e); }\n"),
        Valid('// thrust::cuda::par\nconst char* s = "cudnnCreate";\n'),
    ]

    def check(self, ctx):
        data = ctx.data
        seen: set[str] = set()
        if b"#" in data and (b"cudnn" in data or b"cutlass/" in data or b"cute/" in data
                             or b"cuda/" in data or b"cooperative_groups/" in data):
            for node in parse.captures(INCLUDES, ctx.tree.root_node).get("path", []):
                library = library_of_include(node.text.decode("utf-8", "surrogateescape"))
                if library == "libcudacxx" and cuda_barrier.plan(ctx) is not None:
                    continue  # CPP068 writes what the file uses of it
                if library is not None and library not in seen:
                    seen.add(library)
                    include = node.parent
                    end = node.end_byte
                    yield self.finding(ctx, include.start_byte, end, message(library),
                                       severity=LIBRARIES[library][2])
        if "cudnn_frontend" not in seen and b"cudnn_frontend" in data:
            for _, token in ctx.code_matches(FRONTEND):
                seen.add("cudnn_frontend")
                yield self.finding(ctx, token.start, token.end, message("cudnn_frontend"),
                                   severity=LIBRARIES["cudnn_frontend"][2])
                break
        if b"thrust" in data:
            for m in THRUST_CUDA.finditer(data):
                node = ctx.node_at(m.start(1), m.end(1))
                if node.type != "namespace_identifier":
                    continue
                yield self.finding(ctx, m.start(), m.end(), "thrust::cuda::par is CUDA Thrust's execution policy: "
                                   "rocThrust spells it thrust::hip::par", severity=Severity.WARNING,
                                   edits=[Edit(m.start(1), m.end(1), "hip")], title="Use thrust::hip::par")
